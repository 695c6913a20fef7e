package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// telemetryEnv is a host whose Options and registry record into an
// in-memory span exporter and a manual metric reader, with one provider
// (labelled "fake", listed on every snapshot: it announces no changes) and
// the plugin loaded as opts say and mounted globally.
type telemetryEnv struct {
	host     *hostsdk.Host
	provider *skilltest.Provider
	spans    *tracetest.InMemoryExporter
	metrics  *sdkmetric.ManualReader
}

func newTelemetryEnv(t *testing.T, opts *hostsdk.LoadOptions) *telemetryEnv {
	return newTelemetryEnvWith(t, opts, nil, "", false)
}

// newTelemetryEnvWith is newTelemetryEnv with the registry's runtime
// skills, the mount's configuration and Options.MaskSkillNames.
func newTelemetryEnvWith(t *testing.T, opts *hostsdk.LoadOptions, runtime []skills.RuntimeSkill, mountConfig string, mask bool) *telemetryEnv {
	t.Helper()
	e := &telemetryEnv{spans: tracetest.NewInMemoryExporter(), metrics: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSyncer(e.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(e.metrics))
	t.Cleanup(func() {
		tp.Shutdown(context.Background())
		mp.Shutdown(context.Background())
	})
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg, err := skills.NewRegistry(&skills.RegistryOptions{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	e.provider = skilltest.New(&skilltest.Options{Label: "fake"})
	e.provider.SetSkills(skilltest.Skill{Summary: skill.Summary{Name: "alpha", Description: "Does alpha.", Invocation: skill.DefaultPolicy()}, Content: "Alpha body."})
	reg.AddProvider(tools.GlobalScope, e.provider, &skills.ProviderOptions{Label: "fake"})
	for _, rs := range runtime {
		if err := reg.Register(tools.GlobalScope, rs); err != nil {
			t.Fatal(err)
		}
	}
	e.host, err = hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(),
		Logger: slog.New(slog.DiscardHandler), TracerProvider: tp, MeterProvider: mp, MaskSkillNames: mask})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.host.Close() })
	p, err := e.host.Load(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(context.Background(), tools.GlobalScope, mountConfig); err != nil {
		t.Fatal(err)
	}
	e.spans.Reset() // what loading and mounting recorded is not the test's
	return e
}

// spanTree checks that spans form one tree of one trace, every parent id
// naming a span of the set, and returns it as indented names, children in
// the order they started. remote lists the spans whose parent came from
// another process (the parent span context arrived over the wire).
func spanTree(t *testing.T, spans tracetest.SpanStubs) (tree string, remote []string) {
	t.Helper()
	if len(spans) == 0 {
		t.Fatal("no spans recorded")
	}
	byID := make(map[trace.SpanID]tracetest.SpanStub)
	children := make(map[trace.SpanID][]tracetest.SpanStub)
	var roots []tracetest.SpanStub
	traceID := spans[0].SpanContext.TraceID()
	for _, s := range spans {
		byID[s.SpanContext.SpanID()] = s
		if s.SpanContext.TraceID() != traceID {
			t.Errorf("span %s is of trace %s, want %s (one trace)", s.Name, s.SpanContext.TraceID(), traceID)
		}
	}
	for _, s := range spans {
		if !s.Parent.IsValid() {
			roots = append(roots, s)
			continue
		}
		if s.Parent.TraceID() != traceID {
			t.Errorf("span %s has a parent of trace %s", s.Name, s.Parent.TraceID())
		}
		if _, ok := byID[s.Parent.SpanID()]; !ok {
			t.Errorf("span %s names the parent %s, which is not among the spans", s.Name, s.Parent.SpanID())
		}
		children[s.Parent.SpanID()] = append(children[s.Parent.SpanID()], s)
		if s.Parent.IsRemote() {
			remote = append(remote, s.Name)
		}
	}
	if len(roots) != 1 {
		t.Fatalf("%d root spans, want 1", len(roots))
	}
	var b strings.Builder
	var walk func(s tracetest.SpanStub, depth int)
	walk = func(s tracetest.SpanStub, depth int) {
		fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), s.Name)
		kids := children[s.SpanContext.SpanID()]
		slices.SortFunc(kids, func(x, y tracetest.SpanStub) int { return x.StartTime.Compare(y.StartTime) })
		for _, k := range kids {
			if k.StartTime.Before(s.StartTime) || k.EndTime.After(s.EndTime) {
				t.Errorf("span %s [%v, %v] is not within its parent %s [%v, %v]", k.Name, k.StartTime, k.EndTime, s.Name, s.StartTime, s.EndTime)
			}
			walk(k, depth+1)
		}
	}
	walk(roots[0], 0)
	return b.String(), remote
}

