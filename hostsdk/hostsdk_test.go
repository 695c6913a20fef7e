package hostsdk_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/plugintest"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// pluginPath is the real plugin binary, built once by TestMain.
var pluginPath string

func TestMain(m *testing.M) {
	if mode := os.Getenv(testHostMode); mode != "" {
		os.Exit(runTestHost(mode)) // a host process for the orphan tests
	}
	plugintest.Main(m, &pluginPath)
}

// env is one host with a file-backed session store and the plugin loaded.
type env struct {
	t      *testing.T
	tree   *tools.Tree
	reg    *skills.Registry
	store  sessionlog.Store
	host   *hostsdk.Host
	plugin *hostsdk.Plugin
}

func newEnv(t *testing.T, cfg hostsdk.Options) *env {
	t.Helper()
	store, err := sessionlog.NewFileStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, tree: tools.NewTree(), reg: skilltest.NewRegistry(t), store: store}
	for _, agent := range []string{"agent:a", "agent:b"} {
		if err := e.tree.AddScope(agent, tools.GlobalScope); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Tools, cfg.Skills, cfg.Sessions = e.tree, e.reg, e.store
	cfg.Logger = slog.New(slog.DiscardHandler)
	e.host, err = hostsdk.New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.plugin, err = e.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.host.Close(); err != nil {
			t.Errorf("close host: %v", err)
		}
	})
	return e
}

func (e *env) register(scope, name, desc string) {
	e.t.Helper()
	if err := e.reg.Register(scope, skills.RuntimeSkill{Name: name, Description: desc, Content: "Instructions of " + name + "."}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) mount(scope string) *hostsdk.Mount {
	e.t.Helper()
	m, err := e.plugin.Mount(context.Background(), scope, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

func (e *env) step(session, agent string) hostsdk.StepResult {
	e.t.Helper()
	res, err := e.host.Session(session, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: agent}).Step(context.Background(), hostsdk.Decision{}, nil)
	if err != nil {
		e.t.Fatalf("PreStep(%s, %s): %v", session, agent, err)
	}
	if len(res.Reasons) == 0 {
		e.t.Fatalf("PreStep(%s, %s): outcome %s with no reasons", session, agent, res.Outcome)
	}
	return res
}

// runStep runs step through its session's handle, as a runtime whose
// requests name the session, its directory and agent would: the tests that
// vary those from step to step say so in one value.
func runStep(ctx context.Context, h *hostsdk.Host, step hostsdk.Step) (hostsdk.StepResult, error) {
	s := h.Session(step.SessionID, &hostsdk.SessionOptions{Cwd: step.Cwd, AgentScope: step.AgentScope, PreloadSkills: step.PreloadSkills})
	s.Touch(step.TouchedPaths...)
	return s.Step(ctx, step.Downstream, &hostsdk.StepOptions{Turn: step.Turn, Step: step.Step})
}

// catalog returns the names a step's catalog message publishes, and whether
// the step published one.
func catalog(res hostsdk.StepResult) ([]string, bool) {
	for _, m := range res.Decision.Messages {
		if c, ok := events.ParseCatalog(m.Source); ok {
			names := []string{}
			for _, en := range c.Entries {
				names = append(names, en.Name)
			}
			return names, true
		}
	}
	return nil, false
}

func expect(t *testing.T, res hostsdk.StepResult, outcome hostsdk.Outcome, names ...string) {
	t.Helper()
	if res.Outcome != outcome {
		t.Fatalf("outcome = %s, want %s", res.Outcome, outcome)
	}
	got, published := catalog(res)
	switch outcome {
	case hostsdk.OutcomeInitial, hostsdk.OutcomeReplacement, hostsdk.OutcomeTombstone:
		if !published {
			t.Fatalf("%s published no catalog", outcome)
		}
		if strings.Join(got, ",") != strings.Join(names, ",") {
			t.Fatalf("%s lists %v, want %v", outcome, got, names)
		}
	default:
		if published {
			t.Fatalf("%s published a catalog %v", outcome, got)
		}
	}
}

func TestGlobalMountPublishesAndLoads(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "beta", "Second skill.")
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)

	res := e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeInitial, "alpha", "beta")
	if len(res.Appended) != 1 {
		t.Fatalf("appended %v, want one message", res.Appended)
	}
	if !strings.HasPrefix(res.Decision.Messages[0].Text(), "<system-reminder>\nA skill is a reusable set") {
		t.Errorf("catalog text = %q", res.Decision.Messages[0].Text())
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)

	// The durable log holds the catalog with its source intact.
	log, err := e.store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	page, err := log.ReadBackward(context.Background(), 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 1 || string(page.Events[0].Source) != string(res.Decision.Messages[0].Source) {
		t.Fatalf("log events = %+v, want the one catalog message", page.Events)
	}

	out, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.IsError || out.Value == nil || out.Value.Content != "Instructions of alpha." || out.Value.Provider != "runtime" {
		t.Fatalf("tool result = %+v", out)
	}
	if !strings.Contains(out.Text, "<skill_content name=\"alpha\">") || !strings.Contains(out.Text, "Instructions of alpha.") {
		t.Errorf("rendered result = %q", out.Text)
	}
	out, err = e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"gamma"}`)})
	if err != nil || !out.IsError || out.Text != `Error: skill "gamma" is unknown or no longer available` {
		t.Fatalf("unknown skill result = %+v, %v", out, err)
	}
}

func TestCloseStopsEveryPluginProcess(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	second, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	pids := []int{e.plugin.PID(), second.PID()}
	if err := e.host.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		deadline := time.Now().Add(10 * time.Second)
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				t.Fatalf("plugin process %d still running after Close", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestAgentMountIsScopedToItsAgent(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "shared", "For everyone.")
	e.register("agent:a", "only-a", "Only for agent a.")
	m := e.mount("agent:a")
	if m.ToolIdentity("skill") == "" {
		t.Fatal("mount minted no identity for its skill tool")
	}
	if _, _, ok := e.tree.Resolve("agent:b", "skill"); ok {
		t.Fatal("the agent mount's tool leaked into a sibling scope")
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "only-a", "shared")
	expect(t, e.step("s2", "agent:b"), hostsdk.OutcomeNoPlugin)

	if _, err := e.host.Session("s2", &hostsdk.SessionOptions{AgentScope: "agent:b"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"shared"}`)}); err == nil {
		t.Fatal("agent b could call a tool mounted for agent a")
	}
}

