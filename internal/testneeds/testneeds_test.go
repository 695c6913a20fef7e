package testneeds

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeT records how a test ended.
type fakeT struct {
	testing.TB
	name           string
	fatal, skipped string
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Name() string          { return f.name }
func (f *fakeT) Fatal(args ...any)     { f.fatal = fmt.Sprint(args...) }
func (f *fakeT) Skip(args ...any)      { f.skipped = fmt.Sprint(args...) }
func (f *fakeT) Fatalf(string, ...any) { panic("unused") }

// TestSkipIsReportedInOneLine: a test that needs a missing program is
// skipped, and Report's line names it and what it needs; under CI=true it
// fails instead and is not reported as skipped.
func TestSkipIsReportedInOneLine(t *testing.T) {
	mu.Lock()
	saved := skipped
	skipped = nil
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); skipped = saved; mu.Unlock() })

	t.Setenv("CI", "")
	missing := errors.New(`exec: "node": executable file not found in $PATH`)
	a, b := &fakeT{name: "TestA"}, &fakeT{name: "TestB/sub"}
	Skip(a, "Node.js and `npm ci --prefix testdata/mcpclient`", missing)
	Skip(b, "Node.js and `npm ci --prefix testdata/mcpclient`", missing)
	if a.fatal != "" || !strings.Contains(a.skipped, "needs Node.js") || !strings.Contains(a.skipped, "executable file not found") {
		t.Errorf("skip %q, fatal %q", a.skipped, a.fatal)
	}
	var out strings.Builder
	report(&out, "cmd/skillcatalog")
	want := "SKIP cmd/skillcatalog: 2 tests skipped (TestA, TestB/sub): they need Node.js and `npm ci --prefix testdata/mcpclient`; with CI=true they fail instead\n"
	if out.String() != want {
		t.Errorf("report:\n%q\nwant\n%q", out.String(), want)
	}

	t.Setenv("CI", "true")
	c := &fakeT{name: "TestC"}
	Skip(c, "openssl", missing)
	if c.fatal == "" || c.skipped != "" {
		t.Errorf("under CI: fatal %q, skip %q; want a failure", c.fatal, c.skipped)
	}
	out.Reset()
	report(&out, "x")
	if strings.Contains(out.String(), "TestC") {
		t.Errorf("a failed test is reported as skipped: %q", out.String())
	}
}

// TestPostgresDSNSkipsWithoutTheVariable: without the DSN a test is
// skipped with the variable to set; with it, the DSN is returned.
func TestPostgresDSNSkipsWithoutTheVariable(t *testing.T) {
	mu.Lock()
	saved := skipped
	skipped = nil
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); skipped = saved; mu.Unlock() })

	t.Setenv("CI", "")
	t.Setenv(PostgresDSNVar, "")
	f := &fakeT{name: "TestStore"}
	PostgresDSN(f)
	if !strings.Contains(f.skipped, "needs PostgreSQL (set "+PostgresDSNVar) {
		t.Errorf("skip %q", f.skipped)
	}
	t.Setenv(PostgresDSNVar, "postgres://db")
	if got := PostgresDSN(&fakeT{name: "TestStore"}); got != "postgres://db" {
		t.Errorf("PostgresDSN = %q", got)
	}
}

// TestLineShowsInGoTestOutput runs go test on a package with a skipped
// test, as the project's test command does: the line naming the test is
// in the summary file of each run (the package runs again rather than
// being replayed from the cache without it), in the output of go test -v
// and in the JSON of go test -json; under CI=true the package fails.
func TestLineShowsInGoTestOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	goTest := func(ci, summary string, args ...string) (string, error) {
		cmd := exec.Command("go", append([]string{"test"}, append(args, "./testdata/skipper")...)...)
		cmd.Env = append(os.Environ(), "CI="+ci, "GOFLAGS=", SummaryVar+"="+summary)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	const line = "SKIP internal/testneeds/testdata/skipper: 1 test skipped (TestNeedsWidget): it needs a widget; with CI=true it fails instead\n"

	for run := range 2 {
		summary := filepath.Join(t.TempDir(), "summary") // a fresh file each run, as testall's
		out, err := goTest("", summary)
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, out)
		}
		if strings.Contains(out, "(cached)") {
			t.Errorf("run %d was replayed from the cache:\n%s", run, out)
		}
		if b, err := os.ReadFile(summary); err != nil || string(b) != line {
			t.Errorf("run %d: summary file %q (%v), want the line", run, b, err)
		}
	}

	out, err := goTest("", "", "-v", "-count=1")
	if err != nil || !strings.Contains(out, line) {
		t.Errorf("-v: %v\n%s\nwant the line\n%s", err, out, line)
	}

	out, err = goTest("", "", "-json", "-count=1")
	if err != nil {
		t.Fatalf("-json: %v\n%s", err, out)
	}
	var found bool
	for l := range strings.Lines(out) {
		var ev struct{ Action, Output string }
		if err := json.NewDecoder(bytes.NewReader([]byte(l))).Decode(&ev); err != nil {
			t.Errorf("-json printed a line that is not JSON: %q", l)
		}
		found = found || ev.Action == "output" && ev.Output == line
	}
	if !found {
		t.Errorf("-json has no output event with the line:\n%s", out)
	}

	out, err = goTest("true", "", "-count=1")
	if err == nil || !strings.Contains(out, "--- FAIL: TestNeedsWidget") || !strings.Contains(out, "needs a widget: no widget here") {
		t.Errorf("under CI=true: %v\n%s\nwant TestNeedsWidget to fail", err, out)
	}
}
