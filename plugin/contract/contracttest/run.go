package contracttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Factory returns a fresh service for one subtest; it may register cleanup
// with t.
type Factory func(t *testing.T) contract.Service

// identity is the definition identity the run binds the `skill` tool to.
const identity = "tooldef-skill"

// RunService runs the contract's checks against the services newService
// returns, one fresh service per subtest.
func RunService(t *testing.T, newService Factory) {
	checks := []struct {
		name string
		run  func(t *testing.T, r *run)
	}{
		{"Configure", checkConfigure},
		{"Mounts", checkMounts},
		{"Catalog", checkCatalog},
		{"Visibility", checkVisibility},
		{"Incomplete", checkIncomplete},
		{"Reasons", checkReasons},
		{"SkillTool", checkSkillTool},
		{"OneRoundTrip", checkOneRoundTrip},
		{"StepSnapshot", checkStepSnapshot},
		{"HostFailures", checkHostFailures},
		{"Cancellation", checkCancellation},
		{"Deadline", checkDeadline},
		{"Resources", checkResources},
		{"EndSessionAndPing", checkEndSessionAndPing},
		{"Concurrent", checkConcurrent},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, &run{t: t, svc: newService(t), host: NewHost(), sent: make(map[string]contract.SessionHead)})
		})
	}
}

// run is one subtest's service and fake host.
type run struct {
	t    *testing.T
	svc  contract.Service
	host *Host
	sent map[string]contract.SessionHead // the head each session's last step sent
	// stepSnapshots: the last mount said it takes snapshots ahead of a step.
	stepSnapshots bool
}

// def is a model- and user-invocable skill whose body says its name.
func def(name, desc string) skill.Definition {
	return skill.Definition{
		Summary: skill.Summary{Name: name, Description: desc, Invocation: skill.DefaultPolicy(), Provider: "runtime"},
		Content: "Instructions of " + name + ".",
	}
}

// mount configures and binds a mount with config on the run's host.
func (r *run) mount(config string) string {
	r.t.Helper()
	ctx := context.Background()
	resp, err := r.svc.Configure(ctx, r.host, contract.ConfigureRequest{Config: config, Scope: "global"})
	if err != nil {
		r.t.Fatalf("Configure(%q): %v", config, err)
	}
	if err := r.svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: contract.SkillToolName, DefinitionIdentity: identity}}); err != nil {
		r.t.Fatalf("BindTools: %v", err)
	}
	r.stepSnapshots = resp.AcceptsStepSnapshots
	return resp.MountID
}

// step runs a pre-step of session with the hints a host sends (the
// snapshot's token, the log's head and the events appended since the head
// the session's previous step sent, on the same surface), and appends its
// final messages to the session's log.
func (r *run) step(mountID, session string, proposed ...contract.Message) contract.StepResponse {
	r.t.Helper()
	return r.stepWith(mountID, session, nil, proposed...)
}

// stepWith is step with edit applied to the request before it is sent.
func (r *run) stepWith(mountID, session string, edit func(*contract.StepRequest), proposed ...contract.Message) contract.StepResponse {
	r.t.Helper()
	head := r.host.Head(session)
	var recent *contract.RecentEvents
	if prev, ok := r.sent[session]; ok && prev.SurfaceRevision == head.SurfaceRevision {
		recent = r.host.Since(session, prev.Seq)
	}
	r.sent[session] = head
	req := contract.StepRequest{MountID: mountID, SessionID: session, Cwd: "/work", AgentScope: "agent:a",
		Downstream: contract.Decision{Messages: proposed}, SkillToolIdentity: identity,
		SnapshotToken: r.host.Token(), Head: &head, Recent: recent}
	if edit != nil {
		edit(&req)
	}
	resp, err := r.svc.PreStep(context.Background(), req)
	if err != nil {
		r.t.Fatalf("PreStep of %s: %v", session, err)
	}
	final, err := req.Downstream.Apply(resp.Edits)
	if err != nil {
		r.t.Fatalf("PreStep of %s answered edits the host cannot apply: %v", session, err)
	}
	r.host.Append(session, final.Messages...)
	return resp
}

