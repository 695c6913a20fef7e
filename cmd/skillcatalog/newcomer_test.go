package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// runCLI runs the command in this process and returns its exit status and
// both outputs.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// Help a user asks for goes to stdout with status 0; a misuse goes to
// stderr, with the usage, and status 2. Every command speaks -flag.
func TestHelpOnRequestAndOnMisuse(t *testing.T) {
	for _, cmd := range []string{"demo", "conform", "serve-mcp"} {
		t.Run(cmd, func(t *testing.T) {
			for _, h := range []string{"-h", "-help", "--help"} {
				code, stdout, stderr := runCLI(t, cmd, h)
				if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Usage: skillcatalog "+cmd) {
					t.Errorf("%s %s: status %d, stdout %q, stderr %q; want 0 and the usage on stdout only", cmd, h, code, stdout, stderr)
				}
				if !strings.Contains(stdout, "\n  -") {
					t.Errorf("%s %s: usage lists no -flag:\n%s", cmd, h, stdout)
				}
			}
			code, stdout, stderr := runCLI(t, cmd, "-no-such-flag")
			if code != 2 || stdout != "" {
				t.Errorf("%s -no-such-flag: status %d, stdout %q; want 2 and nothing on stdout", cmd, code, stdout)
			}
			for _, want := range []string{"flag provided but not defined: -no-such-flag", "Usage: skillcatalog " + cmd} {
				if !strings.Contains(stderr, want) {
					t.Errorf("%s -no-such-flag: stderr lacks %q:\n%s", cmd, want, stderr)
				}
			}
		})
	}
}

func TestTopLevelHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}, {"--help"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%q: status %d, stderr %q", args, code, stderr)
		}
		for _, want := range []string{
			"skillcatalog demo -h", "skillcatalog conform -h", "skillcatalog serve-mcp -h",
			"skillcatalog version ", "skillcatalog help ",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%q: help lacks %q:\n%s", args, want, stdout)
			}
		}
	}
	code, stdout, stderr := runCLI(t)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "skillcatalog demo -h") {
		t.Errorf("no command: status %d, stdout %q, stderr %q; want 2 and the help on stderr", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "frobnicate")
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, `skillcatalog: unknown command "frobnicate"`) {
		t.Errorf("unknown command: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestHelpTopicIsTheCommandsHelp: `help demo` shows the demo's own help,
// as `demo -h` does; an unknown topic is an unknown command.
func TestHelpTopicIsTheCommandsHelp(t *testing.T) {
	for _, topic := range []string{"demo", "validate", "explain", "hostcheck"} {
		code, stdout, stderr := runCLI(t, "help", topic)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Usage: skillcatalog "+topic) {
			t.Errorf("help %s: status %d, stdout %.60q, stderr %q; want the command's usage", topic, code, stdout, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "help", "frobnicate"); code != 2 || !strings.HasPrefix(stderr, `skillcatalog: unknown command "frobnicate"`) {
		t.Errorf("help frobnicate: status %d, stderr %q", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "--version"); code != 0 || !strings.HasPrefix(stdout, "skillcatalog ") {
		t.Errorf("--version: status %d, stdout %q", code, stdout)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, stderr := runCLI(t, "version")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "skillcatalog ") || !strings.HasSuffix(stdout, ", plugin protocol 1\n") {
		t.Errorf("version: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := runCLI(t, "version", "extra"); code != 2 || stderr == "" {
		t.Errorf("version extra: status %d, stderr %q; want a usage error", code, stderr)
	}
}

// A -skills directory that does not exist stops the command before it
// starts, naming the path as the user typed it.
func TestMissingSkillsDirectoryFailsFast(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "my-skills")
	file := filepath.Join(t.TempDir(), "SKILL.md")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"demo", "serve-mcp"} {
		for dir, why := range map[string]string{missing: "no such directory", file: "not a directory"} {
			code, stdout, stderr := runCLI(t, cmd, "-skills", dir, "-json")
			if cmd == "serve-mcp" {
				code, stdout, stderr = runCLI(t, cmd, "-skills", dir, "-http", "127.0.0.1:0")
			}
			want := "skillcatalog " + cmd + ": -skills " + dir + ": " + why + "\n"
			if code != 1 || stdout != "" || stderr != want {
				t.Errorf("%s -skills %s: status %d, stdout %q, stderr %q; want 1 and %q", cmd, dir, code, stdout, stderr, want)
			}
		}
	}
}

// demoEvent is one line of `demo -json`.
type demoEvent struct {
	Event   string `json:"event"`
	Title   string `json:"title"`
	Outcome string `json:"outcome"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
	// Messages are a step's messages.
	Messages []struct {
		Text string `json:"text"`
	} `json:"messages"`
	Args struct {
		Name string `json:"name"`
	} `json:"arguments"`
}

func demoEvents(t *testing.T, args ...string) []demoEvent {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"demo", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr)
	}
	var evs []demoEvent
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev demoEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line is not JSON: %q: %v", line, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// With an MCP server where nothing listens, the demo publishes the local
// skills at the first step (the server is best-effort), and says once, in
// one line without -diagnostics, that the server was left out and why.
func TestDemoWithAnUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	evs := demoEvents(t, "-mcp-url", "http://"+closed+"/mcp")
	var first *demoEvent
	var degraded []string
	for i, ev := range evs {
		switch {
		case ev.Event == "step" && first == nil:
			first = &evs[i]
		case ev.Event == "step" && ev.Outcome == "incomplete":
			t.Errorf("a step was incomplete: %+v", ev)
		case ev.Kind == "degraded":
			degraded = append(degraded, ev.Text)
		case ev.Kind == "diagnostic":
			t.Errorf("diagnostics printed without -diagnostics: %q", ev.Text)
		}
	}
	if first == nil || first.Outcome != "initial" || len(first.Messages) != 1 || !strings.Contains(first.Messages[0].Text, "-`pdf-forms`: ") {
		t.Fatalf("first step %+v, want the initial catalog of the local skills", first)
	}
	if len(degraded) != 1 || !strings.HasPrefix(degraded[0], "best-effort provider mcp in scope") || !strings.Contains(degraded[0], closed) ||
		!strings.HasSuffix(degraded[0], "; left out until it lists") || strings.Contains(degraded[0], "\n") {
		t.Errorf("degraded notes %q, want one line naming the MCP server %s and saying it is left out", degraded, closed)
	}
}

// With the user's own skills, the demo loads one that loads, shows
// diagnostics under the user's path, and leaves the scripted failing
// provider out.
func TestDemoOnTheUsersOwnSkills(t *testing.T) {
	dir := t.TempDir()
	write := func(name, frontmatter string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte("---\n"+frontmatter+"---\nBody of "+name+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Bad_Name", "name: Bad_Name\ndescription: Not addressable.\n") // sorts first
	write("zeta-report", "name: zeta-report\ndescription: Write the weekly report.\n")
	write("manual-only", "name: manual-only\ndescription: Only for users.\ndisable-model-invocation: true\n")

	evs := demoEvents(t, "-skills", dir, "-diagnostics")
	var calls []string
	var diagnostics []string
	for _, ev := range evs {
		switch {
		case ev.Event == "tool":
			calls = append(calls, ev.Args.Name+" error="+boolText(ev.IsError)+" "+firstLine(ev.Text))
		case ev.Kind == "diagnostic":
			diagnostics = append(diagnostics, ev.Text)
		case ev.Event == "step" && ev.Outcome == "initial":
			if len(ev.Messages) != 1 || !strings.Contains(ev.Messages[0].Text, "`zeta-report`") || strings.Contains(ev.Messages[0].Text, "team-handbook") {
				t.Errorf("initial catalog is not the user's skills alone: %+v", ev.Messages)
			}
		}
	}
	wantCalls := []string{
		`zeta-report error=false <skill_content name="zeta-report">`,
		`sql-migrations error=false <skill_content name="sql-migrations">`,
		`Not A Name error=true Error: invalid skill name "Not A Name"`,
		`no-such-skill error=true Error: skill "no-such-skill" is unknown or no longer available`,
		`manual-only error=true Error: skill "manual-only" is not available for model invocation`,
		`sql-migrations error=true Error: skill "sql-migrations" is unknown or no longer available`,
	}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("skill tool calls (-want +got):\n%s", diff)
	}
	if len(diagnostics) == 0 {
		t.Fatal("no diagnostic for Bad_Name")
	}
	for _, d := range diagnostics {
		if !strings.Contains(d, filepath.Join(dir, "Bad_Name")) || strings.Contains(d, "skillcatalog-demo-") {
			t.Errorf("diagnostic does not name the user's path %s: %q", dir, d)
		}
	}
	for _, ev := range evs {
		if ev.Event == "tool" && ev.Args.Name == "team-handbook" {
			t.Errorf("the scripted failing provider ran with the user's skills")
		}
	}
}

// -keep-session keeps the session file where it says it did.
func TestDemoKeepSessionPrintsAPathThatExists(t *testing.T) {
	evs := demoEvents(t, "-keep-session")
	var path string
	for _, ev := range evs {
		if ev.Kind == "session" {
			_, path, _ = strings.Cut(ev.Text, " kept in ")
		}
	}
	if path == "" {
		t.Fatalf("no session note with a path: %+v", evs[len(evs)-1])
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(path)) })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the printed session path does not exist: %v", err)
	}
	if n := strings.Count(string(data), "\n"); n != 6 {
		t.Errorf("kept session file has %d lines, want the 4 catalog messages, the user's message and the skill it invoked", n)
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
