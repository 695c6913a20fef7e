//go:build tools

// Package tools pins the protobuf linter and the gRPC code generator used by
// proto/generate.sh. It lives in its own module so the product's go.mod
// carries none of their dependencies. protoc-gen-go is built from the
// product's own module instead, so generated code always matches the
// protobuf runtime the product links.
package tools

import (
	_ "github.com/bufbuild/buf/cmd/buf"
	_ "google.golang.org/grpc/cmd/protoc-gen-go-grpc"
)
