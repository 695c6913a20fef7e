#!/usr/bin/env bash
# Regenerates the Go code in proto/ from the .proto files, or checks it.
#
#   bash proto/generate.sh           regenerate (the one documented command)
#   bash proto/generate.sh --check   lint, check breaking changes against main,
#                                    and fail if the committed code is stale
#
# buf and protoc-gen-go-grpc are built from proto/tools (their own module);
# protoc-gen-go is built from the product module so generated code matches
# the protobuf runtime the product links.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${SKILLCATALOG_TOOLS_BIN:-$root/.cache/prototools}
mkdir -p "$bin"
(cd proto/tools && go build -o "$bin/" github.com/bufbuild/buf/cmd/buf google.golang.org/grpc/cmd/protoc-gen-go-grpc)
go build -o "$bin/" google.golang.org/protobuf/cmd/protoc-gen-go
export PATH="$bin:$PATH"

if [ "${1:-}" != "--check" ]; then
  buf generate
  exit 0
fi

buf lint
# Breaking-change check. Off main, the schema is compared with main. On main
# (where CI runs), it is compared with the previous commit, so every change
# that lands is checked against what was there before it; uncommitted edits
# are compared with HEAD's parent too.
if [ "$(git rev-parse HEAD 2>/dev/null)" != "$(git rev-parse --verify --quiet main 2>/dev/null)" ]; then
  buf breaking --against ".git#branch=main"
elif git rev-parse --verify --quiet HEAD~1 >/dev/null; then
  buf breaking --against ".git#ref=HEAD~1"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
buf generate --output "$out"
stale=0
while IFS= read -r f; do
  rel=${f#"$out"/}
  if ! cmp -s "$f" "$rel"; then echo "stale generated file: $rel" >&2; stale=1; fi
done < <(find "$out" -name '*.go')
while IFS= read -r f; do
  [ -f "$out/$f" ] || { echo "generated file without a source: $f" >&2; stale=1; }
done < <(find proto -name '*.pb.go' -not -path 'proto/tools/*')
if [ $stale = 1 ]; then
  echo "generated code is stale: run 'bash proto/generate.sh' and commit the result" >&2
  exit 1
fi
echo "proto: lint, breaking and generated code up to date"
