package hostcheck_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
	"github.com/skillcatalog/skillcatalog/skill"
)

// driver plays a host through a few sessions against the engine wrapped by
// a Checker: a good one by default; breakStep lets a test send wrong hints.
type driver struct {
	fake      *contracttest.Host
	host      contract.Host // what the service calls back: fake, or a broken wrapper of it
	bindings  []contract.ToolBinding
	breakStep func(step int, req *contract.StepRequest)
	// store, if set, changes the messages of a step before the host
	// appends them to its log.
	store func(msgs []contract.Message) []contract.Message
}

func newDriver() *driver {
	fake := contracttest.NewHost()
	for _, name := range []string{"alpha", "beta"} {
		fake.SetSkill(skill.Definition{Summary: skill.Summary{Name: name, Description: "Does " + name + ".", Invocation: skill.DefaultPolicy(), Provider: "runtime"}, Content: "Do " + name + "."})
	}
	fake.SetSkill(skill.Definition{Summary: skill.Summary{Name: "hidden", Description: "User only.", Invocation: skill.InvocationPolicy{UserInvocable: true}, Provider: "runtime"}, Content: "Secret."})
	fake.SetResource("alpha", "notes.md", []byte("notes"))
	return &driver{fake: fake, host: fake, bindings: []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "tooldef-1"}}}
}

// run drives two sessions and returns the checker's report.
func (d *driver) run(t *testing.T) hostcheck.Report {
	t.Helper()
	ctx := context.Background()
	checker := hostcheck.New(nil)
	svc := checker.Service(plugin.New(nil))
	resp, err := svc.Configure(ctx, d.host, contract.ConfigureRequest{Config: `{"resourceTool": true}`, Scope: "global"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.BindTools(ctx, resp.MountID, d.bindings); err != nil {
		t.Fatal(err)
	}
	step := 0
	prev := map[string]uint64{}
	answered := map[string]string{} // the token each session's last step was at
	run := func(session, scope string, msgs ...contract.Message) {
		step++
		head := d.fake.Head(session)
		req := contract.StepRequest{MountID: resp.MountID, SessionID: session, Cwd: "/work", AgentScope: scope, Step: uint32(step),
			SkillToolIdentity: d.bindings[0].DefinitionIdentity, SnapshotToken: d.fake.Token(), Head: &head,
			Downstream: contract.Decision{Messages: msgs}}
		if p, ok := prev[session]; ok {
			req.Recent = d.fake.Since(session, p)
		}
		if base := answered[session]; base != "" && base != req.SnapshotToken {
			req.Snapshot = d.fake.Ahead(base) // the skills changed since the session's last step
		}
		answered[session] = req.SnapshotToken
		if d.breakStep != nil {
			d.breakStep(step, &req)
		}
		out, err := svc.PreStep(ctx, req)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		final, err := req.Downstream.Apply(out.Edits)
		if err != nil {
			t.Fatal(err)
		}
		if d.store != nil {
			final.Messages = d.store(final.Messages)
		}
		d.fake.Append(session, final.Messages...)
		prev[session] = head.Seq // recent events run from the head sent at the previous step
	}
	run("s1", "agent:a", text("u1", contract.RoleUser, "hello"))
	run("s1", "agent:a", text("a1", contract.RoleAssistant, "skill alpha"), text("r1", contract.RoleTool, "Do alpha."))
	d.fake.SetSkill(skill.Definition{Summary: skill.Summary{Name: "gamma", Description: "Does gamma.", Invocation: skill.DefaultPolicy(), Provider: "runtime"}, Content: "Do gamma."})
	run("s1", "agent:a", text("a2", contract.RoleAssistant, "thinking"))
	run("s2", "agent:b", text("u2", contract.RoleUser, "hi"))
	d.fake.RemoveSkill("gamma")
	run("s2", "agent:b", text("a3", contract.RoleAssistant, "ok"))
	run("s1", "agent:a")
	return checker.Report()
}

func text(id string, role contract.Role, s string) contract.Message {
	return contract.Message{ID: id, Role: role, Content: []contract.ContentBlock{{Type: "text", Text: s}}}
}

func TestAGoodHostPassesEveryCheck(t *testing.T) {
	r := newDriver().run(t)
	if r.Failed() {
		t.Fatalf("violations: %+v", r.Violations)
	}
	if r.Steps != 6 {
		t.Errorf("steps = %d, want 6", r.Steps)
	}
	for _, c := range r.Checks {
		if c.Passed == 0 {
			t.Errorf("check %s was never exercised", c.Name)
		}
	}
}

// Broken hosts: each breaks one promise, and the check that holds it
// fails.

type unstableToken struct {
	*contracttest.Host
	n int
}

func (h *unstableToken) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	s, err := h.Host.Snapshot(ctx, req)
	if s.Token != "" && !s.NotModified {
		h.n++
		s.Token += strings.Repeat("x", h.n)
	}
	return s, err
}

type scopedToken struct{ *contracttest.Host }

func (h scopedToken) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	if req.IfNoneMatch != "" {
		req.IfNoneMatch, _, _ = strings.Cut(req.IfNoneMatch, "@")
	}
	s, err := h.Host.Snapshot(ctx, req)
	if s.Token != "" {
		s.Token += "@" + req.AgentScope
	}
	if s.DeltaBase != "" {
		s.DeltaBase += "@" + req.AgentScope
	}
	return s, err
}

