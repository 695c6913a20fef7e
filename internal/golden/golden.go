// Package golden compares test output with golden files: the one way the
// project's tests pin exact text. Each package keeps the golden files it
// pins in its own testdata directory, and
//
//	go test ./PKG -update
//
// rewrites them from what the code now writes, for review in the diff.
// Only tests import it.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update is the -update flag of every test binary that imports this
// package.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from what the code writes, instead of comparing")

// Read returns the golden file at path, failing the test if it cannot be
// read.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file %s (go test -update writes it): %v", path, err)
	}
	return b
}

// Check compares got with the golden file at path byte for byte, or, with
// -update, writes got there.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("write golden file: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("write golden file: %v", err)
		}
		return
	}
	if want := Read(t, path); string(want) != string(got) {
		t.Errorf("%s differs from what the code writes (-want +got; go test -update accepts it):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}
