//go:build unix

package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/events"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// discoveryWorld is what both kinds of host discover from: a home
// directory with a Claude Code skill, an extra root, a trusted project
// with a skill and a resource, a server that speaks the MCP Skills
// extension (the in-repo skill server), one that publishes
// skill://index.json, and one that cannot be reached.
type discoveryWorld struct {
	home, root, cwd string
	index           *mcpfake.Server
	discovery       hostsdk.Discovery
}

func newDiscoveryWorld(t *testing.T) *discoveryWorld {
	t.Helper()
	w := &discoveryWorld{home: t.TempDir(), root: localSkillRoot(t)}
	writeSkill(t, filepath.Join(w.home, ".claude", "skills", "home-notes"), "---\nname: home-notes\n---\nKeep notes at home.\n\nAppend, never rewrite.\n")
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	lint := filepath.Join(project, ".agents", "skills", "project-lint")
	writeSkill(t, lint, "---\nname: project-lint\ndescription: Lint this project.\n---\nRun the checks in checks.md.\n")
	if err := os.WriteFile(filepath.Join(lint, "checks.md"), []byte("1. gofmt\n2. vet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.cwd = filepath.Join(project, "cmd")
	if err := os.Mkdir(w.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	w.index = mcpfake.New()
	w.index.SetSkill("alpha", "Remote alpha.", "---\nname: alpha\ndescription: Remote alpha.\n---\nAlpha instructions.")
	indexSrv, err := w.index.ListenHTTP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { indexSrv.Stop() })
	w.discovery = hostsdk.Discovery{
		SkillRoots: []string{w.root}, Presets: []string{"agent-skills", "claude-code"}, HomeDir: w.home, TrustProjects: true,
		MCPServers: []hostsdk.DiscoveryServer{
			{URL: serveExtension(t), Label: "docs", RequestTimeoutMs: 10000},
			{URL: indexSrv.URL(), Label: "idx", RequestTimeoutMs: 10000},
			{URL: "http://" + closedLoopbackAddr(t) + "/mcp", Label: "down", RequestTimeoutMs: 10000},
		},
	}
	return w
}

// writeSkill writes a SKILL.md into dir.
func writeSkill(t *testing.T, dir, md string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

// serveExtension serves the repository's example remote skills with the
// in-repo skill server, which speaks the MCP Skills extension, on a
// loopback port, and returns its endpoint.
func serveExtension(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	handler, err := skillserver.NewDir(filepath.Join("..", "testdata", "remote-skills")).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", handler)
	srv := &http.Server{Handler: mux}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("skill server: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// tokenLog keeps the snapshot tokens a discovering plugin logs.
type tokenLog struct {
	mu     sync.Mutex
	tokens []string
}

func (l *tokenLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *tokenLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *tokenLog) WithGroup(string) slog.Handler            { return l }
func (l *tokenLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "skills discovered" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "token" {
			l.mu.Lock()
			l.tokens = append(l.tokens, a.Value.String())
			l.mu.Unlock()
		}
		return true
	})
	return nil
}

// last returns the last token logged.
func (l *tokenLog) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.tokens) == 0 {
		return ""
	}
	return l.tokens[len(l.tokens)-1]
}

// comparedHost is one host of the comparison: the Go host SDK's own
// registry (reg set), or a plugin that discovers (tokens set).
type comparedHost struct {
	name   string
	host   *hostsdk.Host
	store  sessionlog.Store
	reg    *skills.Registry
	tokens *tokenLog
}

// mountConfig is every host's mount: the resource tool and `/name` on.
var mountConfig = hostsdk.MountOptions{ResourceTool: true, UserInvocation: true}

func newComparedHost(t *testing.T, name string, reg *skills.Registry, tokens *tokenLog) *comparedHost {
	t.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	if tokens != nil {
		logger = slog.New(tokens)
	}
	h := &comparedHost{name: name, store: sessionlog.NewMemoryStore(), reg: reg, tokens: tokens}
	var err error
	h.host, err = hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: h.store, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.host.Close(); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
	})
	return h
}