type unsorted struct{ *contracttest.Host }

func (h unsorted) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	s, err := h.Host.Snapshot(ctx, req)
	for i, j := 0, len(s.Skills)-1; i < j; i, j = i+1, j-1 {
		s.Skills[i], s.Skills[j] = s.Skills[j], s.Skills[i]
	}
	return s, err
}

type alwaysFull struct{ *contracttest.Host }

func (h alwaysFull) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	req.IfNoneMatch, req.AcceptDelta = "", false
	return h.Host.Snapshot(ctx, req)
}

type tokenless struct{ *contracttest.Host }

func (h tokenless) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	s, err := h.Host.Snapshot(ctx, req)
	s.Token = ""
	return s, err
}

type badDelta struct{ *contracttest.Host }

func (h badDelta) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	s, err := h.Host.Snapshot(ctx, req)
	if s.DeltaBase != "" {
		// Claim "nothing changed but one removal" whatever changed.
		return contract.Snapshot{Token: s.Token, Complete: true, DeltaBase: s.DeltaBase, Removed: []string{"alpha"}}, err
	}
	return s, err
}

type ignoresMax struct{ *contracttest.Host }

func (h ignoresMax) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	req.MaxEvents = 0
	return h.Host.ReadEvents(ctx, req)
}

type neverMore struct{ *contracttest.Host }

func (h neverMore) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	p, err := h.Host.ReadEvents(ctx, req)
	p.More = false
	return p, err
}

type unknownIsError struct{ *contracttest.Host }

func (h unknownIsError) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	l, err := h.Host.GetSkill(ctx, req)
	if !l.Found {
		return contract.SkillLookup{Error: "no such skill"}, err
	}
	return l, err
}

type otherSummary struct{ *contracttest.Host }

func (h otherSummary) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	l, err := h.Host.GetSkill(ctx, req)
	l.Skill.Description += " (changed)"
	return l, err
}

type leaksBody struct{ *contracttest.Host }

func (h leaksBody) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	l, err := h.Host.GetSkill(ctx, req)
	if l.Found && l.Skill.Content == "" {
		l.Skill.Content = "the withheld body"
	}
	return l, err
}

type readsAnything struct{ *contracttest.Host }

func (h readsAnything) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	return contract.ResourceRead{Status: contract.ResourceOK, Data: []byte("anything"), Total: 8}, nil
}

