package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/internal/golden"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// reattachHost is a memHost with model-invocable skills alpha, beta and
// gamma, whose instructions are bodies[name].
func reattachHost(bodies map[string]string) *memHost {
	h := newMemHost()
	for _, name := range []string{"alpha", "beta", "gamma"} {
		if body, ok := bodies[name]; ok {
			d := definition(name, skill.DefaultPolicy(), body)
			h.skills = append(h.skills, d.Summary)
			h.defs[name] = d
		}
	}
	return h
}

// load runs a `skill` tool call for name and records its result in the
// log with the source the plugin returned, as a host does.
func load(t *testing.T, e *engine, h *memHost, m mount, name string) {
	t.Helper()
	res, err := e.executeSkillTool(context.Background(), h, m, contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", Arguments: []byte(`{"name":"` + name + `"}`)})
	if err != nil || res.IsError {
		t.Fatalf("load %s: %q, %v", name, res.Text, err)
	}
	kind, skills, ok := events.ParseLoads(res.Source)
	if !ok || kind != events.LoadKind || skills[0].Name != name || skills[0].Digest != events.ContentDigest(h.defs[name].Content) {
		t.Fatalf("load %s: source %s", name, res.Source)
	}
	h.appendSource(res.Source)
}

// attachedBy returns the message of the step that carries re-attached or
// preloaded skills, and its record.
func attachedBy(t *testing.T, resp contract.StepResponse, kind string) (contract.Message, []events.Loaded) {
	t.Helper()
	for _, ed := range resp.Edits {
		if k, skills, ok := events.ParseLoads(ed.Message.Source); ok && k == kind {
			if ed.Op != contract.EditAppend || ed.Message.Role != contract.RoleUser {
				t.Errorf("%s message: op %v, role %q", kind, ed.Op, ed.Message.Role)
			}
			return ed.Message, skills
		}
	}
	return contract.Message{}, nil
}

// TestReattachAfterCompaction: the skills whose load a compaction hid are
// attached again at the next step, once, most recently used first, a
// changed one said so and a removed one said gone; a step at the same
// surface, or another plugin reading the same log, attaches nothing more.
func TestReattachAfterCompaction(t *testing.T) {
	h := reattachHost(map[string]string{"alpha": "Do alpha.", "beta": "Do beta.", "gamma": "Do gamma."})
	e, m := newEngine(), testMount()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, m, req))
	load(t, e, h, m, "alpha")
	load(t, e, h, m, "gamma")
	load(t, e, h, m, "beta")
	h.appendSource(nil)
	// Before any compaction, nothing is attached again.
	if resp := mustPreStep(t, e, h, m, step(h, enter())); len(resp.Reattached) != 0 {
		t.Fatalf("attached %v before a compaction", resp.Reattached)
	}
	h.defs["beta"] = definition("beta", skill.DefaultPolicy(), "Do beta, version 2.")
	delete(h.defs, "gamma")
	h.hide(1, uint64(len(h.events)))

	req = step(h, enter(userMsg("u1", "go on")))
	resp := mustPreStep(t, e, h, m, req)
	msg, record := attachedBy(t, resp, events.ReattachKind)
	golden.Check(t, "testdata/reattach_after_compaction.golden", []byte(msg.Text()))
	wantRecord := []events.Loaded{
		{Name: "beta", Digest: events.ContentDigest("Do beta, version 2."), State: events.StateChanged},
		{Name: "gamma", State: events.StateGone},
		{Name: "alpha", Digest: events.ContentDigest("Do alpha.")},
	}
	if diff := cmp.Diff(wantRecord, record); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
	wantAttached := []contract.AttachedSkill{
		{Name: "beta", State: "changed", MessageID: msg.ID, Kept: 19, Total: 19},
		{Name: "gamma", State: "gone", MessageID: msg.ID},
		{Name: "alpha", MessageID: msg.ID, Kept: 9, Total: 9},
	}
	if diff := cmp.Diff(wantAttached, resp.Reattached); diff != "" {
		t.Errorf("Reattached (-want +got):\n%s", diff)
	}
	if c := resp.Reasons[len(resp.Reasons)-1]; c.Code != contract.ReasonReattached || c.Detail != `attached again the skills a compaction hid: "beta" (changed), "gamma" (gone), "alpha"` {
		t.Errorf("last reason %+v", c)
	}
	// The catalog comes first, then the re-attachment.
	if last := resp.Edits[len(resp.Edits)-1]; last.Message.ID != msg.ID {
		t.Errorf("the re-attachment is not the last message: %+v", resp.Edits)
	}
	h.apply(t, req, resp)

	for name, eng := range map[string]*engine{"same plugin": e, "another plugin": newEngine()} {
		if resp := mustPreStep(t, eng, h, m, step(h, enter())); len(resp.Reattached) != 0 {
			t.Errorf("%s: attached again twice: %v", name, resp.Reattached)
		}
	}
	// A second compaction hides the re-attachment: what it carried is
	// attached again, what it said gone is not named again.
	h.hide(1, uint64(len(h.events)))
	resp = mustPreStep(t, e, h, m, step(h, enter()))
	if got := attachedNames(resp.Reattached); got != "beta alpha" {
		t.Errorf("after a second compaction: attached %q, want %q", got, "beta alpha")
	}
}

