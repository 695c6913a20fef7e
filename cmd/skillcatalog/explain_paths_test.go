package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainPaths: a skill scoped by paths is out of the catalog, said
// so with its patterns, until -touched names a matching file; a
// malformed pattern is a warning that validate and explain show.
func TestExplainPaths(t *testing.T) {
	dir := t.TempDir()
	skillDir := filepath.Join(dir, "skills", "go-style")
	if err := os.MkdirAll(skillDir, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "---\nname: go-style\ndescription: Go style rules.\npaths:\n  - \"**/*.go\"\n  - \"src/[a-.go\"\n  - \"cmd/{api,web}/**\"\n---\nUse gofmt.\n"
	if err := os.WriteFile(filepath.Join(skillDir, "SKILL.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	reasons := func(ex explanation) []string {
		var out []string
		for _, s := range ex.Skills {
			for _, r := range s.Reasons {
				out = append(out, r.Kind+": "+r.Detail)
			}
		}
		return out
	}
	args := []string{"-skills", filepath.Join(dir, "skills"), "-home", dir, "-cwd", dir, "-preset", "none"}
	before := runExplain(t, args...)
	got := strings.Join(reasons(before), "\n")
	if !strings.Contains(got, "paths: scoped by paths **/*.go, cmd/api/**, cmd/web/**: enters the catalog") || strings.Contains(got, "listed") {
		t.Errorf("before a touched file:\n%s", got)
	}
	after := runExplain(t, append(args, "-touched", filepath.Join(dir, "cmd", "web", "main.ts"))...)
	got = strings.Join(reasons(after), "\n")
	if !strings.Contains(got, "listed: in the catalog") || !strings.Contains(got, "paths: scoped by paths **/*.go, cmd/api/**, cmd/web/**: activated by a touched file") {
		t.Errorf("after a touched file:\n%s", got)
	}
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"validate", skillDir}, &stdout, &stderr)
	if want := `warning: paths: pattern "src/[a-.go" left out: malformed glob segment "[a-.go"`; !strings.Contains(stdout.String(), want) {
		t.Errorf("validate does not say %q:\n%s", want, stdout.String())
	}
}
