package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

const explainFixture = "../../testdata/explain"

// runExplain runs explain -json with args and decodes its output.
func runExplain(t *testing.T, args ...string) explanation {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"explain", "-json"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("explain exited %d: %s", code, stderr.String())
	}
	var ex explanation
	if err := json.Unmarshal(stdout.Bytes(), &ex); err != nil {
		t.Fatalf("output is not the JSON object: %v\n%s", err, stdout.String())
	}
	return ex
}

// reasonsByName maps each skill explain found, by its path below the
// fixture (or @origin:name for a remote one), to the reason kinds given.
func reasonsByName(t *testing.T, ex explanation) map[string][]string {
	t.Helper()
	base, err := filepath.Abs(explainFixture)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, s := range ex.Skills {
		key := "@" + s.Name
		if s.Origin == "" {
			rel, err := filepath.Rel(base, s.Path)
			if err != nil {
				t.Fatal(err)
			}
			key = filepath.ToSlash(rel)
		}
		for _, r := range s.Reasons {
			out[key] = append(out[key], r.Kind)
		}
	}
	return out
}

// TestExplainGivesEveryReason runs explain on a tree holding one skill of
// every reason, with an MCP server serving a skill whose name a local
// skill has, and checks the reason given for each.
func TestExplainGivesEveryReason(t *testing.T) {
	handler, err := skillserver.New(os.DirFS(filepath.Join(explainFixture, "remote"))).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	ex := runExplain(t,
		"-home", filepath.Join(explainFixture, "home"),
		"-skills", filepath.Join(explainFixture, "extra"),
		"-cwd", filepath.Join(explainFixture, "project"),
		"-description-max-length", "40",
		"-exclude", "excluded-skill",
		"-mcp-url", srv.URL+"/mcp", "-mcp-label", "docs")

	want := map[string][]string{
		"home/.agents/skills/broken-yaml":      {"parse-error"},
		"home/.agents/skills/excluded-skill":   {"selection"},
		"home/.agents/skills/hidden-skill":     {"policy"},
		"home/.agents/skills/listed-skill":     {"listed"},
		"@docs:listed-skill":                   {"name-collision", "listed", "shortened"},
		"home/.agents/skills/long-description": {"listed", "shortened"},
		"project/.agents/skills/project-skill": {"outside-trust"},
		"home/.agents/skills/shared":           {"listed"},
		"extra/shared":                         {"shadowed"},
	}
	if diff := cmp.Diff(want, reasonsByName(t, ex)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s\n%+v", diff, ex.Skills)
	}
	if ex.Outcome != "initial" || !ex.Complete {
		t.Errorf("outcome %s, complete %v", ex.Outcome, ex.Complete)
	}
	for _, in := range []string{"`listed-skill`", "`docs:listed-skill`", "`shared`: The home directory copy", "`long-description`: A description far longer than the for..."} {
		if !strings.Contains(ex.Catalog, in) {
			t.Errorf("the catalog lacks %q:\n%s", in, ex.Catalog)
		}
	}
	for _, out := range []string{"hidden-skill", "excluded-skill", "project-skill", "broken-yaml", "extra root copy"} {
		if strings.Contains(ex.Catalog, out) {
			t.Errorf("the catalog holds %q:\n%s", out, ex.Catalog)
		}
	}
}

// TestExplainUnreachableServer: with an MCP server where nothing listens,
// explain still publishes and explains the local skills, and one entry
// says the server was left out and why.
func TestExplainUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ex := runExplain(t,
		"-home", filepath.Join(explainFixture, "home"),
		"-cwd", filepath.Join(explainFixture, "project"),
		"-mcp-url", "http://"+addr+"/mcp", "-mcp-label", "docs")
	if ex.Outcome != "initial" || !ex.Complete || !strings.Contains(ex.Catalog, "`listed-skill`") {
		t.Fatalf("outcome %s, complete %v, catalog:\n%s", ex.Outcome, ex.Complete, ex.Catalog)
	}
	var degraded []explainReason
	for _, s := range ex.Skills {
		for _, r := range s.Reasons {
			if r.Kind == reasonDegraded {
				degraded = append(degraded, r)
			}
			if r.Kind == reasonIncomplete {
				t.Errorf("skill %q: %s", s.Name, r.Detail)
			}
		}
	}
	if len(degraded) != 1 || !strings.Contains(degraded[0].Detail, "best-effort provider docs in scope") ||
		!strings.Contains(degraded[0].Detail, "connection refused") || !strings.Contains(degraded[0].Detail, "left out until it lists") {
		t.Errorf("degraded reasons %+v, want one naming the server, its error and that it is left out", degraded)
	}
}

// TestExplainBudgetAndTrust: a catalog budget too small for every name
// leaves skills out for budget, and -trust-project loads the project's.
func TestExplainBudgetAndTrust(t *testing.T) {
	ex := runExplain(t,
		"-home", filepath.Join(explainFixture, "home"),
		"-cwd", filepath.Join(explainFixture, "project"),
		"-skills", filepath.Join(explainFixture, "many"),
		"-trust-project",
		"-catalog-budget", "100")
	var budget, listed []string
	for _, s := range ex.Skills {
		for _, r := range s.Reasons {
			switch r.Kind {
			case "budget":
				budget = append(budget, s.Name)
			case "listed":
				listed = append(listed, s.Name)
			case "outside-trust":
				t.Errorf("%s is outside trust in a trusted project", s.Name)
			}
		}
	}
	if len(budget) == 0 || len(listed) == 0 {
		t.Fatalf("budget %v, listed %v; want some of each\n%+v", budget, listed, ex.Skills)
	}
	if !slices.Contains(append(budget, listed...), "project-skill") {
		t.Errorf("the trusted project's skill is not offered: %+v", ex.Skills)
	}
	if len(ex.Notes) == 0 || !strings.Contains(strings.Join(ex.Notes, "\n"), "catalogBudget 100") {
		t.Errorf("notes %q do not name the budget", ex.Notes)
	}
}

// TestExplainText checks the human-readable form and the usage errors.
func TestExplainText(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"explain",
		"-home", filepath.Join(explainFixture, "home"),
		"-cwd", filepath.Join(explainFixture, "project")}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("explain exited %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"outcome initial",
		"The catalog the model sees:",
		"<available_skills>",
		"  in  listed-skill  ",
		"  out hidden-skill  ",
		"      policy: disable-model-invocation: true",
		"  out broken-yaml  ",
		"      parse-error: skipped: frontmatter is not valid YAML",
		"  out project-skill  ",
		"Source diagnostics:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"explain", "extra"}, &stdout, &stderr); code != 2 {
		t.Errorf("an argument: exit %d, want 2", code)
	}
	if code := run(context.Background(), []string{"explain", "-skills", filepath.Join(explainFixture, "missing")}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "missing") {
		t.Errorf("a missing -skills: exit %d, %s", code, stderr.String())
	}
}

// TestExplainAndDemoNameAMissingDirectoryAlike: a -skills directory that
// does not exist is "no such directory" in explain, as in demo and
// serve-mcp; a file is "not a directory".
func TestExplainAndDemoNameAMissingDirectoryAlike(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{{missing, "no such directory"}, {file, "not a directory"}} {
		for _, cmd := range []string{"explain", "demo"} {
			code, _, stderr := runCLI(t, cmd, "-skills", tc.dir)
			if code == 0 || !strings.Contains(stderr, "-skills "+tc.dir+": "+tc.want) {
				t.Errorf("%s -skills %s: exit %d, stderr %q; want it to say %q", cmd, tc.dir, code, stderr, tc.want)
			}
		}
	}
}