func TestSeveralMountsOfOneBinary(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "shared", "For everyone.")
	e.register("agent:b", "only-b", "Only for agent b.")
	global := e.mount(tools.GlobalScope)
	agentB, err := e.plugin.MountJSON(context.Background(), "agent:b", `{"catalogDescriptionMaxLength": 5}`)
	if err != nil {
		t.Fatal(err)
	}
	if global.ToolIdentity("skill") == agentB.ToolIdentity("skill") {
		t.Fatal("two mounts share a definition identity")
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "shared")
	res := e.step("s2", "agent:b")
	expect(t, res, hostsdk.OutcomeInitial, "only-b", "shared")
	// The agent's own mount (with its own configuration) is in effect.
	if !strings.Contains(res.Decision.Messages[0].Text(), "-`shared`: Fo...") {
		t.Errorf("agent mount's description cap not applied:\n%s", res.Decision.Messages[0].Text())
	}

	// A second process of the same binary mounted elsewhere works too.
	second, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.tree.AddScope("agent:c", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Mount(context.Background(), "agent:c", nil); err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("s3", "agent:c"), hostsdk.OutcomeInitial, "shared")
}

func TestRestrictionAndShadowingChangeWhatIsPublished(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "A.")
	e.mount(tools.GlobalScope)

	// Restricted before the first step: no catalog at all.
	if err := e.tree.Restrict("agent:b", "skill"); err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("sb", "agent:b"), hostsdk.OutcomeUnchanged)

	// Restricted after a catalog: tombstone; lifted: replacement.
	expect(t, e.step("sa", "agent:a"), hostsdk.OutcomeInitial, "alpha")
	if err := e.tree.Restrict("agent:a", "skill"); err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("sa", "agent:a"), hostsdk.OutcomeTombstone)
	expect(t, e.step("sa", "agent:a"), hostsdk.OutcomeUnchanged)
	if err := e.tree.Unrestrict("agent:a", "skill"); err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("sa", "agent:a"), hostsdk.OutcomeReplacement, "alpha")

	// A same-name tool in the agent's layer shadows the plugin's.
	shadow, err := e.tree.Register("agent:a", tools.Definition{Name: "skill", Description: "Someone else's skill tool."})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("sa", "agent:a"), hostsdk.OutcomeTombstone)
	var notFound *hostsdk.ToolNotFoundError
	if _, err := e.host.Session("sa", &hostsdk.SessionOptions{AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)}); !errors.As(err, &notFound) {
		t.Fatalf("shadowed call err = %v, want ToolNotFoundError (the runtime dispatches its own tool)", err)
	}
	e.tree.Unregister(shadow)
	expect(t, e.step("sa", "agent:a"), hostsdk.OutcomeReplacement, "alpha")
}

