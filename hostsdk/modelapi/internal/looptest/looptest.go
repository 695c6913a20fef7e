// Package looptest is the scene of the adapters' end-to-end tests: a real
// host with the plugin in process, mounted with the skill_resource tool and
// `/name` user invocation, an Agent Skill on disk with a script beside its
// SKILL.md, a scripted session (Calls, Fixture.Run), and a local HTTP server
// that plays a model API: it records each request and replays canned
// responses.
package looptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// The scene's names and texts.
const (
	Agent   = "agent:writer"
	Session = "session-1"
	Cwd     = "/work"
	// Skill is the name of the skill on disk; ScriptPath its script's
	// path, Script the script's text.
	Skill      = "pdf-forms"
	ScriptPath = "scripts/fill_form.py"
	Script     = "# Fill a PDF form.\nimport sys\nprint(\"filling\", sys.argv[1])\n"
	// Ask is the user's message of the first step.
	Ask = "Please fill in the W-9 form."
)

// Fixture is a host with the plugin loaded and mounted in the global scope
// with {"resourceTool": true, "userInvocation": true}.
type Fixture struct {
	Host     *hostsdk.Host
	Tree     *tools.Tree
	Registry *skills.Registry
	// Root is the directory that holds the skill on disk.
	Root string
}

// New builds the fixture; everything closes when the test ends.
func New(t testing.TB) *Fixture {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		path := filepath.Join(root, Skill, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("SKILL.md", "---\nname: "+Skill+"\ndescription: Fill in PDF forms with "+ScriptPath+".\n---\nRun "+ScriptPath+" with the form's path.\n")
	write(ScriptPath, Script)

	tree, reg := tools.NewTree(), skilltest.NewRegistry(t)
	if err := tree.AddScope(Agent, tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	disk, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { disk.Close() })
	reg.AddProvider(tools.GlobalScope, disk, nil)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, &hostsdk.MountOptions{ResourceTool: true, UserInvocation: true}); err != nil {
		t.Fatal(err)
	}
	return &Fixture{Host: host, Tree: tree, Registry: reg, Root: root}
}

// Session returns the handle of the fixture's session.
func (f *Fixture) Session() *hostsdk.Session {
	return f.Host.Session(Session, &hostsdk.SessionOptions{Cwd: Cwd, AgentScope: Agent})
}

// Offered returns the tools the agent sees.
func (f *Fixture) Offered() []tools.ResolvedTool { return f.Tree.Visible(Agent) }

// Step runs step n of the session's first turn (the first with the user's
// message) and returns the conversation to send: the visible messages of
// the session's transcript.
func (f *Fixture) Step(t testing.TB, n int) []hostsdk.Message {
	t.Helper()
	ctx := context.Background()
	var downstream hostsdk.Decision
	if n == 1 {
		downstream.Messages = []hostsdk.Message{{ID: "user-1", Role: hostsdk.RoleUser, UserInput: true,
			Content: []hostsdk.ContentBlock{hostsdk.TextBlock(Ask)}}}
	}
	s := f.Session()
	if _, err := s.Step(ctx, downstream, &hostsdk.StepOptions{Turn: 1, Step: n}); err != nil {
		t.Fatalf("step %d: %v", n, err)
	}
	entries, err := s.Transcript(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var conv []hostsdk.Message
	for _, e := range entries {
		if e.Visible {
			conv = append(conv, e.Message)
		}
	}
	return conv
}

// Reply appends the model's reply to the session, runs its tool calls
// through the host, appends their results in one message, and returns the
// calls and their results.
func (f *Fixture) Reply(t testing.TB, n int, reply hostsdk.Message) ([]hostsdk.ToolCall, []hostsdk.ToolResult) {
	t.Helper()
	ctx := context.Background()
	s := f.Session()
	if _, err := s.Append(ctx, reply); err != nil {
		t.Fatal(err)
	}
	calls := modelapi.Calls(reply)
	if len(calls) == 0 {
		return nil, nil
	}
	var results []modelapi.Result
	var out []hostsdk.ToolResult
	for _, c := range calls {
		res, err := s.CallTool(ctx, c)
		if err != nil {
			t.Fatalf("call %s %s: %v", c.Name, c.Arguments, err)
		}
		results = append(results, modelapi.Result{CallID: c.CallID, Result: res})
		out = append(out, res)
	}
	msg, err := modelapi.ResultMessage(fmt.Sprintf("results-%d", n), results...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, msg); err != nil {
		t.Fatal(err)
	}
	return calls, out
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Body         []byte
}

// Server plays a model API: it answers the nth request with the nth
// reply, as JSON, and records every request.
type Server struct {
	URL string

	mu       sync.Mutex
	replies  []string
	requests []Request
}

// NewServer starts a server that replays replies; it stops when the test
// ends. A request beyond the last reply gets a 500 status.
func NewServer(t testing.TB, replies ...string) *Server {
	t.Helper()
	s := &Server{replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	s.mu.Unlock()
	if n >= len(s.replies) {
		http.Error(w, `{"error":{"type":"test","message":"no reply left"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, s.replies[n])
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Compact returns raw compacted, as the SDKs send JSON they are given raw.
func Compact(t testing.TB, raw []byte) string {
	t.Helper()
	out, err := json.Marshal(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
