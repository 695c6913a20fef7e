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
// test, as a script would: the line naming the test is in the output of
// the passing run beside the ok line, again on the next run (the result is
// not replayed from the cache without it), in the JSON of go test -json,
// and in the summary file; under CI=true the package fails.
func TestLineShowsInGoTestOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	summary := filepath.Join(t.TempDir(), "summary")
	goTest := func(ci string, args ...string) (string, error) {
		cmd := exec.Command("go", append([]string{"test"}, append(args, "./testdata/skipper")...)...)
		cmd.Env = append(os.Environ(), "CI="+ci, "GOFLAGS=", SummaryVar+"="+summary)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	const line = "SKIP internal/testneeds/testdata/skipper: 1 test skipped (TestNeedsWidget): it needs a widget; with CI=true it fails instead\n"

	for run := range 2 {
		out, err := goTest("")
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, out)
		}
		if !strings.Contains(out, line) || !strings.Contains(out, "ok  \t") || strings.Contains(out, "(cached)") {
			t.Errorf("run %d printed\n%s\nwant the line\n%s and a fresh ok", run, out, line)
		}
	}
	if b, err := os.ReadFile(summary); err != nil || string(b) != line+line {
		t.Errorf("summary file %q (%v), want the line twice", b, err)
	}

	out, err := goTest("", "-json")
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

	out, err = goTest("true")
	if err == nil || !strings.Contains(out, "--- FAIL: TestNeedsWidget") || !strings.Contains(out, "needs a widget: no widget here") {
		t.Errorf("under CI=true: %v\n%s\nwant TestNeedsWidget to fail", err, out)
	}
}
