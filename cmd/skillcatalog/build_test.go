package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// buildCommand builds this command into a temporary directory, as the
// README tells a user to before running serve-mcp in the background. It
// lives in a file of no build constraint: tests of every platform use it.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "skillcatalog")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestVetsOnEveryPlatform: the command and its tests type-check for the
// platforms it is built for, not only the one the tests run on: a helper
// that only a file with a build constraint defines breaks the others.
func TestVetsOnEveryPlatform(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "vet", ".")
		cmd.Env = append(cmd.Environ(), "GOOS="+goos, "GOARCH=amd64")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s go vet: %v\n%s", goos, err, out)
		}
	}
}
