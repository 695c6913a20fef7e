package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/golden"
)

// everyFieldSkill is a skill written with every frontmatter field Claude
// Code documents.
var everyFieldSkill = filepath.Join("testdata", "fields", "every-field")

// TestValidateEveryClaudeCodeField pins what validate says of a skill
// written with every field Claude Code documents: each field's use, its
// directives, its when_to_use and its named arguments.
func TestValidateEveryClaudeCodeField(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"validate", "-preset", "claude-code", everyFieldSkill}, &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
	golden.Check(t, filepath.Join("testdata", "every_field_validate.golden"), stdout.Bytes())
}

// TestExplainEveryClaudeCodeField pins what explain says of the same
// skill: its catalog entry with when_to_use joined, its directives and
// its named arguments.
func TestExplainEveryClaudeCodeField(t *testing.T) {
	home := t.TempDir()
	abs, err := filepath.Abs(everyFieldSkill)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"explain", "-home", home, "-cwd", home, "-touched", "src/main.go", "-preset", "none", "-skills", everyFieldSkill}, &stdout, &stderr); code != 0 {
		t.Fatalf("explain exited %d: %s", code, stderr.String())
	}
	out := strings.ReplaceAll(strings.ReplaceAll(stdout.String(), abs, "SKILLDIR"), home, "HOME")
	golden.Check(t, filepath.Join("testdata", "every_field_explain.golden"), []byte(out))
}
