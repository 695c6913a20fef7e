package hostsdk_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// reasonsHost is a host running the plugin binary whose log is kept.
type reasonsHost struct {
	host  *hostsdk.Host
	tree  *tools.Tree
	reg   *skills.Registry
	store sessionlog.Store
	log   *syncBuffer
}

func newReasonsHost(t *testing.T) *reasonsHost {
	t.Helper()
	r := &reasonsHost{tree: tools.NewTree(), reg: skilltest.NewRegistry(t), store: sessionlog.NewMemoryStore(), log: &syncBuffer{}}
	if err := r.tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	var err error
	r.host, err = hostsdk.New(&hostsdk.Options{Tools: r.tree, Skills: r.reg, Sessions: r.store,
		Logger: slog.New(slog.NewTextHandler(r.log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.host.Close() })
	p, err := r.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// changes returns the log lines that report a change of reasons, at level.
func (r *reasonsHost) changes(level string) []string {
	var out []string
	for _, l := range strings.Split(r.log.String(), "\n") {
		if strings.Contains(l, `msg="skill catalog: the step's reasons changed"`) && strings.Contains(l, "level="+level+" ") {
			out = append(out, l)
		}
	}
	return out
}

// TestProviderErrorReachesReasonsAndTheLogOnce: through the plugin binary, a
// provider whose listing fails makes every step incomplete; each step's
// reasons name the provider and its error, and the log says so at WARN
// once, with the session, however many steps stay stuck. Recovery is
// logged once at INFO, and a new failure at WARN again.
func TestProviderErrorReachesReasonsAndTheLogOnce(t *testing.T) {
	r := newReasonsHost(t)
	if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "A."}); err != nil {
		t.Fatal(err)
	}
	failing := skilltest.New(nil)
	failing.SetListError(errors.New("skills server unreachable: connection refused"))
	r.reg.AddProvider(tools.GlobalScope, failing, nil)
	step := hostsdk.Step{SessionID: "stuck-1", Cwd: "/work", AgentScope: "agent:a"}
	want := []hostsdk.Reason{
		{Code: contract.ReasonSnapshotIncomplete, Detail: "the host's skill snapshot is incomplete: the catalog the model sees stays as it is until a complete snapshot, tried again at the next step"},
		{Code: contract.ReasonProviderIncomplete, Detail: `provider *skilltest.Provider in scope "global": skills server unreachable: connection refused`},
	}
	for i := range 3 {
		res, err := runStep(context.Background(), r.host, step)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != hostsdk.OutcomeIncomplete {
			t.Fatalf("step %d: outcome %s, want incomplete", i+1, res.Outcome)
		}
		if diff := cmp.Diff(want, res.Reasons); diff != "" {
			t.Fatalf("step %d: reasons (-want +got):\n%s", i+1, diff)
		}
	}
	warns := r.changes("WARN")
	if len(warns) != 1 {
		t.Fatalf("%d WARN lines over three stuck steps, want 1; log:\n%s", len(warns), r.log.String())
	}
	for _, part := range []string{"session=stuck-1", "agent=agent:a", "outcome=incomplete", `skills server unreachable: connection refused`, "provider-incomplete: provider *skilltest.Provider"} {
		if !strings.Contains(warns[0], part) {
			t.Errorf("the WARN line lacks %q: %s", part, warns[0])
		}
	}

	failing.SetListError(nil)
	for range 2 {
		if _, err := runStep(context.Background(), r.host, step); err != nil {
			t.Fatal(err)
		}
	}
	if infos := r.changes("INFO"); len(infos) != 1 || !strings.Contains(infos[0], "outcome=initial") || !strings.Contains(infos[0], "published-initial: ") {
		t.Errorf("after recovery: INFO lines %q, want one for the initial catalog", infos)
	}
	failing.SetListError(errors.New("skills server unreachable: timeout"))
	if _, err := runStep(context.Background(), r.host, step); err != nil {
		t.Fatal(err)
	}
	if warns := r.changes("WARN"); len(warns) != 2 || !strings.Contains(warns[1], "timeout") {
		t.Errorf("after a new failure: WARN lines %q, want a second one naming it", warns)
	}
	// Forgetting the session forgets its reasons: its next step logs again.
	if err := r.host.Session("stuck-1", nil).End(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := runStep(context.Background(), r.host, step); err != nil {
		t.Fatal(err)
	}
	if warns := r.changes("WARN"); len(warns) != 3 {
		t.Errorf("after Session.End: %d WARN lines, want 3", len(warns))
	}
}

// TestRelativeCwdIsAHostError: a working directory that is not absolute is
// a *HostError naming it, for the step (failing open, with a reason) and
// for a tool call, instead of an incomplete step with nothing said.
func TestRelativeCwdIsAHostError(t *testing.T) {
	r := newReasonsHost(t)
	root := t.TempDir()
	writeSkillFile(t, root, "alpha", "A.", "Do alpha.")
	disk, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer disk.Close()
	r.reg.AddProvider(tools.GlobalScope, disk, nil)
	input := hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{{Type: "text", Text: "hello"}}}
	step := hostsdk.Step{SessionID: "s1", Cwd: ".", AgentScope: "agent:a", Downstream: hostsdk.Decision{Messages: []hostsdk.Message{input}}}
	for i := range 2 {
		res, err := runStep(context.Background(), r.host, step)
		var hostErr *hostsdk.HostError
		if !errors.As(err, &hostErr) || !errors.Is(err, hostsdk.ErrRelativeCwd) || !strings.Contains(err.Error(), `"."`) {
			t.Fatalf("step %d: error %v, want a *HostError matching ErrRelativeCwd and naming \".\"", i+1, err)
		}
		if res.Outcome != hostsdk.OutcomePluginError || len(res.Decision.Messages) != 1 || res.Decision.Messages[0].ID != "u1" {
			t.Fatalf("step %d: outcome %s, decision %+v; want the downstream decision, failing open", i+1, res.Outcome, res.Decision)
		}
		want := []hostsdk.Reason{{Code: contract.ReasonHostError, Detail: err.Error()}}
		if diff := cmp.Diff(want, res.Reasons); diff != "" {
			t.Errorf("step %d: reasons (-want +got):\n%s", i+1, diff)
		}
	}
	if warns := r.changes("WARN"); len(warns) != 1 {
		t.Errorf("%d WARN lines for two steps with the same relative cwd, want 1:\n%s", len(warns), r.log.String())
	}
	l, err := r.store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// Each failed step appended its proposed message, failing open, and
	// nothing of the plugin's.
	page, err := l.ReadBackward(context.Background(), 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 2 || page.Events[0].Source != nil || page.Events[1].Source != nil {
		t.Errorf("session log %+v: want the two steps' own messages alone", page.Events)
	}
	_, err = r.host.Session("s1", &hostsdk.SessionOptions{Cwd: "skills/..", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: []byte(`{"name":"alpha"}`)})
	var hostErr *hostsdk.HostError
	if !errors.As(err, &hostErr) || !errors.Is(err, hostsdk.ErrRelativeCwd) || !strings.Contains(err.Error(), `"skills/.."`) {
		t.Errorf("tool call: %v, want a *HostError matching ErrRelativeCwd and naming the cwd", err)
	}
	// The same step from an absolute directory works.
	step.Cwd = t.TempDir()
	if res, err := runStep(context.Background(), r.host, step); err != nil || res.Outcome != hostsdk.OutcomeInitial {
		t.Errorf("absolute cwd: %s, %v; want the initial catalog", res.Outcome, err)
	}
}

// TestEveryOutcomeHasAReason: the host's own outcomes carry reasons too.
func TestEveryOutcomeHasAReason(t *testing.T) {
	bare, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: skilltest.NewRegistry(t), Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	res, err := bare.Session("s", &hostsdk.SessionOptions{Cwd: "/w", AgentScope: tools.GlobalScope}).Step(context.Background(), hostsdk.Decision{}, nil)
	if err != nil || res.Outcome != hostsdk.OutcomeNoPlugin {
		t.Fatalf("%s, %v; want no-plugin", res.Outcome, err)
	}
	want := []hostsdk.Reason{{Code: contract.ReasonNoMount, Detail: `no skill-catalog plugin is mounted in any scope of agent scope "global"`}}
	if diff := cmp.Diff(want, res.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	r := newReasonsHost(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = r.host.Session("s", &hostsdk.SessionOptions{Cwd: "/w", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
	if !errors.Is(err, context.Canceled) || len(res.Reasons) != 1 || res.Reasons[0].Code != contract.ReasonCanceled {
		t.Errorf("canceled step: %v, reasons %+v; want context.Canceled with a canceled reason", err, res.Reasons)
	}
}

// TestReasonCodesAreContracts: the re-exported set is the contract's, in
// the same order.
func TestReasonCodesAreContracts(t *testing.T) {
	if got, want := hostsdk.ReasonCodes(), contract.ReasonCodes(); !slices.Equal(got, want) {
		t.Errorf("hostsdk.ReasonCodes() = %v, want contract's %v", got, want)
	}
}