// referenceHost is a Go host with the providers of w attached to its own
// registry by hand, as a Go host does, and the plugin binary mounted.
func referenceHost(t *testing.T, w *discoveryWorld) *comparedHost {
	t.Helper()
	reg := skilltest.NewRegistry(t)
	disk, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{w.root}, Presets: []agentskills.Preset{agentskills.PresetClaudeCode},
		HomeDir: w.home, Watch: true, TrustProject: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { disk.Close() })
	reg.AddProvider(tools.GlobalScope, disk, &skills.ProviderOptions{Label: "agentskills"})
	for _, s := range w.discovery.MCPServers {
		remote, err := mcpskills.New(&mcpskills.Options{URL: s.URL, Label: s.Label, RequestTimeout: time.Duration(s.RequestTimeoutMs) * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { remote.Close() })
		reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Label: s.Label})
	}
	h := newComparedHost(t, "go-sdk", reg, nil)
	p, err := h.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, &mountConfig); err != nil {
		t.Fatal(err)
	}
	return h
}

// discoveringHost is a Go host whose own registry is empty and whose
// plugin, launched by launcher (nil: in the host's process), discovers w
// itself.
func discoveringHost(t *testing.T, name string, w *discoveryWorld, launcher hostsdk.Launcher) *comparedHost {
	t.Helper()
	h := newComparedHost(t, name, skilltest.NewRegistry(t), &tokenLog{})
	p, err := h.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: launcher, InProcess: launcher == nil})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountDiscovering(context.Background(), tools.GlobalScope, &mountConfig, w.discovery); err != nil {
		t.Fatal(err)
	}
	return h
}

// stepOutcome is what a step gave the runtime, less the callbacks it
// counted: a host that discovers makes fewer by design.
type stepOutcome struct {
	Decision    hostsdk.Decision
	Outcome     hostsdk.Outcome
	Appended    []uint64
	Diagnostics []string
	Reasons     []hostsdk.Reason
}

func (h *comparedHost) step(t *testing.T, w *discoveryWorld, n int, msgs ...contract.Message) stepOutcome {
	t.Helper()
	res, err := h.host.Session("s1", &hostsdk.SessionOptions{Cwd: w.cwd, AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: msgs}, &hostsdk.StepOptions{Turn: 1, Step: n})
	if err != nil {
		t.Fatalf("%s: step %d: %v", h.name, n, err)
	}
	return stepOutcome{res.Decision, res.Outcome, res.Appended, res.Diagnostics, res.Reasons}
}