// newBlockingProvider returns a fake whose List blocks until its context
// is cancelled, reporting the start and the cancellation it observed.
func newBlockingProvider() *skilltest.Provider {
	p := skilltest.New(nil)
	p.SetHang(skilltest.OpList, true)
	return p
}

func TestAbortReachesProvider(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	p := newBlockingProvider()
	e.reg.AddProvider(tools.GlobalScope, p, nil)
	e.mount(tools.GlobalScope)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
		done <- err
	}()
	<-p.Started()
	cancel()
	select {
	case c := <-p.Cancelled():
		if !errors.Is(c.Err, context.Canceled) {
			t.Errorf("provider saw %v, want context.Canceled", c.Err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the provider never observed the cancellation")
	}
	// The caller's own cancellation is neither side's fault.
	err := <-done
	var perr *hostsdk.PluginError
	var herr *hostsdk.HostError
	if !errors.Is(err, context.Canceled) || errors.As(err, &perr) || errors.As(err, &herr) {
		t.Fatalf("PreStep err = %v (%T), want the caller's context.Canceled", err, err)
	}
}

func TestChecksumMismatchIsRefused(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	bad := sha256.Sum256([]byte("not the plugin"))
	_, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath, Checksum: bad[:]}})
	if !errors.Is(err, pluginproc.ErrChecksumMismatch) {
		t.Fatalf("Load with a wrong checksum: err = %v, want ErrChecksumMismatch", err)
	}

	data, err := os.ReadFile(pluginPath)
	if err != nil {
		t.Fatal(err)
	}
	good := sha256.Sum256(data)
	p, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath, Checksum: good[:]}})
	if err != nil {
		t.Fatalf("Load with the right checksum: %v", err)
	}
	if err := p.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestConfigErrorReachesCaller(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	for _, tc := range []struct{ config, want string }{
		{`{"catalogDescriptionMaxLength": 2}`, "plugin configuration: catalogDescriptionMaxLength must be an integer >= 3, got 2"},
		{`{"catalogDescriptionMaxLength": 12.5}`, "plugin configuration: catalogDescriptionMaxLength must be an integer >= 3, got 12.5"},
		{`{"catalogDescriptionMaxLength": "big"}`, `plugin configuration: catalogDescriptionMaxLength must be an integer >= 3, got "big"`},
	} {
		_, err := e.plugin.MountJSON(context.Background(), tools.GlobalScope, tc.config)
		var cerr *hostsdk.ConfigError
		if !errors.As(err, &cerr) || err.Error() != tc.want {
			t.Errorf("Mount(%s) err = %v, want ConfigError %q", tc.config, err, tc.want)
		}
	}
	if _, _, ok := e.tree.Resolve("agent:a", "skill"); ok {
		t.Error("a refused mount left its tool registered")
	}
}

func TestKilledPluginDuringPreStepRecovers(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "A.")
	p := newBlockingProvider()
	remove := e.reg.AddProvider(tools.GlobalScope, p, nil)
	e.mount(tools.GlobalScope)

	// Seed the session with one message so "untouched" is observable.
	log, err := e.store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := log.Append(context.Background(), sessionlog.Record{Type: "message", Body: []byte(`{"id":"u1","role":"user"}`)}); err != nil {
		t.Fatal(err)
	}

	pid := e.plugin.PID()
	done := make(chan struct {
		res hostsdk.StepResult
		err error
	}, 1)
	go func() {
		res, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: []hostsdk.Message{{ID: "d1", Role: hostsdk.RoleUser}}}, nil)
		done <- struct {
			res hostsdk.StepResult
			err error
		}{res, err}
	}()
	<-p.Started()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	got := <-done
	var perr *hostsdk.PluginError
	if !errors.As(got.err, &perr) {
		t.Fatalf("PreStep err = %v, want a PluginError", got.err)
	}
	if got.res.Outcome != hostsdk.OutcomePluginError || len(got.res.Decision.Messages) != 1 || got.res.Decision.Messages[0].ID != "d1" {
		t.Fatalf("failed step result = %+v, want the downstream decision unchanged", got.res)
	}
	// Failing open, the step appended its own message, and nothing of the
	// plugin's.
	page, err := log.ReadBackward(context.Background(), 0, 0, 10)
	if err != nil || len(page.Events) != 2 || !strings.Contains(string(page.Events[0].Body), `"id":"d1"`) || page.Events[0].Source != nil {
		t.Fatalf("log after the failed step = %+v, %v; want the seeded event and the step's own message", page.Events, err)
	}

	remove()
	res := e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeInitial, "alpha")
	if newPID := e.plugin.PID(); newPID == pid || newPID == 0 {
		t.Errorf("plugin pid %d after restart (was %d)", newPID, pid)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
}