// TestOneStepIsOneSpanTree: one step through the plugin binary is one
// trace: the host's step span, the span of the plugin's work as its child,
// the host callbacks the plugin made (their parent span context crossed
// the gRPC connection twice: to the plugin and back) as children of that,
// and the provider's listing below the snapshot callback. A skill load is
// the same tree under the CallTool span. The plugin in the host's process
// gives the same trees, with no remote parents.
func TestOneStepIsOneSpanTree(t *testing.T) {
	const wantStep = `skillcatalog.PreStep
  skillcatalog.plugin.PreStep
    skillcatalog.callback.Snapshot
      skillcatalog.provider.List
    skillcatalog.callback.ReadEvents
`
	const wantLoad = `skillcatalog.CallTool
  skillcatalog.plugin.ExecuteSkillTool
    skillcatalog.callback.Snapshot
      skillcatalog.provider.List
    skillcatalog.callback.GetSkill
      skillcatalog.provider.List
      skillcatalog.provider.Load
`
	for _, mode := range []struct {
		name       string
		opts       *hostsdk.LoadOptions
		wantRemote []string
		// The plugin process reports its own time on the call.
		wantPluginTime bool
	}{
		{"binary", &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}, []string{"skillcatalog.callback.Snapshot", "skillcatalog.callback.ReadEvents", "skillcatalog.callback.Snapshot", "skillcatalog.callback.GetSkill"}, true},
		{"in-process", &hostsdk.LoadOptions{InProcess: true}, nil, false},
	} {
		t.Run(mode.name, func(t *testing.T) {
			e := newTelemetryEnv(t, mode.opts)
			ctx := context.Background()
			res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
			if err != nil || res.Outcome != hostsdk.OutcomeInitial {
				t.Fatalf("PreStep = %v, %v; want the initial catalog", res.Outcome, err)
			}
			stepSpans := e.spans.GetSpans()
			tree, remote := spanTree(t, stepSpans)
			if tree != wantStep {
				t.Errorf("step spans:\n%s\nwant:\n%s", tree, wantStep)
			}
			root := stepSpans[len(stepSpans)-1] // the step's span ends last
			if root.Name != "skillcatalog.PreStep" || !hasAttr(root.Attributes, attribute.String("skillcatalog.outcome", "initial")) ||
				!hasAttr(root.Attributes, attribute.String("skillcatalog.session.id", "s1")) {
				t.Errorf("step span %s has attributes %v; want the outcome and the session", root.Name, root.Attributes)
			}
			for _, s := range stepSpans {
				if s.Name != "skillcatalog.plugin.PreStep" {
					continue
				}
				reported := slices.ContainsFunc(s.Attributes, func(kv attribute.KeyValue) bool { return kv.Key == "skillcatalog.plugin.duration_ms" })
				if reported != mode.wantPluginTime {
					t.Errorf("plugin span has the plugin's own time: %v, want %v", reported, mode.wantPluginTime)
				}
			}
			e.spans.Reset()

			tr, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
			if err != nil || tr.IsError {
				t.Fatalf("CallTool = %+v, %v", tr, err)
			}
			loadTree, loadRemote := spanTree(t, e.spans.GetSpans())
			if loadTree != wantLoad {
				t.Errorf("skill load spans:\n%s\nwant:\n%s", loadTree, wantLoad)
			}
			if d := cmp.Diff(mode.wantRemote, append(remote, loadRemote...)); d != "" {
				t.Errorf("spans with a parent from across the wire (-want +got):\n%s", d)
			}
		})
	}
}