// published returns the catalog a step's answer publishes, if any.
func published(t *testing.T, resp contract.StepResponse) (events.Catalog, bool) {
	t.Helper()
	var found []events.Catalog
	for _, e := range resp.Edits {
		if e.Op == contract.EditRemove {
			continue
		}
		if c, ok := events.ParseCatalog(e.Message.Source); ok {
			if e.Message.Role != contract.RoleUser || e.Message.Text() == "" || e.Message.ID == "" {
				t.Errorf("catalog message %+v: want a user message with an id and text", e.Message)
			}
			found = append(found, c)
		}
	}
	if len(found) > 1 {
		t.Errorf("one step published %d catalogs", len(found))
	}
	if len(found) == 0 {
		return events.Catalog{}, false
	}
	return found[0], true
}

// expectCatalog checks a step's outcome and the names it publishes (none
// for outcomes that publish nothing).
func expectCatalog(t *testing.T, resp contract.StepResponse, outcome contract.Outcome, names ...string) {
	t.Helper()
	if resp.Outcome != outcome {
		t.Fatalf("outcome %q, want %q", resp.Outcome, outcome)
	}
	c, ok := published(t, resp)
	switch outcome {
	case contract.OutcomeInitial, contract.OutcomeReplacement, contract.OutcomeTombstone:
		if !ok {
			t.Fatalf("%s published no catalog record", outcome)
		}
		var got []string
		for _, e := range c.Entries {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, names) || c.Update != (outcome != contract.OutcomeInitial) {
			t.Fatalf("%s published %v (update %v), want %v", outcome, got, c.Update, names)
		}
	default:
		if ok {
			t.Fatalf("%s published a catalog %+v", outcome, c)
		}
	}
}

func checkConfigure(t *testing.T, r *run) {
	ctx := context.Background()
	first, err := r.svc.Configure(ctx, r.host, contract.ConfigureRequest{Scope: "global"})
	if err != nil {
		t.Fatalf("Configure with defaults: %v", err)
	}
	if first.MountID == "" || len(first.Tools) != 1 || first.Tools[0].Name != contract.SkillToolName ||
		!json.Valid(first.Tools[0].InputSchema) || !json.Valid(first.Tools[0].OutputSchema) || first.Tools[0].Description == "" {
		t.Fatalf("Configure = %+v, want a mount id and the %s tool with its schemas", first, contract.SkillToolName)
	}
	second, err := r.svc.Configure(ctx, r.host, contract.ConfigureRequest{Config: `{"resourceTool": true}`, Scope: "agent:a"})
	if err != nil {
		t.Fatalf("Configure with the resource tool: %v", err)
	}
	var names []string
	for _, tool := range second.Tools {
		names = append(names, tool.Name)
	}
	if second.MountID == first.MountID || !slices.Equal(names, []string{contract.SkillToolName, contract.ResourceToolName}) {
		t.Fatalf("second mount %q with tools %v, want a new id and %v", second.MountID, names, []string{contract.SkillToolName, contract.ResourceToolName})
	}
	if _, err := r.svc.Configure(ctx, nil, contract.ConfigureRequest{}); err == nil {
		t.Errorf("Configure without a host to call back succeeded")
	}
	for _, bad := range []string{`{"catalogDescriptionMaxLength": 2}`, `{"noSuchOption": true}`, `[1]`} {
		_, err := r.svc.Configure(ctx, r.host, contract.ConfigureRequest{Config: bad})
		var cerr *contract.ConfigError
		if !errors.As(err, &cerr) || cerr.Message == "" || errors.Is(err, contract.ErrHostFailed) {
			t.Errorf("Configure(%s) = %v, want a *ConfigError that is not the host's failure", bad, err)
		}
	}
}

