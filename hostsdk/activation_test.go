package hostsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// activationEvents returns the activation events of the recorded spans, as
// "span skill trigger origin digest session scope", sorted.
func activationEvents(e *telemetryEnv) []string {
	var out []string
	for _, s := range e.spans.GetSpans() {
		for _, ev := range s.Events {
			if ev.Name != "skillcatalog.skill.activation" {
				continue
			}
			a := attribute.NewSet(ev.Attributes...)
			get := func(k string) string { v, _ := a.Value(attribute.Key(k)); return v.Emit() }
			out = append(out, fmt.Sprintf("%s %s %s %s %s %s %s", s.Name, get("skillcatalog.skill"), get("skillcatalog.trigger"),
				get("skillcatalog.skill.origin"), get("skillcatalog.skill.digest"), get("skillcatalog.session.id"), get("skillcatalog.agent.scope")))
		}
	}
	slices.Sort(out)
	return out
}

// counterPoints returns the data points of the counter named name, as
// their attributes in key order and the value, sorted.
func counterPoints(t *testing.T, e *telemetryEnv, name string) []string {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := e.metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
				var kv []string
				for _, a := range p.Attributes.ToSlice() {
					kv = append(kv, string(a.Key)+"="+a.Value.Emit())
				}
				out = append(out, fmt.Sprintf("%v %d", kv, p.Value))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestActivationTelemetryOnEveryPath: through the plugin binary and in the
// host's process, a session whose first step preloads alpha and runs the
// user's /forky (a skill that runs in a sub-agent) and /beta, whose model
// then loads alpha with the `skill` tool, and whose context is then
// compacted, records one activation event per skill on the step or tool
// span that activated it (trigger preload, fork, user, model, reattach),
// with the skill's origin and the digest of its instructions, the session
// and the agent; the activations counter counts the same without the
// session, and the listed counter counts each skill of the snapshot at
// each catalog publication.
func TestActivationTelemetryOnEveryPath(t *testing.T) {
	fork := &skill.Directives{Context: skill.ContextFork}
	runtime := []skills.RuntimeSkill{
		{Name: "forky", Description: "Runs apart.", Content: "Forky body.", Directives: fork},
		{Name: "beta", Description: "Does beta.", Content: "Beta body."},
	}
	d := map[string]string{"alpha": events.ContentDigest("Alpha body."), "beta": events.ContentDigest("Beta body."), "forky": events.ContentDigest("Forky body.")}
	const scope = "agent:a"
	for _, mode := range []struct {
		name string
		opts *hostsdk.LoadOptions
	}{
		{"binary", &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}},
		{"in-process", &hostsdk.LoadOptions{InProcess: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			e := newTelemetryEnvWith(t, mode.opts, runtime, `{"userInvocation": true}`, false)
			ctx := context.Background()
			typed := hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("/forky and /beta")}}
			res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: scope, PreloadSkills: []string{"alpha"}}).Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{typed}}, nil)
			if err != nil || res.Outcome != hostsdk.OutcomeInitial {
				t.Fatalf("PreStep = %v, %v", res.Outcome, err)
			}
			tr, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: scope}).CallTool(ctx, hostsdk.ToolCall{CallID: "c1", Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
			if err != nil || tr.IsError {
				t.Fatalf("CallTool = %+v, %v", tr, err)
			}
			seqs, err := e.host.Session("s1", nil).Append(ctx, hostsdk.Message{ID: "r1", Role: hostsdk.RoleTool, Source: tr.Source,
				Content: []hostsdk.ContentBlock{hostsdk.TextBlock(tr.Text)}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: seqs[0]}}); err != nil {
				t.Fatal(err)
			}
			res, err = e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: scope}).Step(ctx, hostsdk.Decision{}, nil)
			if err != nil || len(res.Reattached) == 0 {
				t.Fatalf("PreStep after the compaction = %+v, %v; want skills attached again", res.Reattached, err)
			}
			var want []string
			ev := func(span, name, trigger string) {
				want = append(want, fmt.Sprintf("%s %s %s local %s s1 %s", span, name, trigger, d[name], scope))
			}
			ev("skillcatalog.PreStep", "alpha", "preload")
			ev("skillcatalog.PreStep", "forky", "fork")
			ev("skillcatalog.PreStep", "beta", "user")
			ev("skillcatalog.CallTool", "alpha", "model")
			for _, r := range res.Reattached {
				if r.State == "" {
					ev("skillcatalog.PreStep", r.Name, "reattach")
				}
			}
			slices.Sort(want)
			if diff := cmp.Diff(want, activationEvents(e)); diff != "" {
				t.Errorf("activation events (-want +got):\n%s", diff)
			}
			acts := counterPoints(t, e, "skillcatalog.skill.activations")
			for _, w := range []string{
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=alpha skillcatalog.skill.origin=local skillcatalog.trigger=model] 1",
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=alpha skillcatalog.skill.origin=local skillcatalog.trigger=preload] 1",
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=beta skillcatalog.skill.origin=local skillcatalog.trigger=user] 1",
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=forky skillcatalog.skill.origin=local skillcatalog.trigger=fork] 1",
			} {
				if !slices.Contains(acts, w) {
					t.Errorf("activations counter lacks %s; has %v", w, acts)
				}
			}
			// The compaction hid the catalog too: the second step published it again.
			wantListed := []string{
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=alpha skillcatalog.skill.origin=local] 2",
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=beta skillcatalog.skill.origin=local] 2",
				"[skillcatalog.agent.scope=agent:a skillcatalog.skill=forky skillcatalog.skill.origin=local] 2",
			}
			if diff := cmp.Diff(wantListed, counterPoints(t, e, "skillcatalog.skill.listed")); diff != "" {
				t.Errorf("listed counter (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMaskSkillNames: with Options.MaskSkillNames, the activation event and
// the counters carry a stable stand-in for the skill name, never the name.
func TestMaskSkillNames(t *testing.T) {
	e := newTelemetryEnvWith(t, &hostsdk.LoadOptions{InProcess: true}, nil, "", true)
	ctx := context.Background()
	if _, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)}); err != nil {
		t.Fatal(err)
	}
	got := activationEvents(e)
	const masked = "skill-"
	if len(got) != 1 || !strings.Contains(got[0], " "+masked) || strings.Contains(got[0], "alpha") {
		t.Fatalf("activation events = %v, want one with a masked name", got)
	}
	for _, name := range []string{"skillcatalog.skill.activations", "skillcatalog.skill.listed"} {
		pts := counterPoints(t, e, name)
		if len(pts) != 1 || strings.Contains(pts[0], "alpha") || !strings.Contains(pts[0], "skillcatalog.skill="+masked) {
			t.Errorf("%s = %v, want one point with a masked name", name, pts)
		}
	}
}