// TestTracingContinuesTheCallersTrace: a step under the runtime's own span
// is part of the runtime's trace.
func TestTracingContinuesTheCallersTrace(t *testing.T) {
	e := newTelemetryEnv(t, &hostsdk.LoadOptions{InProcess: true})
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: trace.FlagsSampled})
	ctx := trace.ContextWithSpanContext(context.Background(), parent)
	if _, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
		t.Fatal(err)
	}
	for _, s := range e.spans.GetSpans() {
		if s.SpanContext.TraceID() != parent.TraceID() {
			t.Errorf("span %s is of trace %s, want the caller's %s", s.Name, s.SpanContext.TraceID(), parent.TraceID())
		}
		if s.Name == "skillcatalog.PreStep" && s.Parent.SpanID() != parent.SpanID() {
			t.Errorf("step span's parent is %s, want the caller's span %s", s.Parent.SpanID(), parent.SpanID())
		}
	}
}

func hasAttr(attrs []attribute.KeyValue, want attribute.KeyValue) bool {
	return slices.Contains(attrs, want)
}

// TestMetricsAfterTenSteps: ten steps of one session through the plugin
// binary, one of them while the provider fails, and two skill loads (one
// of a skill that vanished after it was listed): the
// counters by outcome, publication kind and result, and the histograms'
// counts, agree with what the steps returned.
func TestMetricsAfterTenSteps(t *testing.T) {
	e := newTelemetryEnv(t, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	ctx := context.Background()
	var outcomes []hostsdk.Outcome
	snapshots := 0
	for i := 1; i <= 10; i++ {
		switch i {
		case 5:
			e.provider.SetListError(errors.New("server unreachable"))
		case 6:
			e.provider.SetListError(nil)
		case 7:
			e.provider.Put(skilltest.Skill{Summary: skill.Summary{Name: "beta", Description: "Does beta.", Invocation: skill.DefaultPolicy()}, Content: "Beta body."})
			// Listed, but gone when loaded.
			e.provider.Put(skilltest.Skill{Summary: skill.Summary{Name: "gamma", Description: "Does gamma.", Invocation: skill.DefaultPolicy()}, Vanished: true})
		}
		res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, &hostsdk.StepOptions{Turn: 1, Step: i})
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		outcomes = append(outcomes, res.Outcome)
		snapshots += res.Callbacks.Snapshot
	}
	want := []hostsdk.Outcome{"initial", "unchanged", "unchanged", "unchanged", "incomplete", "unchanged", "replacement", "unchanged", "unchanged", "unchanged"}
	if d := cmp.Diff(want, outcomes); d != "" {
		t.Fatalf("outcomes (-want +got):\n%s", d)
	}
	for _, args := range []string{`{"name":"alpha"}`, `{"name":"gamma"}`} {
		if _, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(args)}); err != nil {
			t.Fatal(err)
		}
	}

	var rm metricdata.ResourceMetrics
	if err := e.metrics.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	got := flatten(t, rm)
	wantPoints := map[string]int64{
		"skillcatalog.steps{skillcatalog.outcome=incomplete}":  1,
		"skillcatalog.steps{skillcatalog.outcome=initial}":     1,
		"skillcatalog.steps{skillcatalog.outcome=replacement}": 1,
		"skillcatalog.steps{skillcatalog.outcome=unchanged}":   7,

		"skillcatalog.step.duration{skillcatalog.outcome=incomplete}":  1,
		"skillcatalog.step.duration{skillcatalog.outcome=initial}":     1,
		"skillcatalog.step.duration{skillcatalog.outcome=replacement}": 1,
		"skillcatalog.step.duration{skillcatalog.outcome=unchanged}":   7,

		"skillcatalog.publications{skillcatalog.kind=initial}":     1,
		"skillcatalog.publications{skillcatalog.kind=replacement}": 1,
		// The model loaded alpha once; the initial catalog listed alpha,
		// the replacement alpha, beta and gamma.
		"skillcatalog.skill.activations{skillcatalog.agent.scope=agent:a,skillcatalog.skill=alpha,skillcatalog.skill.origin=local,skillcatalog.trigger=model}": 1,
		"skillcatalog.skill.listed{skillcatalog.agent.scope=agent:a,skillcatalog.skill=alpha,skillcatalog.skill.origin=local}":                                 2,
		"skillcatalog.skill.listed{skillcatalog.agent.scope=agent:a,skillcatalog.skill=beta,skillcatalog.skill.origin=local}":                                  1,
		"skillcatalog.skill.listed{skillcatalog.agent.scope=agent:a,skillcatalog.skill=gamma,skillcatalog.skill.origin=local}":                                 1,

		// Each skill load asks for a snapshot first.
		"skillcatalog.callback.duration{skillcatalog.callback=Snapshot,skillcatalog.result=ok}": int64(snapshots + 2),
		"skillcatalog.callback.duration{skillcatalog.callback=GetSkill,skillcatalog.result=ok}": 2,

		"skillcatalog.skill.loads{skillcatalog.result=ok}":        1,
		"skillcatalog.skill.loads{skillcatalog.result=not_found}": 1,

		// The provider announces no changes, so every step lists it once,
		// in the Snapshot callback or ahead of the step, one of them
		// failing; and so does each load, for its Snapshot callback and
		// for the listing that names the skill's provider. A Load that
		// finds nothing is an answer, not an error.
		"skillcatalog.provider.duration{skillcatalog.operation=List,skillcatalog.provider=fake,skillcatalog.result=ok}":    10 - 1 + 2 + 2,
		"skillcatalog.provider.duration{skillcatalog.operation=List,skillcatalog.provider=fake,skillcatalog.result=error}": 1,
		"skillcatalog.provider.duration{skillcatalog.operation=Load,skillcatalog.provider=fake,skillcatalog.result=ok}":    2,
		"skillcatalog.provider.errors{skillcatalog.operation=List,skillcatalog.provider=fake}":                             1,
	}
	// ReadEvents pages depend on how the plugin reads the log; their count
	// is the steps' own.
	delete(got, "skillcatalog.callback.duration{skillcatalog.callback=ReadEvents,skillcatalog.result=ok}")
	if snapshots != 1 {
		t.Errorf("%d snapshot callbacks in ten steps, want 1: only the session's first step asks, the host answers the later ones ahead", snapshots)
	}
	if d := cmp.Diff(wantPoints, got); d != "" {
		t.Errorf("metric points (-want +got):\n%s", d)
	}
}

