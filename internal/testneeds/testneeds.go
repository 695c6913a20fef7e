// Package testneeds is for tests that need a program the Go toolchain does
// not bring, such as Node.js with npm packages, or openssl. Where the
// program is missing, Skip skips such a test and remembers it, and Report,
// called from TestMain, prints one line naming every test skipped so and
// what it needs. Under CI=true Skip fails the test instead, so that CI
// never passes without running it.
//
// go test shows a passing package's output only with -v, and a skipped test
// passes, so the line goes to the terminal when there is one (/dev/tty),
// where the developer who ran go test reads it; otherwise, to standard
// error, which -v and a failing run show. A result go test replays from
// its cache prints nothing new; -count=1 runs the tests again.
package testneeds

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	mu      sync.Mutex
	skipped []skip
)

type skip struct{ test, needs string }

// Skip ends t, which cannot run because what it needs (say "Node.js and
// `npm ci --prefix testdata/mcpclient`") is missing; why is how that
// showed (the error of looking for it). Under CI=true the test fails;
// otherwise it is skipped, and Report names it.
func Skip(t testing.TB, needs string, why error) {
	t.Helper()
	msg := fmt.Sprintf("needs %s: %v", needs, why)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
		return
	}
	mu.Lock()
	skipped = append(skipped, skip{test: t.Name(), needs: needs})
	mu.Unlock()
	t.Skip(msg)
}

// Report prints, when Skip skipped tests, one line naming them and what
// they need, and returns code: TestMain ends with
// os.Exit(testneeds.Report(m.Run())).
func Report(code int) int {
	w := io.Writer(os.Stderr)
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		w = tty
	}
	report(w, packageName())
	return code
}

// report writes the line of the skipped tests of pkg to w, if any were
// skipped.
func report(w io.Writer, pkg string) {
	mu.Lock()
	defer mu.Unlock()
	if len(skipped) == 0 {
		return
	}
	var tests, needs []string
	for _, s := range skipped {
		tests = append(tests, s.test)
		if !slices.Contains(needs, s.needs) {
			needs = append(needs, s.needs)
		}
	}
	noun, need, fail := "tests", "they need", "they fail"
	if len(tests) == 1 {
		noun, need, fail = "test", "it needs", "it fails"
	}
	fmt.Fprintf(w, "%s: %d %s skipped (%s): %s %s; with CI=true %s instead\n",
		pkg, len(tests), noun, strings.Join(tests, ", "), need, strings.Join(needs, "; "), fail)
}

// packageName names the package under test by its directory, relative to
// its module's (go test runs a test binary in its package's directory).
func packageName() string {
	wd, err := os.Getwd()
	if err != nil {
		return "go test"
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if rel, err := filepath.Rel(dir, wd); err == nil && rel != "." {
				return filepath.ToSlash(rel)
			}
			return filepath.Base(wd)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}
