// Package contracttest checks implementations of the plugin protocol's
// contract (package contract), the way skilltest checks skill providers.
//
// RunService runs a service conformance run against any contract.Service:
// the engine in the host's process, the engine over gRPC (a go-plugin
// connection, or the real plugin binary), or a service of your own. It
// checks what the contract promises a host, not the rules' every text
// (the conformance scenarios in testdata/conformance pin those): mounts
// and their errors, the catalog's life (initial, unchanged, replacement,
// tombstone, after a compaction), visibility and incomplete snapshots, the
// reasons every step gives (a documented code explaining its outcome), the
// `skill` tool, the one-round-trip promise of the step's hints, whose
// fault a failure is (contract.ErrHostFailed, the caller's cancellation and
// deadline), resource reads, and concurrent use.
//
// Host is the scriptable fake contract.Host the run drives services with;
// tests of code that consumes a service can use it too.
package contracttest