func checkMounts(t *testing.T, r *run) {
	ctx := context.Background()
	resp, err := r.svc.Configure(ctx, r.host, contract.ConfigureRequest{Scope: "global"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s", SkillToolIdentity: identity})
	if !errors.Is(err, contract.ErrUnbound) || errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("step of an unbound mount: %v, want ErrUnbound", err)
	}
	m := r.mount("")
	if err := r.svc.Unmount(ctx, m); err != nil {
		t.Fatalf("Unmount: %v", err)
	}
	if err := r.svc.Unmount(ctx, m); err != nil {
		t.Errorf("Unmount of an unknown mount: %v, want nil", err)
	}
	for name, call := range map[string]func(string) error{
		"BindTools": func(id string) error { return r.svc.BindTools(ctx, id, nil) },
		"PreStep": func(id string) error {
			_, err := r.svc.PreStep(ctx, contract.StepRequest{MountID: id, SessionID: "s", SkillToolIdentity: identity})
			return err
		},
		"ExecuteSkillTool": func(id string) error {
			_, err := r.svc.ExecuteSkillTool(ctx, contract.ToolCall{MountID: id, SessionID: "s", Arguments: json.RawMessage(`{"name":"alpha"}`)})
			return err
		},
	} {
		for _, id := range []string{m, "mount-that-never-was"} {
			if err := call(id); !errors.Is(err, contract.ErrUnknownMount) || errors.Is(err, contract.ErrHostFailed) {
				t.Errorf("%s of %q: %v, want ErrUnknownMount", name, id, err)
			}
		}
	}
}

func checkCatalog(t *testing.T, r *run) {
	r.host.SetSkill(def("beta", "Second."))
	m := r.mount("")
	reject := contract.Decision{Reject: &contract.Reject{Reason: "no"}}
	resp, err := r.svc.PreStep(context.Background(), contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: identity, Downstream: reject})
	if err != nil || resp.Outcome != contract.OutcomeRejectPassthrough || len(resp.Edits) != 0 {
		t.Fatalf("rejected step = %+v, %v; want it passed through untouched", resp, err)
	}
	expectCatalog(t, r.step(m, "s"), contract.OutcomeInitial, "beta")
	expectCatalog(t, r.step(m, "s"), contract.OutcomeUnchanged)
	r.host.SetSkill(def("alpha", "First."))
	expectCatalog(t, r.step(m, "s"), contract.OutcomeReplacement, "alpha", "beta")
	r.host.SetSkill(skill.Definition{Summary: skill.Summary{Name: "gamma", Description: "User only.", Invocation: skill.InvocationPolicy{UserInvocable: true}}})
	expectCatalog(t, r.step(m, "s"), contract.OutcomeUnchanged)
	head := r.host.Head("s")
	r.host.Compact("s", 1, head.Seq)
	expectCatalog(t, r.step(m, "s"), contract.OutcomeReplacement, "alpha", "beta")
	for _, name := range []string{"alpha", "beta", "gamma"} {
		r.host.RemoveSkill(name)
	}
	expectCatalog(t, r.step(m, "s"), contract.OutcomeTombstone)
	expectCatalog(t, r.step(m, "s"), contract.OutcomeUnchanged)
	// Another session starts from its own log.
	expectCatalog(t, r.step(m, "other"), contract.OutcomeUnchanged)
}

func checkVisibility(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	expectCatalog(t, r.step(m, "s"), contract.OutcomeInitial, "alpha")
	snapshots := r.host.Calls(CallSnapshot)
	head := r.host.Head("s")
	resp, err := r.svc.PreStep(context.Background(), contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: "a-shadowing-tool", Head: &head})
	if err != nil {
		t.Fatal(err)
	}
	expectCatalog(t, resp, contract.OutcomeTombstone)
	if got := r.host.Calls(CallSnapshot); got != snapshots {
		t.Errorf("a step whose skill tool is not the mount's asked for %d snapshots, want none", got-snapshots)
	}
}

func checkIncomplete(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	r.host.SetComplete(false)
	m := r.mount("")
	expectCatalog(t, r.step(m, "s"), contract.OutcomeIncomplete)
	r.host.SetComplete(true)
	expectCatalog(t, r.step(m, "s"), contract.OutcomeInitial, "alpha")
	r.host.RemoveSkill("alpha")
	r.host.SetComplete(false)
	expectCatalog(t, r.step(m, "s"), contract.OutcomeIncomplete)
}

// expectReasons checks that a step's answer gives reasons: at least one,
// every code known and every detail said, and among them one of want, the
// codes that explain its outcome.
func expectReasons(t *testing.T, step string, resp contract.StepResponse, want ...contract.ReasonCode) {
	t.Helper()
	if len(resp.Reasons) == 0 {
		t.Errorf("%s: outcome %s with no reasons", step, resp.Outcome)
		return
	}
	explained := false
	for _, r := range resp.Reasons {
		if !r.Code.Known() || r.Detail == "" {
			t.Errorf("%s: reason %+v: want a documented code and a detail", step, r)
		}
		explained = explained || slices.Contains(want, r.Code)
	}
	if !explained {
		t.Errorf("%s: outcome %s with reasons %+v, none of them %v", step, resp.Outcome, resp.Reasons, want)
	}
}

