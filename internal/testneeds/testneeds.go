// Package testneeds is for tests that need something the Go toolchain does
// not bring: a PostgreSQL server, Node.js with npm packages, openssl, a
// Python with gRPC. Where it is missing, Skip skips such a test and
// remembers it, and Report, called from TestMain, prints one line naming
// every test skipped so and what it needs. Under CI=true Skip fails the
// test instead, so that CI never passes without running it.
//
// go test ./... drops a passing package's output unless it runs with -v or
// -json, and a skipped test passes. So the line goes to standard error,
// which -v, -json and a failing run show, and also, when the go command
// would drop it, straight to the go command's own output (found through
// /proc on Linux; elsewhere, the terminal): the line precedes the
// package's ok line in what a script running go test reads. A package
// that skipped a test also writes .cache/testneeds-skipped in its module,
// a file go test sees it open and so does not cache the result: a passing
// run replayed from the cache would print its ok line alone.
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
	uncache()
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

// uncache writes the stamp file of the module under test. go test records
// the files a test opens inside its module and does not cache a result
// that read a file modified a moment before, so the package runs, and
// prints its line, every time until what it needs is there.
func uncache() {
	root, err := moduleRoot()
	if err != nil {
		return
	}
	dir := filepath.Join(root, ".cache")
	if os.MkdirAll(dir, 0o777) == nil {
		os.WriteFile(filepath.Join(dir, "testneeds-skipped"), []byte("written by a test skipped for want of a prerequisite\n"), 0o666)
	}
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
	if code == 0 && !verbose() {
		if w := goOutput(); w != nil {
			io.WriteString(w, line.String())
			w.Close()
		}
	}
	if path := os.Getenv(SummaryVar); path != "" {
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

// goOutput opens where the go command that runs this test binary writes
// its ok lines, when that is not this binary's standard error already
// (go test in a package's directory streams the output) and a write there
// keeps its place: a pipe, a terminal, or a file opened to append (the go
// command writes a file opened otherwise at its own offset, over the
// line). Failing that, it opens the terminal, if there is one.
func goOutput() io.WriteCloser {
	if w := parentOutput(); w != nil {
		return w
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		return tty
	}
	return nil
}

func parentOutput() *os.File {
	ppid := os.Getppid()
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", ppid))
	if err != nil || strings.TrimSuffix(filepath.Base(exe), ".exe") != "go" {
		return nil
	}
	own, err := os.Stderr.Stat()
	if err != nil {
		return nil
	}
	for _, fd := range []int{1, 2} {
		path := fmt.Sprintf("/proc/%d/fd/%d", ppid, fd)
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if os.SameFile(own, info) {
			return nil // the go command streams this binary's output
		}
		switch mode := info.Mode(); {
		case mode&(os.ModeNamedPipe|os.ModeSocket|os.ModeCharDevice) != 0:
		case mode.IsRegular() && appends(ppid, fd):
		default:
			continue
		}
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f
		}
	}
	return nil
}

// appends reports whether the go command's descriptor fd was opened with
// O_APPEND (octal 02000 in the flags /proc shows on Linux).
func appends(pid, fd int) bool {
	info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%d", pid, fd))
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(info)) {
		if flags, ok := strings.CutPrefix(line, "flags:"); ok {
			var v int
			_, err := fmt.Sscanf(strings.TrimSpace(flags), "%o", &v)
			return err == nil && v&0o2000 != 0
		}
	}
	return false
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