// A provider slower than the deadline fails the step (closed, by policy)
// but does not condemn the plugin process, which answered its Ping.
func TestPreStepDeadlineFailsClosedByPolicy(t *testing.T) {
	e := newEnv(t, hostsdk.Options{PreStepTimeout: 200 * time.Millisecond, FailClosed: true})
	p := newBlockingProvider()
	remove := e.reg.AddProvider(tools.GlobalScope, p, nil)
	e.register(tools.GlobalScope, "alpha", "A.")
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	res, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
	var herr *hostsdk.HostError
	if !errors.As(err, &herr) || !errors.Is(err, context.DeadlineExceeded) || res.Outcome != "" {
		t.Fatalf("hung step = %+v, %v; want only a HostError (the provider was slow)", res, err)
	}
	if got := e.plugin.PID(); got != pid {
		t.Errorf("a slow provider replaced the plugin process (pid %d → %d)", pid, got)
	}
	remove()
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha")
}

// newHangingLoader returns a fake that lists one skill and never finishes
// loading it.
func newHangingLoader() *skilltest.Provider {
	p := skilltest.New(&skilltest.Options{Label: "slow"})
	p.SetSkills(skilltest.Skill{Summary: skill.Summary{Name: "slow", Description: "Slow.", Invocation: skill.DefaultPolicy()}})
	p.SetHang(skilltest.OpLoad, true)
	return p
}