// flatten returns each data point of rm as "name{attributes}" → its sum
// (a counter) or its count (a histogram).
func flatten(t *testing.T, rm metricdata.ResourceMetrics) map[string]int64 {
	t.Helper()
	out := make(map[string]int64)
	key := func(name string, set attribute.Set) string {
		var parts []string
		for _, kv := range set.ToSlice() {
			parts = append(parts, string(kv.Key)+"="+kv.Value.Emit())
		}
		return name + "{" + strings.Join(parts, ",") + "}"
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out[key(m.Name, p.Attributes)] = p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					var inBuckets uint64
					for _, c := range p.BucketCounts {
						inBuckets += c
					}
					if inBuckets != p.Count || p.Sum <= 0 {
						t.Errorf("%s: bucket counts %d, count %d, sum %v", key(m.Name, p.Attributes), inBuckets, p.Count, p.Sum)
					}
					out[key(m.Name, p.Attributes)] = int64(p.Count)
				}
			default:
				t.Errorf("metric %s has data of type %T", m.Name, m.Data)
			}
		}
	}
	return out
}

// TestResourceReadsAreTracedAndCounted: a skill_resource call is a
// CallTool span with the plugin's span and its ReadResource callback below
// it, and the reads are counted by result.
func TestResourceReadsAreTracedAndCounted(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("Notes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTelemetryEnvWith(t, &hostsdk.LoadOptions{InProcess: true}, []skills.RuntimeSkill{{Name: "files", Description: "Has files.", Content: "Read notes.md.",
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}}}, `{"resourceTool": true}`, false)
	ctx := context.Background()
	for _, path := range []string{"notes.md", "missing.md", "notes.md"} {
		res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill_resource", Arguments: json.RawMessage(`{"name":"files","path":"` + path + `"}`)})
		if err != nil || res.IsError != (path == "missing.md") {
			t.Fatalf("read %s = %+v, %v", path, res, err)
		}
		if path == "notes.md" && strings.Count(res.Text, "Notes.") != 1 {
			t.Fatalf("read %s = %q", path, res.Text)
		}
		tree, _ := spanTree(t, e.spans.GetSpans())
		if want := "skillcatalog.CallTool\n  skillcatalog.plugin.ExecuteSkillTool\n    skillcatalog.callback.Snapshot\n      skillcatalog.provider.List\n    skillcatalog.callback.ReadResource\n      skillcatalog.provider.List\n"; tree != want {
			t.Errorf("read %s spans:\n%s\nwant:\n%s", path, tree, want)
		}
		e.spans.Reset()
	}
	var rm metricdata.ResourceMetrics
	if err := e.metrics.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	got := flatten(t, rm)
	for key, want := range map[string]int64{
		"skillcatalog.resource.reads{skillcatalog.result=ok}":                                       2,
		"skillcatalog.resource.reads{skillcatalog.result=not_found}":                                1,
		"skillcatalog.callback.duration{skillcatalog.callback=ReadResource,skillcatalog.result=ok}": 3,
	} {
		if got[key] != want {
			t.Errorf("%s = %d, want %d", key, got[key], want)
		}
	}
}

