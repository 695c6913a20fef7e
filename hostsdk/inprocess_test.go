package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// modeEnv is a host on a memory store with the plugin loaded as opts say.
func modeEnv(t *testing.T, opts *hostsdk.LoadOptions, cfg hostsdk.Options) (*hostsdk.Host, *skills.Registry, sessionlog.Store) {
	t.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg := skilltest.NewRegistry(t)
	store := sessionlog.NewMemoryStore()
	cfg.Tools, cfg.Skills, cfg.Sessions, cfg.Logger = tree, reg, store, slog.New(slog.DiscardHandler)
	host, err := hostsdk.New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(context.Background(), tools.GlobalScope, `{"catalogDescriptionMaxLength": 40}`); err != nil {
		t.Fatal(err)
	}
	return host, reg, store
}

// TestInProcessMatchesThePluginBinary runs one session in both hosting
// modes and compares what the runtime sees and what is durable: outcomes,
// tool results and every session-log record, byte for byte.
func TestInProcessMatchesThePluginBinary(t *testing.T) {
	type run struct {
		outcomes []hostsdk.Outcome
		results  []hostsdk.ToolResult
		events   []sessionlog.Event
	}
	session := func(opts *hostsdk.LoadOptions) run {
		host, reg, store := modeEnv(t, opts, hostsdk.Options{})
		ctx := context.Background()
		var r run
		step := func() {
			res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{{ID: fmt.Sprintf("u%d", len(r.outcomes)), Role: hostsdk.RoleUser}}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.outcomes = append(r.outcomes, res.Outcome)
		}
		call := func(args string) {
			res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatal(err)
			}
			r.results = append(r.results, res)
		}
		reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "A skill whose description is longer than the configured cap.", Content: "Alpha body."})
		step()
		step()
		call(`{"name":"alpha"}`)
		call(`{"name":"missing"}`)
		call(`{"nam":`)
		reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "beta", Description: "Second.", Content: "Beta body."})
		step()
		if _, err := host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: 5}}); err != nil {
			t.Fatal(err)
		}
		step()
		reg.Unregister(tools.GlobalScope, "alpha")
		reg.Unregister(tools.GlobalScope, "beta")
		step()
		l, err := store.Open(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		p, err := l.ReadBackward(ctx, 0, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		r.events = p.Events
		return r
	}
	binary := session(&hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	inProcess := session(&hostsdk.LoadOptions{InProcess: true})
	if want := []hostsdk.Outcome{hostsdk.OutcomeInitial, hostsdk.OutcomeUnchanged, hostsdk.OutcomeReplacement, hostsdk.OutcomeReplacement, hostsdk.OutcomeTombstone}; !cmp.Equal(binary.outcomes, want) {
		t.Fatalf("binary outcomes %v, want %v", binary.outcomes, want)
	}
	if d := cmp.Diff(binary, inProcess, cmp.AllowUnexported(run{})); d != "" {
		t.Errorf("in-process run differs from the plugin binary (-binary +in-process):\n%s", d)
	}
}

// TestInProcessErrorsSayWhomToBlame: the in-process mode blames a slow
// provider on the host and keeps the caller's cancellation as it is, like
// the binary.
func TestInProcessErrorsSayWhomToBlame(t *testing.T) {
	host, reg, _ := modeEnv(t, &hostsdk.LoadOptions{InProcess: true}, hostsdk.Options{PreStepTimeout: 200 * time.Millisecond})
	remove := reg.AddProvider(tools.GlobalScope, newBlockingProvider(), nil)
	_, err := host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
	var herr *hostsdk.HostError
	if !errors.As(err, &herr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("in-process step with a provider past the deadline: %v (%T), want a HostError wrapping context.DeadlineExceeded", err, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
	var perr *hostsdk.PluginError
	if !errors.Is(err, context.Canceled) || errors.As(err, &herr) || errors.As(err, &perr) {
		t.Fatalf("in-process step with a cancelled context: %v (%T), want the caller's context.Canceled", err, err)
	}
	remove()
}

func TestInProcessOptionsAreChecked(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	if _, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true, Launcher: pluginproc.Binary{Path: pluginPath}}); err == nil {
		t.Error("Load with InProcess and a Path succeeded")
	}
	if _, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{}); err == nil {
		t.Error("Load with neither a Path nor InProcess succeeded")
	}
}

// BenchmarkHostingModes compares a PreStep through the plugin binary with
// one in the host's process, for a static step (nothing happened) and an
// agent-loop step (two messages appended before it, untimed).
func BenchmarkHostingModes(b *testing.B) {
	for _, n := range []int{10, 1000} {
		for _, mode := range []struct {
			name string
			opts *hostsdk.LoadOptions
		}{{"process", &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}}, {"in-process", &hostsdk.LoadOptions{InProcess: true}}} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, mode.name), func(b *testing.B) {
				store, err := sessionlog.NewFileStore(b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				host, _, _ := benchHostLoaded(b, n, store, mode.opts)
				seed(b, store, "s1", 1000)
				ctx := context.Background()
				step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
				for i := 0; i < 3; i++ {
					if _, err := runStep(ctx, host, step); err != nil {
						b.Fatal(err)
					}
				}
				b.Run("static-step", func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if res, err := runStep(ctx, host, step); err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
							b.Fatalf("outcome %s, err %v", res.Outcome, err)
						}
					}
				})
				b.Run("loop-step", func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						if _, err := host.Session("s1", nil).Append(ctx, loopMessages()...); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						if res, err := runStep(ctx, host, step); err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
							b.Fatalf("outcome %s, err %v", res.Outcome, err)
						}
					}
				})
			})
		}
	}
}

// loopMessages are the model's reply and a tool result, as messages.
func loopMessages() []hostsdk.Message {
	return []hostsdk.Message{
		{ID: "a", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Reading the file."}}},
		{ID: "t", Role: hostsdk.RoleTool, Content: []hostsdk.ContentBlock{{Type: "text", Text: "package main"}}, Source: []byte(`{"kind":"tool-result","tool":"read"}`)},
	}
}

// TestMountTypedAndJSONAgree: a typed configuration mounts as its JSON
// form does, and one the plugin refuses is the same *ConfigError.
func TestMountTypedAndJSONAgree(t *testing.T) {
	tree := tools.NewTree()
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: skilltest.NewRegistry(t), Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Mount(context.Background(), tools.GlobalScope, &hostsdk.MountOptions{ResourceTool: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.ToolIdentity("skill") == "" || m.ToolIdentity("skill_resource") == "" {
		t.Errorf("a typed mount with the resource tool registered skill %q and skill_resource %q", m.ToolIdentity("skill"), m.ToolIdentity("skill_resource"))
	}
	_, typed := p.Mount(context.Background(), tools.GlobalScope, &hostsdk.MountOptions{DescriptionMaxLength: 2})
	_, raw := p.MountJSON(context.Background(), tools.GlobalScope, `{"catalogDescriptionMaxLength": 2}`)
	var cerr *hostsdk.ConfigError
	if !errors.As(typed, &cerr) || raw == nil || typed.Error() != raw.Error() {
		t.Errorf("a cap of 2: typed %v, JSON %v; want the same *ConfigError", typed, raw)
	}
}