// untilPublished probes with empty steps, which append nothing while
// nothing changed, until one publishes.
func (h *comparedHost) untilPublished(t *testing.T, w *discoveryWorld, n int) stepOutcome {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		out := h.step(t, w, n)
		if out.Outcome != hostsdk.OutcomeUnchanged || time.Now().After(deadline) {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (h *comparedHost) call(t *testing.T, w *discoveryWorld, tool string, args any) hostsdk.ToolResult {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	out, err := h.host.Session("s1", &hostsdk.SessionOptions{Cwd: w.cwd, AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{CallID: "c1", Name: tool, Arguments: raw})
	if err != nil {
		t.Fatalf("%s: %s %s: %v", h.name, tool, raw, err)
	}
	return out
}

// token is the snapshot token the host's skills have now: the reference
// host's registry's, or the last one the discovering plugin logged, which
// the plugin's log may deliver after the step.
func (h *comparedHost) token(t *testing.T, w *discoveryWorld, want string) string {
	t.Helper()
	if h.reg != nil && h.tokens == nil {
		snap, err := h.reg.Snapshot(context.Background(), skills.Query{SessionID: "s1", Cwd: w.cwd, Chain: []string{"agent:a", tools.GlobalScope}})
		if err != nil {
			t.Fatal(err)
		}
		return snap.Token
	}
	deadline := time.Now().Add(5 * time.Second)
	for h.tokens.last() != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return h.tokens.last()
}

// events returns the session's log as stored.
func (h *comparedHost) events(t *testing.T) []sessionlog.Event {
	t.Helper()
	l, err := h.store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	page, err := l.ReadBackward(context.Background(), 0, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]sessionlog.Event, len(page.Events))
	for i, ev := range page.Events {
		out[i] = sessionlog.Event{Seq: ev.Seq, Type: ev.Type, Source: ev.Source, Body: ev.Body, Visible: ev.Visible}
	}
	return out
}

// same fails the test unless every host's value equals the reference's.
func same[T any](t *testing.T, what string, hosts []*comparedHost, get func(*comparedHost) T) T {
	t.Helper()
	want := get(hosts[0])
	for _, h := range hosts[1:] {
		if diff := cmp.Diff(want, get(h)); diff != "" {
			t.Errorf("%s: %s differs from %s (-%s +%s):\n%s", what, h.name, hosts[0].name, hosts[0].name, h.name, diff)
		}
	}
	return want
}

// sameToken checks that every host's skills have the reference's token,
// and that it is new.
func sameToken(t *testing.T, w *discoveryWorld, hosts []*comparedHost, seen map[string]bool) {
	t.Helper()
	want := hosts[0].token(t, w, "")
	if want == "" || seen[want] {
		t.Fatalf("reference token %q: want a new, non-empty one", want)
	}
	seen[want] = true
	for _, h := range hosts[1:] {
		if got := h.token(t, w, want); got != want {
			t.Errorf("token: %s has %q, %s %q", h.name, got, hosts[0].name, want)
		}
	}
}

// text is a plain text message.
func text(id string, role contract.Role, body string, userInput bool) contract.Message {
	return contract.Message{ID: id, Role: role, Content: []contract.ContentBlock{contract.TextBlock(body)}, UserInput: userInput}
}

// catalogNames returns the names the step's catalog message lists.
func catalogNames(t *testing.T, out stepOutcome) []string {
	t.Helper()
	for _, m := range out.Decision.Messages {
		if c, ok := events.ParseCatalog(m.Source); ok {
			var names []string
			for _, e := range c.Entries {
				names = append(names, e.Name)
			}
			return names
		}
	}
	t.Fatalf("the step published no catalog (outcome %s)", out.Outcome)
	return nil
}

// TestPluginDiscoveryMatchesTheGoSDK runs one scripted session on three
// hosts over the same directories and MCP servers: a Go host whose own
// registry holds the providers (the reference), a Go host whose plugin
// binary discovers them itself, and one whose plugin runs in its process
// and discovers them. Every step's catalog, diagnostics and reasons, every
// tool answer, every snapshot token and the session logs are the same,
// byte for byte: at the first catalog (a server that cannot be reached
// among the servers), after a skill added on disk, a skill added on a
// server and a skill removed from disk (live refresh), and for a skill
// the user invokes.
func TestPluginDiscoveryMatchesTheGoSDK(t *testing.T) {
	w := newDiscoveryWorld(t)
	hosts := []*comparedHost{
		referenceHost(t, w),
		discoveringHost(t, "plugin-process", w, pluginproc.Binary{Path: pluginPath}),
		discoveringHost(t, "in-process", w, nil),
	}
	seen := map[string]bool{}
	first := same(t, "the first step", hosts, func(h *comparedHost) stepOutcome {
		return h.step(t, w, 1, text("u1", contract.RoleUser, "Lint the project.", true))
	})
	want := []string{"alpha", "data-export", "home-notes", "incident-review", "project-lint", "refunds", "release-notes"}
	if got := catalogNames(t, first); first.Outcome != hostsdk.OutcomeInitial || !slices.Equal(got, want) {
		t.Fatalf("first step: %s listing %v, want initial listing %v", first.Outcome, got, want)
	}
	if d := reasonsWith(hostsdk.StepResult{Reasons: first.Reasons}, contract.ReasonProviderDegraded); len(d) != 1 || !strings.Contains(d[0], "down") {
		t.Errorf("degraded reasons %q, want one naming the unreachable server", d)
	}
	sameToken(t, w, hosts, seen)
	compareToolCalls(t, w, hosts)
	same(t, "a step after the tool calls", hosts, func(h *comparedHost) stepOutcome {
		return h.step(t, w, 2, text("a1", contract.RoleAssistant, "Loaded.", false))
	})
	compareRefresh(t, w, hosts, seen)
	invoked := same(t, "a step invoking a skill", hosts, func(h *comparedHost) stepOutcome {
		return h.step(t, w, 6, text("u2", contract.RoleUser, "/release-notes for 1.2", true))
	})
	if len(invoked.Decision.Messages) != 2 || !strings.Contains(invoked.Decision.Messages[1].Text(), "Group the changes by area.") {
		t.Errorf("the invoked skill was not appended: %+v", invoked.Decision.Messages)
	}
	same(t, "the session log", hosts, func(h *comparedHost) []sessionlog.Event { return h.events(t) })
}

// compareToolCalls compares the answers to tool calls of every kind of
// skill: local, project, remote from either kind of server, unknown, and
// resource reads that succeed and that are refused.
func compareToolCalls(t *testing.T, w *discoveryWorld, hosts []*comparedHost) {
	t.Helper()
	calls := []struct {
		tool string
		args map[string]any
		ok   bool
	}{
		{"skill", map[string]any{"name": "project-lint"}, true},
		{"skill", map[string]any{"name": "home-notes"}, true},
		{"skill", map[string]any{"name": "refunds"}, true},
		{"skill", map[string]any{"name": "alpha"}, true},
		{"skill", map[string]any{"name": "no-such-skill"}, false},
		{"skill_resource", map[string]any{"name": "project-lint", "path": "checks.md", "offset": 0}, true},
		{"skill_resource", map[string]any{"name": "refunds", "path": "templates/confirmation.md", "offset": 0}, true},
		{"skill_resource", map[string]any{"name": "project-lint", "path": "missing.md", "offset": 0}, false},
		{"skill_resource", map[string]any{"name": "refunds", "path": "references/none.md", "offset": 0}, false},
	}
	for _, c := range calls {
		got := same(t, c.tool+" "+c.args["name"].(string), hosts, func(h *comparedHost) hostsdk.ToolResult { return h.call(t, w, c.tool, c.args) })
		if got.IsError == c.ok {
			t.Errorf("%s %v: error %v, want %v: %s", c.tool, c.args, got.IsError, !c.ok, got.Text)
		}
	}
}

// compareRefresh changes the skills on disk and on a server and compares
// the replacements every host publishes.
func compareRefresh(t *testing.T, w *discoveryWorld, hosts []*comparedHost, seen map[string]bool) {
	t.Helper()
	changes := []struct {
		what   string
		change func()
		want   []string
	}{
		{"a skill added on disk", func() {
			writeSkill(t, filepath.Join(w.root, "changelog"), "---\nname: changelog\ndescription: Keep the changelog.\n---\nOne line per change.\n")
		}, []string{"alpha", "changelog", "data-export", "home-notes", "incident-review", "project-lint", "refunds", "release-notes"}},
		{"a skill added on a server", func() {
			w.index.SetSkill("gamma", "Remote gamma.", "---\nname: gamma\ndescription: Remote gamma.\n---\nGamma.")
		}, []string{"alpha", "changelog", "data-export", "gamma", "home-notes", "incident-review", "project-lint", "refunds", "release-notes"}},
		{"a skill removed from disk", func() {
			if err := os.RemoveAll(filepath.Join(filepath.Dir(w.cwd), ".agents", "skills", "project-lint")); err != nil {
				t.Fatal(err)
			}
		}, []string{"alpha", "changelog", "data-export", "gamma", "home-notes", "incident-review", "refunds", "release-notes"}},
	}
	for i, c := range changes {
		c.change()
		out := same(t, c.what, hosts, func(h *comparedHost) stepOutcome { return h.untilPublished(t, w, 3+i) })
		if got := catalogNames(t, out); out.Outcome != hostsdk.OutcomeReplacement || !slices.Equal(got, c.want) {
			t.Fatalf("%s: %s listing %v, want a replacement listing %v", c.what, out.Outcome, got, c.want)
		}
		sameToken(t, w, hosts, seen)
	}
	same(t, "a removed skill's load", hosts, func(h *comparedHost) hostsdk.ToolResult {
		return h.call(t, w, "skill", map[string]any{"name": "project-lint"})
	})
}

// TestPluginDiscoveryRefusals: a discovery the plugin refuses fails the
// mount with a *ConfigError naming the option and its bound, in a plugin
// process and in the host's, and the plugin keeps serving.
func TestPluginDiscoveryRefusals(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts *hostsdk.LoadOptions
	}{
		{"plugin-process", &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}},
		{"in-process", &hostsdk.LoadOptions{InProcess: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newComparedHost(t, tc.name, skilltest.NewRegistry(t), nil)
			p, err := h.host.Load(ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []struct {
				d    hostsdk.Discovery
				want string
			}{
				{hostsdk.Discovery{MCPServers: []hostsdk.DiscoveryServer{{URL: "http://skills.example/mcp"}}}, "mcpServers[0].url is plain http to skills.example, which is not a loopback address"},
				{hostsdk.Discovery{SkillRoots: []string{"skills"}}, `skillRoots[0] must be an absolute path, got "skills"`},
			} {
				_, err := p.MountDiscovering(ctx, tools.GlobalScope, &mountConfig, bad.d)
				var cerr *hostsdk.ConfigError
				if !errors.As(err, &cerr) || !strings.Contains(err.Error(), bad.want) {
					t.Errorf("MountDiscovering(%s) = %v, want a *ConfigError containing %q", bad.d.JSON(), err, bad.want)
				}
			}
			if _, err := p.MountDiscovering(ctx, tools.GlobalScope, &mountConfig, hostsdk.Discovery{HomeDir: t.TempDir()}); err != nil {
				t.Errorf("a valid discovery after refused ones: %v", err)
			}
		})
	}
}

// inotifyDescriptors counts a process's open inotify instances: one per
// file watcher.
func inotifyDescriptors(t *testing.T, pid int) int {
	t.Helper()
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("no %s to count watchers in: %v", dir, err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.Contains(target, "inotify") {
			n++
		}
	}
	return n
}

// TestPluginDiscoveryUnmountClosesWatchers: the plugin process watches a
// discovering mount's directories while a mount holds them, once for two
// mounts of one configuration, and closes the watcher when the last of
// them is unmounted.
func TestPluginDiscoveryUnmountClosesWatchers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts inotify descriptors under /proc")
	}
	ctx := context.Background()
	h := newComparedHost(t, "plugin-process", skilltest.NewRegistry(t), nil)
	p, err := h.host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	before := inotifyDescriptors(t, p.PID())
	d := hostsdk.Discovery{SkillRoots: []string{localSkillRoot(t)}, HomeDir: t.TempDir()}
	global, err := p.MountDiscovering(ctx, tools.GlobalScope, &mountConfig, d)
	if err != nil {
		t.Fatal(err)
	}
	agent, err := p.MountDiscovering(ctx, "agent:a", &mountConfig, d)
	if err != nil {
		t.Fatal(err)
	}
	if n := inotifyDescriptors(t, p.PID()); n != before+1 {
		t.Errorf("%d watchers with two mounts of one discovery, want %d", n, before+1)
	}
	if err := global.Unmount(ctx); err != nil {
		t.Fatal(err)
	}
	if n := inotifyDescriptors(t, p.PID()); n != before+1 {
		t.Errorf("%d watchers after one of two mounts went, want %d", n, before+1)
	}
	if err := agent.Unmount(ctx); err != nil {
		t.Fatal(err)
	}
	if n := inotifyDescriptors(t, p.PID()); n != before {
		t.Errorf("%d watchers after the last mount went, want %d", n, before)
	}
}
