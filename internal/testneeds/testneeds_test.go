package testneeds

import (
	"errors"
	"fmt"
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
	want := "cmd/skillcatalog: 2 tests skipped (TestA, TestB/sub): they need Node.js and `npm ci --prefix testdata/mcpclient`; with CI=true they fail instead\n"
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
