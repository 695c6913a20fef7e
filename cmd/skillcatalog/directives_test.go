package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
)

// directivesDir writes skills that ask for directives, as Claude Code
// writes them, one with a value it cannot read.
func directivesDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, front := range map[string]string{
		"deep-research": "context: fork\nagent: Explore\nmodel: opus\nallowed-tools: Bash(git log *), Read\n",
		"odd-context":   "context: forked\n",
	} {
		path := filepath.Join(dir, name, "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: " + name + "\ndescription: The " + name + " skill.\n" + front + "---\nDo it.\n"
		if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestValidateShowsDirectives: validate says what each skill asks of the
// runtime, and reports a value it cannot read as a warning.
func TestValidateShowsDirectives(t *testing.T) {
	dir := directivesDir(t)
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"validate", "-preset", "claude-code", dir}, &stdout, &stderr)
	out := stdout.String()
	for _, want := range []string{
		`  directives: context fork (agent "Explore"); model "opus"; allowed-tools "Bash(git log *)" "Read"` + "\n",
		`  warning: context "forked" is not "fork" or "fork_with_context"; the skill runs inline` + "\n",
		`  warning: context: field "context" is a Claude Code field, not in the Agent Skills specification: skillcatalog passes it to the host as a directive; other clients may ignore it`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	stdout.Reset()
	run(context.Background(), []string{"validate", "-json", "-preset", "claude-code", filepath.Join(dir, "deep-research")}, &stdout, &stderr)
	var rep struct {
		Skills []struct {
			Directives *skill.Directives `json:"directives"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Skills) != 1 {
		t.Fatalf("validate -json: %v\n%s", err, stdout.String())
	}
	want := &skill.Directives{Context: skill.ContextFork, Agent: "Explore", Model: "opus", AllowedTools: []string{"Bash(git log *)", "Read"}, Trusted: true}
	if diff := cmp.Diff(want, rep.Skills[0].Directives); diff != "" {
		t.Errorf("validate -json directives (-want +got):\n%s", diff)
	}
}

// TestExplainShowsDirectives: explain says what each skill asks of the
// runtime, as a host loading it receives it.
func TestExplainShowsDirectives(t *testing.T) {
	dir := directivesDir(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"explain", "-home", t.TempDir(), "-cwd", t.TempDir(), "-skills", dir}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("explain exited %d: %s", code, stderr.String())
	}
	out := stdout.String()
	want := "  in  deep-research  " + filepath.Join(dir, "deep-research") + "\n      listed: in the catalog\n" +
		`      directives: context fork (agent "Explore"); model "opus"; allowed-tools "Bash(git log *)" "Read"` + "\n"
	if !strings.Contains(out, want) {
		t.Errorf("explain output lacks\n%s\nin:\n%s", want, out)
	}
	if !strings.Contains(out, `context "forked" is not "fork" or "fork_with_context"`) {
		t.Errorf("explain does not report the unreadable context:\n%s", out)
	}
}