// TestReattachInvokedSkill: a skill the user invoked by name is known by
// its invocation record's digest, so one that changed since is attached
// again as it is now and said changed; a record of earlier versions,
// which has no digest, has the skill attached as it is now with nothing
// said.
func TestReattachInvokedSkill(t *testing.T) {
	h := reattachHost(map[string]string{"alpha": "Do alpha.", "beta": "Do beta."})
	e, m := newEngine(), invocationMount()
	req := step(h, enter(typed("u1", "/beta please")))
	h.apply(t, req, mustPreStep(t, e, h, m, req))
	h.appendSource(events.EncodeInvocation("alpha", "")) // as an earlier version wrote it
	h.defs["beta"] = definition("beta", skill.DefaultPolicy(), "Do beta, version 2.")
	h.defs["alpha"] = definition("alpha", skill.DefaultPolicy(), "Do alpha, version 2.")
	h.hide(1, uint64(len(h.events)))

	resp := mustPreStep(t, e, h, m, step(h, enter()))
	_, record := attachedBy(t, resp, events.ReattachKind)
	want := []events.Loaded{
		{Name: "alpha", Digest: events.ContentDigest("Do alpha, version 2.")},
		{Name: "beta", Digest: events.ContentDigest("Do beta, version 2."), State: events.StateChanged},
	}
	if diff := cmp.Diff(want, record); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

func attachedNames(a []contract.AttachedSkill) string {
	names := make([]string, len(a))
	for i, s := range a {
		names[i] = s.Name
	}
	return strings.Join(names, " ")
}

// TestReattachBounds: each skill is cut to its bound, all within the
// total, most recent first; a skill with too little room left is left
// out, and the option 0 turns re-attachment off.
func TestReattachBounds(t *testing.T) {
	long := strings.Repeat("a", 1500)
	h := reattachHost(map[string]string{"alpha": long, "beta": strings.Repeat("b", 900), "gamma": long})
	e, m := newEngine(), testMount()
	m.cfg.ReattachSkillMaxLength, m.cfg.ReattachBudget = 1200, 2500
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, m, req))
	load(t, e, h, m, "alpha")
	load(t, e, h, m, "beta")
	load(t, e, h, m, "gamma")
	h.hide(1, uint64(len(h.events)))

	off := m
	off.cfg.ReattachBudget = contract.NoReattach
	if resp := mustPreStep(t, newEngine(), h, off, step(h, enter())); len(resp.Reattached) != 0 {
		t.Errorf("re-attachment off: attached %v", resp.Reattached)
	}
	resp := mustPreStep(t, e, h, m, step(h, enter()))
	want := []contract.AttachedSkill{
		{Name: "gamma", Kept: 1200, Total: 1500},
		{Name: "beta", Kept: 900, Total: 900},
		{Name: "alpha", State: "left-out"}, // 400 left: less than the least cut
	}
	for i := range resp.Reattached {
		resp.Reattached[i].MessageID = ""
	}
	if diff := cmp.Diff(want, resp.Reattached); diff != "" {
		t.Errorf("Reattached (-want +got):\n%s", diff)
	}
	msg, _ := attachedBy(t, resp, events.ReattachKind)
	for _, s := range []string{
		`[The instructions of skill "gamma" were cut here, after 1200 of their 1500 characters; 300 were left out: call the ` + "`skill`" + ` tool with its name to read them whole.]`,
		`Skill "alpha" was not attached again, for lack of room`,
	} {
		if !strings.Contains(msg.Text(), s) {
			t.Errorf("message lacks %q", s)
		}
	}
}

