package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/golden"
)

// runEval runs skillcatalog eval on the fixture library, with a home and
// working directory of no skills, and returns its output and status.
func runEval(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	empty := t.TempDir()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"eval", "-skills", filepath.Join("testdata", "eval", "skills"), "-home", empty, "-cwd", empty}, args...), &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestEvalTable: with no FILE, eval reads the evals/ folder of every skill
// of the library (a JSON array, a markdown list) and prints one row per
// case; a case whose skill a neighbour outranks names it, a case that
// should not trigger but ranks its skill first fails, and so does one that
// puts its skill nowhere; a failure makes the status 1. The catalog
// budget shortens every description, so skills are placed by the
// relevant-skills message and the search.
func TestEvalTable(t *testing.T) {
	stdout, stderr, code := runEval(t, "-relevant-skills", "on", "-catalog-budget", "100")
	if code != 1 || stderr != "" {
		t.Errorf("status %d, want 1 (cases fail); stderr:\n%s", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "eval_table.golden"), []byte(stdout))
}

// TestEvalJSON: -json reports each case with its placement, rank, the
// neighbour above it and whether it passed, and the totals; a file given
// on the command line is read alone, with -skill naming its skill.
func TestEvalJSON(t *testing.T) {
	stdout, stderr, code := runEval(t, "-json", "-skill", "pdf", filepath.Join("testdata", "eval", "skills", "pdf", "evals", "triggers.json"))
	var r evalReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s\n%s", err, stdout, stderr)
	}
	if len(r.Cases) != 4 || r.Passed+r.Failed != 4 || r.K != 5 {
		t.Fatalf("report %+v, want the 4 cases of the file", r)
	}
	for _, c := range r.Cases {
		if c.Skill != "pdf" || c.Placement == "" {
			t.Errorf("case %+v: want skill pdf and a placement", c)
		}
	}
	// The whole library fits the catalog in full: a case that should
	// trigger finds pdf there.
	if c := r.Cases[0]; c.Placement != "catalog" || !c.Pass || c.SearchRank != 1 {
		t.Errorf("first case %+v, want pdf in the catalog, ranked first, passed", c)
	}
	// "Extract the tables from report.pdf" should not trigger pdf, but pdf
	// ranks first for it.
	if c := r.Cases[3]; c.Pass || c.SearchRank != 1 {
		t.Errorf("last case %+v, want it failed with pdf first", c)
	}
	if (code != 0) != (r.Failed > 0) {
		t.Errorf("status %d with %d failed", code, r.Failed)
	}
}

// TestEvalErrors: a file no parser reads, and cases that name no skill,
// are errors (status 1) that say so.
func TestEvalErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, "not json")
	if _, stderr, code := runEval(t, bad); code != 1 || !strings.Contains(stderr, "neither JSON nor markdown") {
		t.Errorf("bad file: status %d, stderr %q", code, stderr)
	}
	anon := filepath.Join(dir, "t.json")
	writeFile(t, anon, `[{"query":"q","should_trigger":true}]`)
	if _, stderr, code := runEval(t, anon); code != 1 || !strings.Contains(stderr, "give -skill NAME") {
		t.Errorf("no skill: status %d, stderr %q", code, stderr)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidateStrictNotesMissingEvals: validate -strict notes a skill with
// no trigger-eval file and not one with such a file; without -strict it
// notes nothing. A note leaves the skill valid.
func TestValidateStrictNotesMissingEvals(t *testing.T) {
	lib := filepath.Join("testdata", "eval", "skills")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"validate", "-strict", "-json", lib}, &out, &errOut); code != 0 {
		t.Fatalf("status %d; stderr %s", code, errOut.String())
	}
	var rep validateReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	noted := map[string]bool{}
	for _, s := range rep.Skills {
		noted[filepath.Base(s.Path)] = len(s.Notes) == 1 && s.Notes[0] == noEvalsNote
	}
	if want := map[string]bool{"pdf": false, "pdf-forms": true, "xlsx": false}; !maps.Equal(noted, want) {
		t.Errorf("noted = %v, want %v", noted, want)
	}
	out.Reset()
	run(context.Background(), []string{"validate", lib}, &out, &errOut)
	if strings.Contains(out.String(), "note:") {
		t.Errorf("without -strict:\n%s", out.String())
	}
}

// TestEvalModelRunsTheDriver: eval -model runs the model driver with the
// options it shares and the eval files of the skill DIR given, and exits
// with its status; without a FILE or DIR it is a usage error.
func TestEvalModelRunsTheDriver(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake driver is a shell script")
	}
	dir := t.TempDir()
	driver := filepath.Join(dir, "driver")
	writeFile(t, driver, "#!/bin/sh\necho \"$@\"\nexit 3\n")
	if err := os.Chmod(driver, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SKILLCATALOG_MODELEVAL", driver)
	lib := filepath.Join("testdata", "eval", "skills")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"eval", "-model", "openai", "-runs", "5", "-skills", lib, "-json", filepath.Join(lib, "pdf")}, &out, &errOut)
	want := "-model openai -runs 5 -threshold 0.5 -skills " + lib + " -json -- " + filepath.Join(lib, "pdf", "evals", "triggers.json") + "\n"
	if code != 3 || out.String() != want {
		t.Errorf("status %d, output %q; want 3 and %q (stderr %q)", code, out.String(), want, errOut.String())
	}
	if code := run(context.Background(), []string{"eval", "-model", "openai", "-skills", lib}, &out, &errOut); code != 2 {
		t.Errorf("no FILE: status %d, want 2", code)
	}
}