func TestBrokenHostsAreCaught(t *testing.T) {
	tests := []struct {
		name  string
		check string
		setup func(d *driver)
	}{
		{"a token that changes on every call", hostcheck.CheckSnapshotStable, func(d *driver) { d.host = &unstableToken{Host: d.fake} }},
		{"a token per scope, not per content", hostcheck.CheckSnapshotContent, func(d *driver) { d.host = scopedToken{d.fake} }},
		{"skills not sorted", hostcheck.CheckSnapshotSorted, func(d *driver) { d.host = unsorted{d.fake} }},
		{"if_none_match ignored", hostcheck.CheckSnapshotNotModified, func(d *driver) { d.host = alwaysFull{d.fake} }},
		{"a complete snapshot without a token", hostcheck.CheckSnapshotToken, func(d *driver) { d.host = tokenless{d.fake} }},
		{"a delta that leads elsewhere", hostcheck.CheckSnapshotDelta, func(d *driver) { d.host = badDelta{d.fake} }},
		{"pages larger than asked", hostcheck.CheckEventsPages, func(d *driver) { d.host = ignoresMax{d.fake} }},
		{"`more` never set", hostcheck.CheckEventsPages, func(d *driver) { d.host = neverMore{d.fake} }},
		{"an unknown skill answered as an error", hostcheck.CheckGetSkillUnknown, func(d *driver) { d.host = unknownIsError{d.fake} }},
		{"a loaded summary unlike the listed one", hostcheck.CheckGetSkill, func(d *driver) { d.host = otherSummary{d.fake} }},
		{"a withheld body sent", hostcheck.CheckGetSkillWithheld, func(d *driver) { d.host = leaksBody{d.fake} }},
		{"a path outside the skill read", hostcheck.CheckResourceRefusal, func(d *driver) { d.host = readsAnything{d.fake} }},
		{"a stale snapshot_token hint", hostcheck.CheckSnapshotHint, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if step == 3 {
					req.SnapshotToken = "stale"
				}
			}
		}},
		{"a step's snapshot that leads elsewhere", hostcheck.CheckSnapshotAhead, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if req.Snapshot != nil {
					req.Snapshot.Skills = nil
				}
			}
		}},
		{"a head hint that is not the head", hostcheck.CheckEventsHead, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if step == 2 {
					req.Head = &contract.SessionHead{Seq: req.Head.Seq + 1, SurfaceRevision: req.Head.SurfaceRevision}
				}
			}
		}},
		{"recent events missing one", hostcheck.CheckEventsRecent, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if req.Recent != nil && len(req.Recent.Events) > 1 {
					req.Recent.Events = req.Recent.Events[1:]
				}
			}
		}},
		{"recent events after a seq that was not the previous head", hostcheck.CheckEventsRecent, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if req.Recent != nil && req.Recent.AfterSeq > 0 {
					*req.Recent = *d.fake.Since(req.SessionID, req.Recent.AfterSeq-1)
				}
			}
		}},
		{"a source sent by a digest that is not its own", hostcheck.CheckEventsRecent, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if req.Recent != nil && len(req.Recent.Events) > 0 {
					req.Recent.Events[0].SourceDigest = contract.SourceDigestOf([]byte("something else"))
					req.Recent.Events[0].Source = nil
				}
			}
		}},
		{"the plugin's sources dropped from the log", hostcheck.CheckEventsSources, func(d *driver) {
			d.store = func(msgs []contract.Message) []contract.Message {
				for i := range msgs {
					msgs[i].Source = nil
				}
				return msgs
			}
		}},
		{"the plugin's sources stored re-encoded", hostcheck.CheckEventsSources, func(d *driver) {
			d.store = func(msgs []contract.Message) []contract.Message {
				for i := range msgs {
					if len(msgs[i].Source) > 0 {
						msgs[i].Source = append(slices.Clone(msgs[i].Source), ' ')
					}
				}
				return msgs
			}
		}},
		{"the skill identity changed without a bind", hostcheck.CheckToolIdentityStable, func(d *driver) {
			d.breakStep = func(step int, req *contract.StepRequest) {
				if step == 2 {
					req.SkillToolIdentity = "tooldef-other"
				}
			}
		}},
		{"an empty tool identity", hostcheck.CheckToolIdentity, func(d *driver) {
			d.bindings = append(d.bindings, contract.ToolBinding{ToolName: "skill_resource", DefinitionIdentity: ""})
		}},
		{"one identity for two tools", hostcheck.CheckToolIdentity, func(d *driver) {
			d.bindings = append(d.bindings, contract.ToolBinding{ToolName: "skill_resource", DefinitionIdentity: "tooldef-1"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver()
			tt.setup(d)
			r := d.run(t)
			var failed []string
			for _, c := range r.Checks {
				if c.Failed > 0 {
					failed = append(failed, c.Name)
				}
			}
			found := false
			for _, v := range r.Violations {
				if v.Check == tt.check {
					found = true
					t.Logf("caught: %s", v.Detail)
					break
				}
			}
			if !found {
				t.Errorf("check %s did not fail; failed: %v", tt.check, failed)
			}
		})
	}
}

func TestReportCountsFailures(t *testing.T) {
	r := hostcheck.Report{Checks: []hostcheck.CheckResult{{Name: "a", Passed: 3}}}
	if r.Failed() {
		t.Error("a report without failures failed")
	}
	r.Checks = append(r.Checks, hostcheck.CheckResult{Name: "b", Failed: 1})
	if !r.Failed() {
		t.Error("a report with a failure did not fail")
	}
}

