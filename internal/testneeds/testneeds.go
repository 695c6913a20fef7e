// Package testneeds is for tests that need something the Go toolchain does
// not bring: a PostgreSQL server, Node.js with npm packages, openssl, a
// Python with gRPC. Where it is missing, Skip skips such a test and
// remembers it, and Report, called from TestMain, prints one line naming
// every test skipped so and what it needs. Under CI=true Skip fails the
// test instead, so that CI never passes without running it.
//
// go test ./... drops a passing package's output unless it runs with -v or
// -json, and a skipped test passes. So the line goes to standard error,
// which -v, -json and a failing run show, and to the terminal when there is
// one (/dev/tty), where the developer who ran go test reads it. A runner of
// many packages (internal/testall, the project's test command) names a
// file in SummaryVar; Report appends its line there, and testall prints
// every such line at the end. Only a skip reads SummaryVar, so go test
// caches a package that skipped nothing as usual, and runs one that
// skipped a test again whenever the file named changes (testall names a
// new one each run): its line is never lost to a replayed result.
package testneeds

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// PostgresDSNVar names the environment variable with the PostgreSQL server
// the session-store tests use; .ci/run sets it.
const PostgresDSNVar = "SKILLCATALOG_TEST_POSTGRES_DSN"

// ExampleDSN is the server this project's machines and CI run.
const ExampleDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// SummaryVar names the environment variable with a file to which Report
// also appends its line, so that a runner of many packages (internal/testall)
// can list every skip after the last package.
const SummaryVar = "SKILLCATALOG_TESTNEEDS_SUMMARY"

var (
	mu      sync.Mutex
	skipped []skip
	summary string // the file named in SummaryVar, read at the first skip
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
	// Read while the test runs, so that go test keys its cached result
	// on the summary file named (a read after the tests is not recorded).
	summary = os.Getenv(SummaryVar)
	mu.Unlock()
	t.Skip(msg)
}

// PostgresDSN returns the PostgreSQL server to test against, from
// PostgresDSNVar; without one it skips t through Skip.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv(PostgresDSNVar); dsn != "" {
		return dsn
	}
	Skip(t, fmt.Sprintf("PostgreSQL (set %s, e.g. to %s)", PostgresDSNVar, ExampleDSN), errors.New(PostgresDSNVar+" is unset"))
	return ""
}

// Report prints, when Skip skipped tests, one line naming them and what
// they need, and returns code: TestMain ends with
// os.Exit(testneeds.Report(m.Run())).
func Report(code int) int {
	var line strings.Builder
	report(&line, packageName())
	if line.Len() == 0 {
		return code
	}
	os.Stderr.WriteString(line.String())
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil && code == 0 && !verbose() {
		tty.WriteString(line.String())
		tty.Close()
	}
	mu.Lock()
	path := summary
	mu.Unlock()
	if path != "" {
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666); err == nil {
			f.WriteString(line.String())
			f.Close()
		}
	}
	return code
}

// verbose reports whether go test shows the test binary's output anyway:
// with -v, or -json (test.v=test2json), where writing elsewhere would also
// break the JSON stream.
func verbose() bool {
	f := flag.Lookup("test.v")
	return f != nil && f.Value.String() != "false"
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
	fmt.Fprintf(w, "SKIP %s: %d %s skipped (%s): %s %s; with CI=true %s instead\n",
		pkg, len(tests), noun, strings.Join(tests, ", "), need, strings.Join(needs, "; "), fail)
}

// moduleRoot returns the directory of the go.mod above the package under
// test (go test runs a test binary in its package's directory).
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above " + wd)
		}
		dir = parent
	}
}

// packageName names the package under test by its directory, relative to
// its module's.
func packageName() string {
	wd, err := os.Getwd()
	if err != nil {
		return "go test"
	}
	root, err := moduleRoot()
	if err != nil {
		return wd
	}
	if rel, err := filepath.Rel(root, wd); err == nil && rel != "." {
		return filepath.ToSlash(rel)
	}
	return filepath.Base(wd)
}
