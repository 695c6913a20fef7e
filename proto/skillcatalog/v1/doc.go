// Package skillcatalogv1 is the generated Go code of the skillcatalog.v1
// protocol (skillcatalog.proto in this directory). Do not edit the .pb.go
// files; regenerate them with `bash proto/generate.sh`.
package skillcatalogv1
