// Package skillcatalogv1 is the generated Go code of the skillcatalog.v1
// protocol (skillcatalog.proto in this directory). Do not edit the .pb.go
// files; regenerate them with `bash proto/generate.sh`.
//
// It is public on purpose. The protocol is the project's contract with
// hosts in every language, and a Go host may speak it without the host
// SDK: its own broker, its own process supervision, another plugin
// framework. Such a host imports these types rather than generating a
// second copy that could drift. Within this module only internal/wire
// imports it: the SDK and the engine see the protocol through package
// contract, so the generated types never reach their APIs. The package
// changes only additively (buf breaking runs in CI), as proto/HOSTS.md
// says under Stability.
package skillcatalogv1
