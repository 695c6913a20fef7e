// Package plugintest builds the real plugin binary for tests that drive it
// through go-plugin, and checks that no goroutine outlives them.
package plugintest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

// PluginPackage is the import path of the plugin binary.
const PluginPackage = "github.com/skillcatalog/skillcatalog/cmd/skillcatalog-plugin"

// Main builds the plugin binary into a temporary directory, stores its path
// in *path, runs the tests, and exits. After passing tests it fails the run
// if goroutines (a plugin client, a broker) are still alive. Tests skipped
// by testneeds.Skip are reported in one line. Call it from TestMain.
func Main(m *testing.M, path *string) {
	os.Exit(run(m, path))
}

func run(m *testing.M, path *string) int {
	dir, err := os.MkdirTemp("", "skillcatalog-plugin-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	*path = filepath.Join(dir, "skillcatalog-plugin")
	build := exec.Command("go", "build", "-o", *path, PluginPackage)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build plugin:", err)
		return 1
	}
	code := testneeds.Report(m.Run())
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreCurrent()); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	return code
}