// checkReasons: every outcome comes with the reason that explains it.
func checkReasons(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	reject := contract.Decision{Reject: &contract.Reject{Reason: "no"}}
	resp, err := r.svc.PreStep(context.Background(), contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: identity, Downstream: reject})
	if err != nil {
		t.Fatal(err)
	}
	expectReasons(t, "rejected step", resp, contract.ReasonRejectPassthrough)
	r.host.SetComplete(false)
	expectReasons(t, "incomplete snapshot", r.step(m, "s"), contract.ReasonSnapshotIncomplete)
	r.host.SetComplete(true)
	expectReasons(t, "first catalog", r.step(m, "s"), contract.ReasonPublishedInitial)
	expectReasons(t, "steady step", r.step(m, "s"), contract.ReasonCurrent)
	r.host.SetSkill(def("beta", "Second."))
	expectReasons(t, "a skill added", r.step(m, "s"), contract.ReasonPublishedReplacement)
	r.host.Compact("s", 1, r.host.Head("s").Seq)
	expectReasons(t, "catalog compacted away", r.step(m, "s"), contract.ReasonPublishedReplacement)
	r.host.RemoveSkill("alpha")
	r.host.RemoveSkill("beta")
	expectReasons(t, "every skill removed", r.step(m, "s"), contract.ReasonPublishedTombstone)
	expectReasons(t, "nothing to list, never published", r.step(m, "other"), contract.ReasonEmpty)
	for _, tc := range []struct {
		identity string
		want     contract.ReasonCode
	}{{"", contract.ReasonToolRestricted}, {"a-shadowing-tool", contract.ReasonToolShadowed}} {
		head := r.host.Head("s")
		resp, err := r.svc.PreStep(context.Background(), contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: tc.identity, Head: &head})
		if err != nil {
			t.Fatal(err)
		}
		expectReasons(t, "skill tool resolving to "+strconv.Quote(tc.identity), resp, tc.want)
	}
}

// call runs one tool call of the mount.
func (r *run) call(mountID, tool, args string) contract.ToolResult {
	r.t.Helper()
	res, err := r.svc.ExecuteSkillTool(context.Background(), contract.ToolCall{MountID: mountID, ToolName: tool, SessionID: "s", Cwd: "/work",
		AgentScope: "agent:a", CallID: "call-1", Arguments: json.RawMessage(args), SkillToolIdentity: identity})
	if err != nil {
		r.t.Fatalf("ExecuteSkillTool(%s %s): %v", tool, args, err)
	}
	if res.IsError && (res.Value != nil || res.Resource != nil || !strings.HasPrefix(res.Text, "Error: ")) {
		r.t.Errorf("error result %+v: want an error text and no value", res)
	}
	return res
}

func checkSkillTool(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	r.host.SetSkill(skill.Definition{Summary: skill.Summary{Name: "manual", Description: "User only.", Invocation: skill.InvocationPolicy{UserInvocable: true}}, Content: "Secret."})
	m := r.mount("")
	for _, tool := range []string{"", contract.SkillToolName} {
		res := r.call(m, tool, `{"name":"alpha"}`)
		if res.IsError || res.Value == nil || res.Value.Name != "alpha" || res.Value.Content != "Instructions of alpha." || !strings.Contains(res.Text, "Instructions of alpha.") {
			t.Errorf("loading alpha with tool %q = %+v, want its value and rendering", tool, res)
		}
	}
	for _, args := range []string{`{"name":"missing"}`, `{"name":"manual"}`, `{"name":"Bad Name"}`, `{"name":"alpha","extra":1}`, `not json`} {
		if res := r.call(m, "", args); !res.IsError || strings.Contains(res.Text, "Secret.") {
			t.Errorf("skill %s = %+v, want an error result", args, res)
		}
	}
	if res := r.call(m, "no_such_tool", `{}`); !res.IsError {
		t.Errorf("a tool the mount did not register = %+v, want an error result", res)
	}
}

