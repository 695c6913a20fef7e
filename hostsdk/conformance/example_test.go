package conformance_test

import (
	"context"
	"os"

	"github.com/skillcatalog/skillcatalog/hostsdk/conformance"
)

// A Runner runs scenario files through the host SDK, each in a fresh host,
// here against the plugin's rules in this process; with PluginPath it
// starts a plugin binary instead, which is how a plugin release proves it
// keeps the behaviour contract. `skillcatalog conform` is this runner.
func ExampleRunner_RunFiles() {
	files := []string{
		"../../testdata/conformance/add-skill.yaml",
		"../../testdata/conformance/compaction-hides-catalog.yaml",
	}
	runner := &conformance.Runner{InProcess: true}
	runner.RunFiles(context.Background(), files, nil, os.Stdout)
	// Output:
	// PASS add-skill
	// PASS compaction-hides-catalog
	// 2 passed, 0 failed
}
