package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/plugin/pluginserver"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// TestMain lets the test binary serve as the plugin when the demo
// re-executes it through the handshake, exactly as the real command does.
func TestMain(m *testing.M) {
	pluginserver.ServeIfRequested()
	os.Exit(testneeds.Report(m.Run()))
}

func TestDemoJSONShowsTheWholeLifecycle(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	var outcomes, toolTexts []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var ev struct {
			Event   string `json:"event"`
			Outcome string `json:"outcome"`
			Text    string `json:"text"`
			IsError bool   `json:"isError"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line is not JSON: %q: %v", line, err)
		}
		switch ev.Event {
		case "step":
			outcomes = append(outcomes, ev.Outcome)
		case "tool":
			if ev.IsError {
				toolTexts = append(toolTexts, ev.Text)
			}
		}
	}
	wantOutcomes := []string{"initial", "unchanged", "unchanged", "replacement", "replacement", "unchanged", "tombstone"}
	if diff := cmp.Diff(wantOutcomes, outcomes); diff != "" {
		t.Errorf("step outcomes (-want +got):\n%s", diff)
	}
	wantErrors := []string{
		`Error: invalid skill name "Not A Name"`,
		`Error: skill "no-such-skill" is unknown or no longer available`,
		`Error: skill "deploy-production" is not available for model invocation`,
		`Error: handbook service unavailable: connection refused`,
		`Error: skill "sql-migrations" is unknown or no longer available`,
	}
	if diff := cmp.Diff(wantErrors, toolTexts); diff != "" {
		t.Errorf("tool errors (-want +got):\n%s", diff)
	}
}

// TestDemoRefusesToResumeASession: a -session-dir that holds the demo's
// session from an earlier run is refused, naming the file, not resumed.
func TestDemoRefusesToResumeASession(t *testing.T) {
	dir := t.TempDir()
	store, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := store.Path(demoSession)
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"demo", "-session-dir", dir}, &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "already holds the demo's session from an earlier run ("+path+")") {
		t.Errorf("demo on a used -session-dir: exit %d, stderr %q; want a refusal naming %s", code, stderr.String(), path)
	}
}

func TestDemoTextIsFramedAndKeepsTheSession(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-session-dir", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"━━ 1. The first model step publishes the initial catalog",
		"model step 1 → initial catalog",
		"-`pdf-forms`: Fill in, flatten and validate PDF forms.",
		"model step 2 → catalog unchanged; no message added",
		"│ /deploy-production for the release we tagged this morning, please.",
		"│ This skill is started by a person with `/deploy-production`, never by the model.",
		"└─ source: {\"kind\":\"skill-invocation\",\"name\":\"deploy-production\",\"digest\":\"",
		"4. Name migrations after what they change, not when.",
		"model step 7 → empty tombstone",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) != 1 {
		t.Fatalf("session dir holds %v, want one session file", files)
	}
	if want := "6 durable events kept in " + files[0] + "\n"; !strings.Contains(out, want) {
		t.Errorf("demo output lacks %q", want)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 6 {
		t.Errorf("session file has %d lines, want the 4 catalog messages, the user's message and the skill it invoked", n)
	}
}

func TestDemoUsesAnotherSkillsDirectory(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "only-one")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: only-one\ndescription: The only skill here.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-skills", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "-`only-one`: The only skill here.") || strings.Contains(stdout.String(), "pdf-forms") {
		t.Errorf("demo did not use the given directory:\n%s", stdout.String())
	}
	if _, err := os.Stat(skill); err != nil {
		t.Errorf("the demo touched the user's directory: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"demo", "extra"}, {"demo", "-nope"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}

func TestDemoRefusesALabelOutsideTheGrammar(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-mcp-command", "true", "-mcp-label", "Ops Server"}, &stdout, &stderr); code != 1 {
		t.Fatalf("demo exited %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), `Label must be a server label the host assigns`) || !strings.Contains(stderr.String(), `"Ops Server"`) {
		t.Errorf("stderr does not name the label and its rule: %s", stderr.String())
	}
}

func TestDemoListsRemoteSkillsFromAnMCPServer(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "incident-response")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: incident-response\ndescription: Run the first hour of an incident.\n---\nPage the on-call.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	handler, err := skillserver.New(os.DirFS(dir)).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-mcp-url", srv.URL, "-mcp-header", "Authorization: Bearer demo", "-mcp-label", "ops"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "-`incident-response` (MCP server `ops`): Run the first hour of an incident.") {
		t.Errorf("remote skill missing from the catalog, or not marked as the ops server's:\n%s", out)
	}
	if !strings.Contains(out, "model step 7 → empty tombstone") {
		t.Errorf("remote skills kept the tombstone from being published:\n%s", out)
	}
}