// checkOneRoundTrip: a step whose hints say nothing changed, or whose
// session only grew by events it carries, makes no callback.
func checkOneRoundTrip(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	expectCatalog(t, r.step(m, "s"), contract.OutcomeInitial, "alpha")
	before := r.host.TotalCalls()
	expectCatalog(t, r.step(m, "s"), contract.OutcomeUnchanged)
	if n := r.host.TotalCalls() - before; n != 0 {
		t.Errorf("a step where nothing happened made %d callbacks, want none", n)
	}
	for i := range 3 {
		r.host.Append("s", contract.Message{ID: fmt.Sprint("reply-", i)}, contract.Message{ID: fmt.Sprint("tool-", i), Source: []byte(`{"kind":"tool-result"}`)})
		before = r.host.TotalCalls()
		expectCatalog(t, r.step(m, "s"), contract.OutcomeUnchanged)
		if n := r.host.TotalCalls() - before; n != 0 {
			t.Errorf("loop step %d, carrying the events since the last one, made %d callbacks, want none", i, n)
		}
	}
}

// checkStepSnapshot: a service that takes snapshots ahead of a step
// publishes from a delta against the snapshot it holds, and keeps its
// catalog on an incomplete one, without a Snapshot callback; a delta
// against a snapshot it does not hold makes it call back.
func checkStepSnapshot(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	r.host.SetSkill(def("beta", "Second."))
	m := r.mount("")
	if !r.stepSnapshots {
		return // an optional promise this service does not make
	}
	expectCatalog(t, r.step(m, "s"), contract.OutcomeInitial, "alpha", "beta")
	ahead := func(base string) func(*contract.StepRequest) {
		return func(req *contract.StepRequest) {
			req.Snapshot = r.host.Ahead(base)
			if req.Snapshot == nil || req.Snapshot.DeltaBase != base {
				t.Fatalf("the fake host made no delta against %q", base)
			}
		}
	}
	before := r.host.Calls(CallSnapshot)
	held := r.host.Token()
	r.host.SetSkill(def("alpha", "Changed."))
	resp := r.stepWith(m, "s", ahead(held))
	expectCatalog(t, resp, contract.OutcomeReplacement, "alpha", "beta")
	if c, _ := published(t, resp); c.Entries[0].Description != "Changed." {
		t.Errorf("the replacement lists alpha as %q, want the delta's %q", c.Entries[0].Description, "Changed.")
	}
	if n := r.host.Calls(CallSnapshot) - before; n != 0 {
		t.Errorf("a step carrying a delta against the snapshot the service holds made %d Snapshot callbacks, want none", n)
	}

	r.host.SetComplete(false)
	before = r.host.Calls(CallSnapshot)
	expectCatalog(t, r.stepWith(m, "s", func(req *contract.StepRequest) { req.Snapshot = &contract.Snapshot{} }), contract.OutcomeIncomplete)
	if n := r.host.Calls(CallSnapshot) - before; n != 0 {
		t.Errorf("a step carrying an incomplete snapshot made %d Snapshot callbacks, want none", n)
	}

	r.host.SetComplete(true)
	r.host.SetSkill(def("gamma", "Third."))
	before = r.host.Calls(CallSnapshot)
	// The service holds the snapshot that replaced held, not held itself.
	resp = r.stepWith(m, "s", ahead(held))
	expectCatalog(t, resp, contract.OutcomeReplacement, "alpha", "beta", "gamma")
	if n := r.host.Calls(CallSnapshot) - before; n != 1 {
		t.Errorf("a step carrying a delta against a snapshot the service does not hold made %d Snapshot callbacks, want 1", n)
	}
}

func checkHostFailures(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount(`{"userInvocation": true}`)
	cause := errors.New("session storage is down")
	ctx := context.Background()
	for _, c := range []Callback{CallSnapshot, CallReadEvents} {
		r.host.Fail(c, cause)
		_, err := r.svc.PreStep(ctx, contract.StepRequest{MountID: m, SessionID: "s-" + string(c), SkillToolIdentity: identity})
		if !errors.Is(err, contract.ErrHostFailed) || !strings.Contains(fmt.Sprint(err), cause.Error()) {
			t.Errorf("step with a failing %s: %v, want an error matching ErrHostFailed that names the cause", c, err)
		}
		r.host.Fail(c, nil)
	}
	r.host.Fail(CallGetSkill, cause)
	_, err := r.svc.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m, SessionID: "s", Arguments: json.RawMessage(`{"name":"alpha"}`), SkillToolIdentity: identity})
	if !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("tool call with a failing GetSkill: %v, want ErrHostFailed", err)
	}
	invoke := contract.Message{ID: "u1", Role: contract.RoleUser, UserInput: true, Content: []contract.ContentBlock{{Type: "text", Text: "/alpha please"}}}
	_, err = r.svc.PreStep(ctx, contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: identity, Downstream: contract.Decision{Messages: []contract.Message{invoke}}})
	if !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("step invoking a skill whose load fails: %v, want ErrHostFailed", err)
	}
	r.host.Fail(CallGetSkill, nil)
	if _, err := r.svc.PreStep(ctx, contract.StepRequest{MountID: m, SessionID: "s2", SkillToolIdentity: identity}); err != nil {
		t.Errorf("a step after the host healed: %v", err)
	}
}