// TestPreload: the skills a host preloads are appended at the session's
// first step, once, whole, a name the agent cannot load left out with a
// reason; after a compaction they are attached again as loaded skills.
func TestPreload(t *testing.T) {
	h := reattachHost(map[string]string{"alpha": "Do alpha.", "beta": "Do beta."})
	e, m := newEngine(), testMount()
	req := step(h, enter())
	req.PreloadSkills = []string{"beta", "nope", "alpha", "beta"}
	resp := mustPreStep(t, e, h, m, req)
	msg, record := attachedBy(t, resp, events.PreloadKind)
	golden.Check(t, "testdata/preload_first_step.golden", []byte(msg.Text()))
	if diff := cmp.Diff([]events.Loaded{{Name: "beta", Digest: events.ContentDigest("Do beta.")}, {Name: "alpha", Digest: events.ContentDigest("Do alpha.")}}, record); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
	want := []contract.AttachedSkill{{Name: "beta", MessageID: msg.ID, Kept: 8, Total: 8}, {Name: "nope", State: "gone"}, {Name: "alpha", MessageID: msg.ID, Kept: 9, Total: 9}}
	if diff := cmp.Diff(want, resp.Preloaded); diff != "" {
		t.Errorf("Preloaded (-want +got):\n%s", diff)
	}
	if r := resp.Reasons[len(resp.Reasons)-1]; r.Code != contract.ReasonPreloaded || !strings.Contains(r.Detail, `"nope" (gone)`) {
		t.Errorf("last reason %+v", r)
	}
	h.apply(t, req, resp)
	for name, eng := range map[string]*engine{"same plugin": e, "another plugin": newEngine()} {
		req := step(h, enter())
		req.PreloadSkills = []string{"alpha"}
		if resp := mustPreStep(t, eng, h, m, req); len(resp.Preloaded) != 0 || len(resp.Edits) != 0 {
			t.Errorf("%s: preloaded again: %+v", name, resp)
		}
	}
	h.hide(1, uint64(len(h.events)))
	resp = mustPreStep(t, e, h, m, step(h, enter()))
	if got := attachedNames(resp.Reattached); got != "beta alpha" {
		t.Errorf("after a compaction: attached %q, want the preloaded %q", got, "beta alpha")
	}
}

// TestReattachCost: re-attachment reads the log once more after a
// compaction, and nothing more at later steps of the same surface.
func TestReattachCost(t *testing.T) {
	h := reattachHost(map[string]string{"alpha": "Do alpha."})
	e, m := newEngine(), testMount()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, m, req))
	h.appendSource(nil)
	h.hide(2, 2)
	reads := h.reads
	mustPreStep(t, e, h, m, step(h, enter()))
	if got := h.reads - reads; got != 2 {
		t.Errorf("compaction cost %d reads, want the catalog's scan and one of the whole log", got)
	}
	reads = h.reads
	mustPreStep(t, e, h, m, step(h, enter()))
	if got := h.reads - reads; got != 0 {
		t.Errorf("the next step read %d times, want none", got)
	}
}

// TestReattachOptions: the bounds' values, and the errors that name the
// option and its bound.
func TestReattachOptions(t *testing.T) {
	for _, tc := range []struct {
		config           string
		budget, perSkill int
		on               bool
		err              string
	}{
		{``, contract.DefaultReattachBudget, contract.DefaultReattachSkillMaxLength, true, ""},
		{`{"reattachBudget": 0}`, 0, 0, false, ""},
		{`{"reattachBudget": 1000, "reattachSkillMaxLength": 1000}`, 1000, 1000, true, ""},
		{`{"reattachBudget": 2e4}`, 20000, contract.DefaultReattachSkillMaxLength, true, ""},
		{`{"reattachBudget": 999}`, 0, 0, false, "reattachBudget must be 0 (attach nothing again) or an integer from 1000 to 2147483647, got 999"},
		{`{"reattachBudget": "1000"}`, 0, 0, false, `reattachBudget must be 0 (attach nothing again) or an integer from 1000 to 2147483647, got "1000"`},
		{`{"reattachSkillMaxLength": 0}`, 0, 0, false, "reattachSkillMaxLength must be an integer from 1000 to 2147483647, got 0"},
		{`{"reattachSkillMaxLength": 1500.5}`, 0, 0, false, "reattachSkillMaxLength must be an integer from 1000 to 2147483647, got 1500.5"},
	} {
		cfg, err := ParseConfig(tc.config)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseConfig(%s) error %v, want %q", tc.config, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseConfig(%s): %v", tc.config, err)
			continue
		}
		perSkill, budget, on := reattachBounds(cfg)
		if on != tc.on || (on && (budget != tc.budget || perSkill != tc.perSkill)) {
			t.Errorf("ParseConfig(%s): bounds %d, %d, %v; want %d, %d, %v", tc.config, budget, perSkill, on, tc.budget, tc.perSkill, tc.on)
		}
		// The typed options travel as their JSON form and back.
		back, err := ParseConfig(cfg.JSON())
		if err != nil || back != cfg {
			t.Errorf("ParseConfig(%s).JSON() = %s reads %+v, %v", tc.config, cfg.JSON(), back, err)
		}
	}
}