// TestTracerAndMeterAreIndependent: a host given only a meter provider
// counts its steps, and one given only a tracer provider traces them.
func TestTracerAndMeterAreIndependent(t *testing.T) {
	tree := tools.NewTree()
	reg := skilltest.NewRegistry(t)
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "Does alpha.", Content: "Alpha body."}); err != nil {
		t.Fatal(err)
	}
	run := func(cfg hostsdk.Options) {
		t.Helper()
		cfg.Tools, cfg.Skills, cfg.Sessions = tree, reg, sessionlog.NewMemoryStore()
		host, err := hostsdk.New(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer host.Close()
		p, err := host.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true})
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.Mount(context.Background(), tools.GlobalScope, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Unmount(context.Background())
		res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: tools.GlobalScope}).Step(context.Background(), hostsdk.Decision{}, nil)
		if err != nil || res.Outcome != hostsdk.OutcomeInitial {
			t.Fatalf("PreStep = %v, %v", res.Outcome, err)
		}
	}

	reader := sdkmetric.NewManualReader()
	run(hostsdk.Options{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	if got := flatten(t, rm)["skillcatalog.steps{skillcatalog.outcome=initial}"]; got != 1 {
		t.Errorf("meter only: %d initial steps counted, want 1", got)
	}

	spans := tracetest.NewInMemoryExporter()
	run(hostsdk.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))})
	tree2, _ := spanTree(t, spans.GetSpans())
	if want := "skillcatalog.PreStep\n  skillcatalog.plugin.PreStep\n    skillcatalog.callback.Snapshot\n    skillcatalog.callback.ReadEvents\n"; tree2 != want {
		t.Errorf("tracer only:\n%s\nwant:\n%s", tree2, want)
	}
}

// TestNoProvidersRecordNothing: a host without providers records no span
// of its own, also for a step under the runtime's recording span, and the
// plugin binary, which carries that span's context through its callbacks,
// records none either.
func TestNoProvidersRecordNothing(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	host, reg, _ := modeEnv(t, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}, hostsdk.Options{})
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "Does alpha.", Content: "Alpha body."}); err != nil {
		t.Fatal(err)
	}
	ctx, span := tp.Tracer("runtime").Start(context.Background(), "runtime step")
	res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
	span.End()
	if err != nil || res.Outcome != hostsdk.OutcomeInitial || res.Callbacks.Total() == 0 {
		t.Fatalf("PreStep = %+v, %v; want the initial catalog, with callbacks", res, err)
	}
	if got := spans.GetSpans(); len(got) != 1 || got[0].Name != "runtime step" {
		t.Errorf("spans %v, want only the runtime's", got.Snapshots())
	}
}

// TestAToolThatIsNotThePluginsIsNoFailure: CallTool of a name the plugin
// did not register returns *ToolNotFoundError for the runtime to dispatch
// the call itself; its span says so and is not marked failed.
func TestAToolThatIsNotThePluginsIsNoFailure(t *testing.T) {
	e := newTelemetryEnv(t, &hostsdk.LoadOptions{InProcess: true})
	_, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "bash", Arguments: json.RawMessage(`{}`)})
	var notFound *hostsdk.ToolNotFoundError
	if !errors.As(err, &notFound) {
		t.Fatalf("CallTool(bash) = %v, want *ToolNotFoundError", err)
	}
	got := e.spans.GetSpans()
	if len(got) != 1 || got[0].Name != "skillcatalog.CallTool" || got[0].Status.Code != codes.Unset ||
		!hasAttr(got[0].Attributes, attribute.Bool("skillcatalog.tool.forwarded", false)) {
		t.Errorf("spans %+v, want one CallTool span, not failed, saying the tool is not the plugin's", got.Snapshots())
	}
}