// TestSourcesByDigestPass: a host that sends the plugin's own sources by
// their digests, as a plugin that accepts them allows, passes.
func TestSourcesByDigestPass(t *testing.T) {
	d := newDriver()
	d.breakStep = func(step int, req *contract.StepRequest) {
		if req.Recent == nil {
			return
		}
		for i, ev := range req.Recent.Events {
			if len(ev.Source) > 0 {
				req.Recent.Events[i].SourceDigest = contract.SourceDigestOf(ev.Source)
				req.Recent.Events[i].Source = nil
			}
		}
	}
	if r := d.run(t); r.Failed() {
		t.Fatalf("violations: %+v", r.Violations)
	}
}

// TestMergeAddsUpPlugins: a host that started the plugin twice is judged
// on both: the steps and counts add up, and a violation in either fails.
func TestMergeAddsUpPlugins(t *testing.T) {
	good := newDriver().run(t)
	broken := newDriver()
	broken.host = unsorted{broken.fake}
	bad := broken.run(t)
	m := hostcheck.Merge(good, bad)
	if m.Steps != good.Steps+bad.Steps {
		t.Errorf("steps %d, want %d + %d", m.Steps, good.Steps, bad.Steps)
	}
	if !m.Failed() || len(m.Violations) != len(bad.Violations) {
		t.Errorf("merged report failed %v with %d violations, want the broken plugin's %d", m.Failed(), len(m.Violations), len(bad.Violations))
	}
	for i, c := range m.Checks {
		if c.Name != good.Checks[i].Name || c.Passed != good.Checks[i].Passed+bad.Checks[i].Passed || c.Failed != bad.Checks[i].Failed {
			t.Errorf("check %s: %+v, want the sum of %+v and %+v", c.Name, c, good.Checks[i], bad.Checks[i])
		}
	}
	if empty := hostcheck.Merge(); empty.Steps != 0 || len(empty.Checks) != len(good.Checks) || empty.Failed() {
		t.Errorf("merging nothing gave %+v, want every check, none run", empty)
	}
}

// TestAStepAskedAgainIsNotHeldToItsFirstAnswer: a host whose log moved
// while the plugin decided drops that answer and asks again for the same
// step (same proposed messages; no turn and step numbers, as the Go host
// SDK sends none); only the answer it appended is held to the log.
func TestAStepAskedAgainIsNotHeldToItsFirstAnswer(t *testing.T) {
	ctx := context.Background()
	fake := newDriver().fake
	checker := hostcheck.New(nil)
	svc := checker.Service(plugin.New(nil))
	resp, err := svc.Configure(ctx, fake, contract.ConfigureRequest{Config: "{}", Scope: "global"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "tooldef-1"}}); err != nil {
		t.Fatal(err)
	}
	step := func(n int, msgs ...contract.Message) []contract.Message {
		req := contract.StepRequest{MountID: resp.MountID, SessionID: "s1", Cwd: "/work", AgentScope: "agent:a",
			SkillToolIdentity: "tooldef-1", Downstream: contract.Decision{Messages: msgs}}
		out, err := svc.PreStep(ctx, req)
		if err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
		final, err := req.Downstream.Apply(out.Edits)
		if err != nil {
			t.Fatal(err)
		}
		return final.Messages
	}
	first := step(1, text("u1", contract.RoleUser, "hello"))
	if !slices.ContainsFunc(first, func(m contract.Message) bool { return len(m.Source) > 0 }) {
		t.Fatalf("the first step added no message with a source: %+v", first)
	}
	fake.Append("s1", text("x1", contract.RoleUser, "appended by another writer")) // the log moved: the answer is dropped
	fake.Append("s1", step(1, text("u1", contract.RoleUser, "hello"))...)
	fake.Append("s1", step(2, text("a1", contract.RoleAssistant, "hi"))...)
	r := checker.Report()
	if r.Failed() {
		t.Fatalf("violations: %+v", r.Violations)
	}
	for _, c := range r.Checks {
		if c.Name == hostcheck.CheckEventsSources && c.Passed != 1 {
			t.Errorf("events-sources held %d times, want once (step 2 holding step 1's second answer)", c.Passed)
		}
	}
}
