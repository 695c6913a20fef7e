package mcpskills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// stdioServerEnv makes the test binary run as a stdio MCP server (see
// TestMain) configured by the JSON stdioSpec in the variable's value.
const stdioServerEnv = "MCPSKILLS_TEST_STDIO_SERVER"

type stdioSpec struct {
	Skills []struct{ Name, Description, Body string }
	// Log receives one line per event: "start", "read <uri>",
	// "cancelled <uri>", "exit".
	Log string
	// CrashOnFirst makes the process exit while handling the first read of
	// this URI recorded in Log (across processes).
	CrashOnFirst string
	// Block makes reads of this URI block until cancelled.
	Block string
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(stdioServerEnv); spec != "" {
		os.Exit(runStdioServer(spec))
	}
	if sock := os.Getenv(stdioRelayEnv); sock != "" {
		os.Exit(runStdioRelay(sock))
	}
	if os.Getenv(benchServerEnv) != "" {
		os.Exit(runBenchServer())
	}
	os.Exit(testneeds.Report(m.Run()))
}

func appendLog(path, line string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		panic(err)
	}
}

// countLines counts the lines of the file at path equal to line; a missing
// file has none.
func countLines(path, line string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	n := 0
	for l := range strings.SplitSeq(string(data), "\n") {
		if l == line {
			n++
		}
	}
	return n, nil
}

func logLines(t *testing.T, path, line string) int {
	t.Helper()
	n, err := countLines(path, line)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func runStdioServer(specJSON string) int {
	var spec stdioSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s := mcpfake.New()
	for _, sk := range spec.Skills {
		s.SetSkill(sk.Name, sk.Description, sk.Body)
	}
	s.OnRead(func(uri string) {
		if n, _ := countLines(spec.Log, "read "+uri); uri == spec.CrashOnFirst && n == 0 {
			appendLog(spec.Log, "read "+uri)
			os.Exit(3)
		}
		appendLog(spec.Log, "read "+uri)
	})
	if spec.Block != "" {
		s.SetBlocking(spec.Block, true)
		go func() {
			for uri := range s.Cancelled() {
				appendLog(spec.Log, "cancelled "+uri)
			}
		}()
		go func() {
			for range s.Started() {
			}
		}()
	}
	appendLog(spec.Log, "start")
	err := s.ServeStdio(context.Background())
	appendLog(spec.Log, "exit")
	if err != nil {
		return 1
	}
	return 0
}

// newStdioProvider starts the test binary as a stdio server per spec.
func newStdioProvider(t *testing.T, spec stdioSpec, cfg Options) (*Provider, string) {
	t.Helper()
	spec.Log = filepath.Join(t.TempDir(), "server.log")
	if spec.Skills == nil {
		spec.Skills = []struct{ Name, Description, Body string }{
			{"deploy", "Deploy.", "---\nname: deploy\n---\n# Deploy\n"},
			{"audit", "Audit.", "# Audit\n"},
		}
	}
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Command = []string{os.Args[0], "-test.run=^$"}
	cfg.Env = []string{stdioServerEnv + "=" + string(data)}
	p, err := New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, spec.Log
}

func TestStdioOneReadPerResourcePerSession(t *testing.T) {
	p, log := newStdioProvider(t, stdioSpec{}, Options{IndexMaxAge: time.Hour})
	body := "read " + mcpfake.SkillURI("deploy")

	obs := listSkills(t, p, "s1")
	if len(obs.Skills) != 2 {
		t.Fatalf("List = %+v", obs)
	}
	if got := load(t, p, "s1", "deploy").Content; got != "# Deploy" {
		t.Errorf("content %q", got)
	}
	load(t, p, "s1", "deploy")
	if n := logLines(t, log, body); n != 1 {
		t.Errorf("one session: %d reads of the body, want 1", n)
	}
	load(t, p, "s2", "deploy")
	load(t, p, "s2", "deploy")
	if n := logLines(t, log, body); n != 2 {
		t.Errorf("two sessions: %d reads of the body, want 2", n)
	}
	if n := logLines(t, log, "read "+IndexURI); n != 2 {
		t.Errorf("%d reads of the index, want 2", n)
	}
	if n := logLines(t, log, "start"); n != 1 {
		t.Errorf("%d server processes, want 1", n)
	}

	// Close ends the server process.
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if n := logLines(t, log, "exit"); n != 1 {
		t.Errorf("server did not exit on Close")
	}
}

func TestStdioServerCrashIsIncompleteThenReconnects(t *testing.T) {
	p, log := newStdioProvider(t, stdioSpec{CrashOnFirst: IndexURI}, Options{})
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err == nil || obs.Complete {
		t.Fatalf("List while the server crashes = %+v, %v; want incomplete with an error", obs, err)
	}
	obs = listSkills(t, p, "s1")
	if len(obs.Skills) != 2 {
		t.Fatalf("List after reconnecting = %+v", obs)
	}
	if n := logLines(t, log, "start"); n != 2 {
		t.Errorf("%d server processes, want 2", n)
	}
}

func TestStdioBrokenConnectionRetriedOnce(t *testing.T) {
	body := mcpfake.SkillURI("deploy")
	p, log := newStdioProvider(t, stdioSpec{CrashOnFirst: body}, Options{})
	listSkills(t, p, "s1")
	// The process that served the index dies reading the body; the call
	// reconnects and succeeds, and the session keeps its index.
	if got := load(t, p, "s1", "deploy").Content; got != "# Deploy" {
		t.Errorf("content %q", got)
	}
	if n := logLines(t, log, "read "+body); n != 2 {
		t.Errorf("%d reads of the body, want 2", n)
	}
	if n := logLines(t, log, "read "+IndexURI); n != 1 {
		t.Errorf("%d reads of the index, want 1", n)
	}
}

func TestStdioCancellation(t *testing.T) {
	body := mcpfake.SkillURI("deploy")
	p, log := newStdioProvider(t, stdioSpec{Block: body}, Options{})
	listSkills(t, p, "s1")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, _, err := p.Load(ctx, skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		done <- err
	}()
	waitForLog(t, log, "read "+body)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Load = %v, want context.Canceled", err)
	}
	waitForLog(t, log, "cancelled "+body)
}

// waitForLog waits until the server process logs line; the test's own
// deadline bounds the wait.
func waitForLog(t *testing.T, log, line string) {
	t.Helper()
	for logLines(t, log, line) == 0 {
		select {
		case <-t.Context().Done():
			t.Fatalf("server never logged %q", line)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestStdioCommandNotFound(t *testing.T) {
	p, err := New(&Options{Command: []string{filepath.Join(t.TempDir(), "no-such-server")}, Env: []string{"TOKEN=env-secret-value"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err == nil || obs.Complete {
		t.Fatalf("List = %+v, %v; want incomplete with an error", obs, err)
	}
	if strings.Contains(err.Error(), "env-secret-value") || len(err.Error()) > MaxErrorBytes {
		t.Errorf("error leaks or is unbounded: %q", err)
	}
}