func TestToolCallDeadlineReachesTheProvider(t *testing.T) {
	e := newEnv(t, hostsdk.Options{ToolCallTimeout: 300 * time.Millisecond})
	p := newHangingLoader()
	e.reg.AddProvider(tools.GlobalScope, p, nil)
	e.mount(tools.GlobalScope)
	_, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"slow"}`)})
	var herr *hostsdk.HostError
	if !errors.As(err, &herr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hung tool call err = %v, want a HostError (the provider was slow)", err)
	}
	if e.plugin.PID() == 0 {
		t.Error("a slow provider load condemned the plugin process")
	}
	select {
	case c := <-p.Cancelled():
		if c.Err == nil {
			t.Error("provider load ended without a context error")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the provider's load never saw the deadline")
	}
}

func TestEndSessionReleasesTheLog(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "A.")
	e.mount(tools.GlobalScope)
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha")
	if err := e.host.Session("s1", nil).End(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The log is closed by the host but kept: a resumed session sees its
	// catalog and publishes nothing new.
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
}

// syncBuffer is a concurrency-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestPluginLogsReachTheHostLogger(t *testing.T) {
	var buf syncBuffer
	tree, reg := tools.NewTree(), skilltest.NewRegistry(t)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(context.Background(), tools.GlobalScope, `{"catalogDescriptionMaxLength": 42}`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), "catalogDescriptionMaxLength=42") {
		if time.Now().After(deadline) {
			t.Fatalf("the plugin's mount log never reached the host logger; got:\n%s", buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestListenersRunBeforeThePlugin(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "A.")
	e.mount(tools.GlobalScope)
	var seen []string
	e.host.AddListener(func(_ context.Context, step hostsdk.Step, d hostsdk.Decision) (hostsdk.Decision, error) {
		seen = append(seen, step.SessionID)
		if step.SessionID == "rejected" {
			return hostsdk.Decision{Reject: &hostsdk.Reject{Reason: "budget exhausted"}}, nil
		}
		d.Messages = append(d.Messages, hostsdk.Message{ID: "reminder", Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Be brief."}}, Source: []byte(`{"kind":"host-note"}`)})
		return d, nil
	})

	res := e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeInitial, "alpha")
	if len(res.Decision.Messages) != 2 || res.Decision.Messages[0].ID != "reminder" {
		t.Fatalf("messages = %+v, want the listener's message, then the catalog", res.Decision.Messages)
	}
	log, err := e.store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	page, err := log.ReadBackward(context.Background(), 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 2 || string(page.Events[1].Source) != `{"kind":"host-note"}` {
		t.Fatalf("log = %+v, want both messages with their sources intact", page.Events)
	}

	res = e.step("rejected", "agent:a")
	if res.Outcome != hostsdk.OutcomeRejectPassthrough || res.Decision.Reject == nil || len(res.Appended) != 0 {
		t.Fatalf("rejected step = %+v", res)
	}
	if strings.Join(seen, ",") != "s1,rejected" {
		t.Errorf("listener saw %v", seen)
	}
}

// A plugin that stops answering (SIGSTOP) past the deadline is replaced:
// the step fails open, and the next step runs on a fresh process.
func TestGenuinelyHungPluginIsReplaced(t *testing.T) {
	e := newEnv(t, hostsdk.Options{PreStepTimeout: 500 * time.Millisecond})
	e.register(tools.GlobalScope, "alpha", "A.")
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	res, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
	var perr *hostsdk.PluginError
	if !errors.As(err, &perr) || !perr.Stopped || res.Outcome != hostsdk.OutcomePluginError || len(res.Decision.Messages) != 0 {
		syscall.Kill(pid, syscall.SIGCONT)
		t.Fatalf("step against a stopped plugin = %+v, %v", res, err)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha")
	if got := e.plugin.PID(); got == pid || got == 0 {
		t.Errorf("plugin pid %d after the hang (was %d)", got, pid)
	}
}

// failingStore opens logs whose reads fail, as a broken disk would.
type failingStore struct{ sessionlog.Store }

type failingLog struct{ sessionlog.Log }

func (s failingStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	return failingLog{l}, err
}

func (failingLog) ReadBackward(context.Context, uint64, uint64, int) (sessionlog.Page, error) {
	return sessionlog.Page{}, errors.New("disk read error")
}

func TestHostStorageErrorDoesNotKillThePlugin(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	broken, err := hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: failingStore{sessionlog.NewMemoryStore()}})
	if err != nil {
		t.Fatal(err)
	}
	defer broken.Close()
	p, err := broken.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.tree.AddScope("agent:broken", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), "agent:broken", nil); err != nil {
		t.Fatal(err)
	}
	e.register("agent:broken", "alpha", "A.")
	pid := p.PID()
	_, err = broken.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:broken"}).Step(context.Background(), hostsdk.Decision{}, nil)
	var herr *hostsdk.HostError
	var perr *hostsdk.PluginError
	if !errors.As(err, &herr) || errors.As(err, &perr) || !strings.Contains(err.Error(), "disk read error") {
		t.Fatalf("err = %v, want a HostError carrying the storage error", err)
	}
	if got := p.PID(); got != pid {
		t.Errorf("a host storage error replaced the plugin process (pid %d → %d)", pid, got)
	}
}

func TestCloseEndsAStoppedPlugin(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	pid := e.plugin.PID()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if err := e.host.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("plugin process %d survived Close", pid)
	}
}

// TestBudgetDiagnosticsReachTheHost: what a catalog budget shortened and
// left out comes back in StepResult.Diagnostics of the step that publishes
// the catalog, and in the host's log; the steps after it report nothing.
func TestBudgetDiagnosticsReachTheHost(t *testing.T) {
	var buf syncBuffer
	tree, reg := tools.NewTree(), skilltest.NewRegistry(t)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	for _, name := range []string{"code-review", "data-viz", "deploy-service", "incident-response", "pdf-tools", "release-notes", "security-audit"} {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: name, Description: "The skill " + name + "."}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(context.Background(), tools.GlobalScope, `{"catalogBudget": 100}`); err != nil {
		t.Fatal(err)
	}
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: tools.GlobalScope}
	res, err := runStep(context.Background(), host, step)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := catalog(res)
	if res.Outcome != hostsdk.OutcomeInitial || len(names) != 5 {
		t.Fatalf("outcome %s listing %v, want the initial catalog with the first five names", res.Outcome, names)
	}
	want := []string{
		"catalogBudget 100: 5 of 5 catalog descriptions removed, the names alone fill the budget",
		"catalogBudget 100: 2 of 7 skills left out of the catalog, their names do not fit: release-notes, security-audit",
	}
	if diff := cmp.Diff(want, res.Diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, d := range want {
		if !strings.Contains(buf.String(), "skill catalog: "+d) {
			t.Errorf("the host log lacks %q; it holds:\n%s", d, buf.String())
		}
	}
	res, err = runStep(context.Background(), host, step)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != hostsdk.OutcomeUnchanged || len(res.Diagnostics) != 0 {
		t.Errorf("second step: outcome %s, diagnostics %q; want unchanged and none", res.Outcome, res.Diagnostics)
	}
}