func checkCancellation(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	started := r.host.Hang(CallSnapshot)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := r.svc.PreStep(ctx, contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: identity})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("step cancelled during a callback: %v, want context.Canceled", err)
	}
}

// maxDeadline bounds the step deadline of the Deadline check: long enough
// to reach the host's callback over a connection. The check starts far
// shorter and doubles the deadline only while a step's deadline passes
// before the step reaches the callback, so a fast service is checked fast.
const maxDeadline = 320 * time.Millisecond

func checkDeadline(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	for deadline := 10 * time.Millisecond; ; deadline *= 2 {
		reached := r.host.Hang(CallSnapshot)
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		_, err := r.svc.PreStep(ctx, contract.StepRequest{MountID: m, SessionID: "s", SkillToolIdentity: identity})
		cancel()
		select {
		case <-reached:
			if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, contract.ErrHostFailed) {
				t.Errorf("step whose deadline passed during a callback: %v, want DeadlineExceeded and ErrHostFailed", err)
			}
			return
		default:
		}
		if deadline >= maxDeadline {
			t.Fatalf("no step reached the snapshot callback within a deadline of %v: %v", deadline, err)
		}
	}
}

func checkResources(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	r.host.SetResource("alpha", "scripts/run.py", []byte("print('alpha')\n"))
	m := r.mount(`{"resourceTool": true}`)
	res := r.call(m, contract.ResourceToolName, `{"name":"alpha","path":"scripts/run.py"}`)
	if res.IsError || res.Resource == nil || res.Resource.Content != "print('alpha')\n" || res.Resource.TotalBytes != 15 || res.Resource.NextOffset != nil {
		t.Errorf("reading a resource = %+v, want the whole file in one page", res)
	}
	for _, args := range []string{`{"name":"alpha","path":"scripts/missing.py"}`, `{"name":"alpha","path":"../etc/passwd"}`, `{"name":"missing","path":"a.txt"}`} {
		if res := r.call(m, contract.ResourceToolName, args); !res.IsError {
			t.Errorf("reading %s = %+v, want an error result", args, res)
		}
	}
	plain := r.mount("")
	if res := r.call(plain, contract.ResourceToolName, `{"name":"alpha","path":"scripts/run.py"}`); !res.IsError {
		t.Errorf("the resource tool of a mount without it = %+v, want an error result", res)
	}
}

func checkEndSessionAndPing(t *testing.T, r *run) {
	ctx := context.Background()
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	expectCatalog(t, r.step(m, "s"), contract.OutcomeInitial, "alpha")
	if err := r.svc.EndSession(ctx, "s"); err != nil {
		t.Fatalf("EndSession: %v", err)
	}
	if err := r.svc.EndSession(ctx, "never-seen"); err != nil {
		t.Errorf("EndSession of an unknown session: %v", err)
	}
	// The log still holds the catalog: a resumed session publishes nothing.
	expectCatalog(t, r.step(m, "s"), contract.OutcomeUnchanged)
	if err := r.svc.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

func checkConcurrent(t *testing.T, r *run) {
	r.host.SetSkill(def("alpha", "First."))
	m := r.mount("")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := fmt.Sprint("s", g)
			for i := range 5 {
				resp, err := r.svc.PreStep(context.Background(), contract.StepRequest{MountID: m, SessionID: session, SkillToolIdentity: identity, Head: &contract.SessionHead{}})
				want := contract.OutcomeInitial
				if err != nil || resp.Outcome != want {
					t.Errorf("session %s, step %d: %v, %v; want %s (nothing is appended)", session, i, resp.Outcome, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
