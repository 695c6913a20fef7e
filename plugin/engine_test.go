package plugin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

const identity = "tooldef-1"

// memHost is an in-process Host: a fixed snapshot and an in-memory event
// log, counting the calls the plugin makes.
type memHost struct {
	onSnapshot func()               // runs before a snapshot is answered
	pages      []contract.EventPage // scripted pages, answered in order when set
	skills     []skill.Summary
	defs       map[string]skill.Definition
	getErr     string
	complete   bool
	token      string
	events     []contract.SessionEvent // oldest first; seq = index+1
	surface    uint64
	snapshots  int
	deltas     bool                       // answer conditional requests with deltas when possible
	sent       map[string][]skill.Summary // snapshots answered, by token
	summaries  int                        // summaries sent in total
	reads      int
	gets       int
	readSeqs   int // events returned in total
}

func newMemHost(skills ...skill.Summary) *memHost {
	return &memHost{skills: skills, complete: true, token: "tok-1", defs: map[string]skill.Definition{}}
}

func (h *memHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	h.snapshots++
	if h.onSnapshot != nil {
		h.onSnapshot()
	}
	if err := ctx.Err(); err != nil {
		return contract.Snapshot{}, err
	}
	if !h.complete {
		return contract.Snapshot{Skills: h.skills}, nil
	}
	if req.IfNoneMatch != "" && req.IfNoneMatch == h.token {
		return contract.Snapshot{NotModified: true, Token: h.token, Complete: true}, nil
	}
	if h.deltas {
		base, ok := h.sent[req.IfNoneMatch]
		// Like a host's, the memory of what was sent is bounded: the
		// latest snapshot only.
		h.sent = map[string][]skill.Summary{h.token: slices.Clone(h.skills)}
		if ok && req.AcceptDelta {
			// As a host's, a delta is sent where it is worth sending.
			if upserts, removed, worth := contract.SnapshotDelta(base, h.skills); worth {
				h.summaries += len(upserts)
				return contract.Snapshot{Skills: upserts, Removed: removed, DeltaBase: req.IfNoneMatch, Complete: true, Token: h.token}, nil
			}
		}
	}
	h.summaries += len(h.skills)
	return contract.Snapshot{Skills: h.skills, Complete: true, Token: h.token}, nil
}

func (h *memHost) GetSkill(_ context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	h.gets++
	if h.getErr != "" {
		return contract.SkillLookup{Error: h.getErr}, nil
	}
	d, ok := h.defs[req.Name]
	if !ok {
		return contract.SkillLookup{}, nil
	}
	return contract.SkillLookup{Found: true, Skill: d}, nil
}

func (h *memHost) ReadEvents(_ context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	h.reads++
	if h.pages != nil {
		page := h.pages[0]
		h.pages = h.pages[1:]
		return page, nil
	}
	resp := contract.EventPage{Head: *h.head()}
	top := uint64(len(h.events))
	if b := req.BeforeSeq; b != 0 && b-1 < top {
		top = b - 1
	}
	for seq := top; seq > req.AfterSeq; seq-- {
		if len(resp.Events) == req.MaxEvents {
			resp.More = true
			break
		}
		resp.Events = append(resp.Events, h.events[seq-1])
	}
	h.readSeqs += len(resp.Events)
	return resp, nil
}

func (h *memHost) head() *contract.SessionHead {
	return &contract.SessionHead{Seq: uint64(len(h.events)), SurfaceRevision: h.surface}
}

func (h *memHost) appendSource(src []byte) {
	h.events = append(h.events, contract.SessionEvent{Seq: uint64(len(h.events) + 1), Type: "message", Source: src, Visible: true})
}

// apply records a step's final messages the way a host does.
func (h *memHost) apply(t testing.TB, req contract.StepRequest, resp contract.StepResponse) []contract.Message {
	t.Helper()
	final, err := req.Downstream.Apply(resp.Edits)
	if err != nil {
		t.Fatalf("apply edits: %v", err)
	}
	for _, m := range final.Messages {
		h.appendSource(m.Source)
	}
	return final.Messages
}

func (h *memHost) hide(from, to uint64) {
	for seq := from; seq <= to; seq++ {
		h.events[seq-1].Visible = false
	}
	h.surface++
}

func summary(name, desc string) skill.Summary {
	return skill.Summary{Name: name, Description: desc, Provider: "runtime", Invocation: skill.DefaultPolicy()}
}

func testMount() mount { return mount{cfg: defaultConfig(), skillIdentity: identity} }

// catalogMount is testMount without re-attachment, for the tests that
// count what the catalog rules alone read: re-attachment reads the whole
// log once more after each compaction (see TestReattachCost).
func catalogMount() mount {
	m := testMount()
	m.cfg.ReattachBudget = contract.NoReattach
	return m
}

func enter(msgs ...contract.Message) contract.Decision { return contract.Decision{Messages: msgs} }

func step(h *memHost, downstream contract.Decision) contract.StepRequest {
	return contract.StepRequest{SessionID: "s1", Cwd: "/w", AgentScope: "global", Downstream: downstream, SkillToolIdentity: identity, Head: h.head()}
}

func catalogMsg(id string, update bool, entries ...digest.Entry) contract.Message {
	return contract.Message{ID: id, Role: contract.RoleUser, Source: events.EncodeCatalog(entries, update)}
}

func userMsg(id, text string) contract.Message {
	return contract.Message{ID: id, Role: contract.RoleUser, Content: []contract.ContentBlock{{Type: "text", Text: text}}}
}

func mustPreStep(t *testing.T, e *engine, h *memHost, m mount, req contract.StepRequest) contract.StepResponse {
	t.Helper()
	resp, err := e.preStep(context.Background(), h, m, req)
	if err != nil {
		t.Fatalf("PreStep: %v", err)
	}
	return resp
}

// published returns the catalog records among the final messages.
func published(msgs []contract.Message) []events.Catalog {
	var out []events.Catalog
	for _, m := range msgs {
		if c, ok := events.ParseCatalog(m.Source); ok {
			out = append(out, c)
		}
	}
	return out
}

func TestDecisionRules(t *testing.T) {
	a := summary("alpha", "Does alpha things.")
	b := summary("beta", "Does beta things.")
	entA := digest.Entry{Name: "alpha", Description: "Does alpha things."}
	entB := digest.Entry{Name: "beta", Description: "Does beta things."}
	userOnly := summary("gamma", "User only.")
	userOnly.Invocation.ModelInvocable = false
	modelOnly := summary("delta", "Model only.")
	modelOnly.Invocation.UserInvocable = false

	tests := []struct {
		name       string
		skills     []skill.Summary
		incomplete bool
		history    [][]byte // sources already in the log
		hideAll    bool     // compaction hides every history event
		identity   string   // what `skill` resolves to; "" = restricted away
		downstream contract.Decision
		outcome    contract.Outcome
		wantPub    []events.Catalog // catalogs among the final messages
		wantIDs    []string         // ids of final messages, when checked
		noSnapshot bool
	}{
		{
			name:       "reject passes through untouched",
			skills:     []skill.Summary{a},
			identity:   identity,
			downstream: contract.Decision{Reject: &contract.Reject{Reason: "no"}},
			outcome:    contract.OutcomeRejectPassthrough,
			noSnapshot: true,
		},
		{
			name:     "initial catalog, sorted, model-invocable only",
			skills:   []skill.Summary{b, userOnly, a},
			identity: identity,
			outcome:  contract.OutcomeInitial,
			wantPub:  []events.Catalog{{Entries: []digest.Entry{entA, entB}}},
		},
		{
			name:     "userInvocable false does not hide a skill from the model",
			skills:   []skill.Summary{modelOnly},
			identity: identity,
			outcome:  contract.OutcomeInitial,
			wantPub:  []events.Catalog{{Entries: []digest.Entry{{Name: "delta", Description: "Model only."}}}},
		},
		{
			name:     "empty view and never published: nothing",
			skills:   []skill.Summary{userOnly},
			identity: identity,
			outcome:  contract.OutcomeUnchanged,
		},
		{
			name:       "tool restricted away, never published: nothing, no snapshot",
			skills:     []skill.Summary{a},
			identity:   "",
			outcome:    contract.OutcomeUnchanged,
			noSnapshot: true,
		},
		{
			name:       "tool shadowed after a catalog: tombstone, no snapshot",
			skills:     []skill.Summary{a},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   "tooldef-shadow",
			outcome:    contract.OutcomeTombstone,
			wantPub:    []events.Catalog{{Update: true, Entries: []digest.Entry{}}},
			noSnapshot: true,
		},
		{
			name:       "incomplete snapshot emits nothing and keeps proposals",
			skills:     []skill.Summary{a},
			incomplete: true,
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA, entB}, false)},
			identity:   identity,
			downstream: enter(catalogMsg("stale", false, entB)),
			outcome:    contract.OutcomeIncomplete,
			wantPub:    []events.Catalog{{Entries: []digest.Entry{entB}}},
		},
		{
			name:     "same digest as the newest visible catalog: nothing",
			skills:   []skill.Summary{a},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  contract.OutcomeUnchanged,
		},
		{
			name:       "same digest: a proposed duplicate is removed, other messages kept",
			skills:     []skill.Summary{a},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   identity,
			downstream: enter(userMsg("u1", "hi"), catalogMsg("dup", true, entA)),
			outcome:    contract.OutcomeUnchanged,
			wantIDs:    []string{"u1"},
		},
		{
			name:       "downstream already proposes the current catalog: kept as is",
			skills:     []skill.Summary{a, b},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   identity,
			downstream: enter(catalogMsg("theirs", true, entA, entB)),
			outcome:    contract.OutcomeUnchanged,
			wantPub:    []events.Catalog{{Update: true, Entries: []digest.Entry{entA, entB}}},
			wantIDs:    []string{"theirs"},
		},
		{
			name:       "never published, empty view: stale proposal removed, unreadable kept",
			identity:   identity,
			downstream: enter(catalogMsg("stale", false, entA), contract.Message{ID: "odd", Source: []byte(`{"kind":"skill-catalog","form":"catalog","entries":[null]}`)}),
			outcome:    contract.OutcomeUnchanged,
			wantIDs:    []string{"odd"},
		},
		{
			name:     "membership change: replacement",
			skills:   []skill.Summary{a, b},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  contract.OutcomeReplacement,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{entA, entB}}},
		},
		{
			name:     "every skill removed: tombstone",
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  contract.OutcomeTombstone,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{}}},
		},
		{
			name:     "tombstone already visible and still empty: nothing",
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false), events.EncodeCatalog(nil, true)},
			identity: identity,
			outcome:  contract.OutcomeUnchanged,
		},
		{
			name:     "compaction hid every catalog: replacement re-establishes it",
			skills:   []skill.Summary{a},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			hideAll:  true,
			identity: identity,
			outcome:  contract.OutcomeReplacement,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{entA}}},
		},
		{
			name:       "a proposed stale catalog is replaced in place",
			skills:     []skill.Summary{a, b},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   identity,
			downstream: enter(userMsg("u1", "x"), catalogMsg("proposed", true, entB), userMsg("u2", "y")),
			outcome:    contract.OutcomeReplacement,
			wantPub:    []events.Catalog{{Update: true, Entries: []digest.Entry{entA, entB}}},
			wantIDs:    []string{"u1", catalogMessageID("s1", contract.SessionHead{Seq: 1}, digest.Of([]digest.Entry{entA, entB})), "u2"},
		},
		{
			name:       "new catalog appended after everything else",
			skills:     []skill.Summary{a},
			identity:   identity,
			downstream: enter(userMsg("u1", "x")),
			outcome:    contract.OutcomeInitial,
			wantPub:    []events.Catalog{{Entries: []digest.Entry{entA}}},
			wantIDs:    []string{"u1", catalogMessageID("s1", contract.SessionHead{}, digest.Of([]digest.Entry{entA}))},
		},
		{
			name:   "malformed and foreign records are skipped, not a baseline",
			skills: []skill.Summary{a},
			history: [][]byte{
				[]byte(`{"kind":"skill-catalog","form":"catalog","entries":"not-an-array"}`),
				[]byte(`not json`),
				[]byte(`{"kind":"plugin-note","text":"<available_skills>\n-` + "`alpha`" + `: x\n</available_skills>"}`),
			},
			identity: identity,
			outcome:  contract.OutcomeInitial,
			wantPub:  []events.Catalog{{Entries: []digest.Entry{entA}}},
		},
		{
			name:     "description change: replacement",
			skills:   []skill.Summary{summary("alpha", "New  alpha\n text.")},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  contract.OutcomeReplacement,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{{Name: "alpha", Description: "New alpha text."}}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(tc.skills...)
			h.complete = !tc.incomplete
			for _, src := range tc.history {
				h.appendSource(src)
			}
			if tc.hideAll && len(h.events) > 0 {
				h.hide(1, uint64(len(h.events)))
			}
			req := step(h, tc.downstream)
			req.SkillToolIdentity = tc.identity
			resp := mustPreStep(t, newEngine(), h, testMount(), req)
			if resp.Outcome != tc.outcome {
				t.Errorf("outcome = %v, want %v", resp.Outcome, tc.outcome)
			}
			if tc.noSnapshot && h.snapshots != 0 {
				t.Errorf("snapshot requested %d times, want none", h.snapshots)
			}
			final := h.apply(t, req, resp)
			pub := published(final)
			if diff := cmp.Diff(tc.wantPub, pub, cmp.Comparer(func(a, b digest.Digest) bool { return true })); diff != "" {
				t.Errorf("published catalogs (-want +got):\n%s", diff)
			}
			for _, c := range pub {
				if c.Digest != digest.Of(c.Entries) {
					t.Errorf("catalog digest %s does not match its entries", c.Digest)
				}
			}
			if tc.wantIDs != nil {
				var ids []string
				for _, m := range final {
					ids = append(ids, m.ID)
				}
				if diff := cmp.Diff(tc.wantIDs, ids); diff != "" {
					t.Errorf("final message ids (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestPublishedMessageIsDurableUserReminder(t *testing.T) {
	h := newMemHost(summary("alpha", "Does <alpha> & things."))
	resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter()))
	final := h.apply(t, step(h, enter()), resp)
	if len(final) != 1 {
		t.Fatalf("final messages = %d, want 1", len(final))
	}
	m := final[0]
	if m.Role != contract.RoleUser {
		t.Errorf("role = %v, want user", m.Role)
	}
	want := render.InitialCatalog([]digest.Entry{{Name: "alpha", Description: "Does <alpha> & things."}})
	if got := m.Content[0].Text; got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(want, "Does &lt;alpha&gt; &amp; things.") {
		t.Errorf("description not escaped in the rendered catalog:\n%s", want)
	}
	c, ok := events.ParseCatalog(m.Source)
	if !ok || c.Update || c.Entries[0].Description != "Does <alpha> & things." {
		t.Errorf("source = %s, want a first catalog with the unescaped description", m.Source)
	}
}

func TestDescriptionCapFromConfig(t *testing.T) {
	h := newMemHost(summary("alpha", "abcdefghij"))
	m := testMount()
	m.cfg.DescriptionMaxLength = 5
	resp := mustPreStep(t, newEngine(), h, m, step(h, enter()))
	c, _ := events.ParseCatalog(resp.Edits[0].Message.Source)
	if got := c.Entries[0].Description; got != "ab..." {
		t.Errorf("capped description = %q, want %q", got, "ab...")
	}
}

func TestBodyOnlyChangeDoesNotRepublish(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	h.defs["alpha"] = skill.Definition{Summary: skill.Summary{Name: "alpha"}, Content: "v1"}
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	h.defs["alpha"] = skill.Definition{Summary: skill.Summary{Name: "alpha"}, Content: "v2"}
	h.token = "tok-2" // the host's token changes with any change it sees
	req = step(h, enter())
	resp := mustPreStep(t, e, h, testMount(), req)
	if resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 0 {
		t.Errorf("body-only change: outcome %v edits %v, want unchanged and none", resp.Outcome, resp.Edits)
	}
}

func TestUnchangedStepCrossesNothing(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	for i := 0; i < 1000; i++ {
		h.appendSource(nil)
	}
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	// The next step reads the one event the host appended.
	reads := h.reads
	mustPreStep(t, e, h, testMount(), step(h, enter()))
	if h.reads != reads+1 {
		t.Errorf("step after publishing made %d read calls, want 1", h.reads-reads)
	}

	// The host's hints (token, head) match what the plugin holds.
	snaps, reads := h.snapshots, h.reads
	req = step(h, enter())
	req.SnapshotToken = h.token
	resp := mustPreStep(t, e, h, testMount(), req)
	if resp.Outcome != contract.OutcomeUnchanged {
		t.Fatalf("outcome = %v", resp.Outcome)
	}
	if h.snapshots != snaps || h.reads != reads {
		t.Errorf("unchanged step made %d snapshot and %d read calls, want none", h.snapshots-snaps, h.reads-reads)
	}

	// Two new events: only those are read.
	h.appendSource(nil)
	h.appendSource(nil)
	seqs := h.readSeqs
	req = step(h, enter())
	req.SnapshotToken = h.token
	mustPreStep(t, e, h, testMount(), req)
	if got := h.readSeqs - seqs; got != 2 {
		t.Errorf("incremental step read %d events, want 2", got)
	}

	// Without a token hint the plugin asks conditionally and the host
	// answers not modified.
	req = step(h, enter())
	mustPreStep(t, e, h, testMount(), req)
	if h.snapshots != snaps+1 {
		t.Errorf("snapshot calls = %d, want %d", h.snapshots, snaps+1)
	}
}

func TestCompactionAfterScanTriggersFullRescan(t *testing.T) {
	entA := digest.Entry{Name: "alpha", Description: "A."}
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req)) // initial, seq 1
	h.appendSource(nil)
	h.hide(1, 1)
	req = step(h, enter())
	resp := mustPreStep(t, e, h, testMount(), req)
	if resp.Outcome != contract.OutcomeReplacement {
		t.Fatalf("outcome after compaction = %v, want replacement", resp.Outcome)
	}
	c, _ := events.ParseCatalog(resp.Edits[0].Message.Source)
	if diff := cmp.Diff([]digest.Entry{entA}, c.Entries); diff != "" || !c.Update {
		t.Errorf("re-established catalog update=%v (-want +got):\n%s", c.Update, diff)
	}
}

func TestRestartedEngineResumesWithoutRepublishing(t *testing.T) {
	h := newMemHost(summary("alpha", "A."), summary("beta", "B."))
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, newEngine(), h, testMount(), req))
	for i := 0; i < 50; i++ {
		h.appendSource([]byte(`{"kind":"other"}`))
	}
	resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter()))
	if resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 0 {
		t.Errorf("fresh engine: outcome %v edits %d, want unchanged", resp.Outcome, len(resp.Edits))
	}
}

func TestCancellationReachesSnapshot(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newEngine().preStep(ctx, h, testMount(), step(h, enter()))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestExecuteSkillTool(t *testing.T) {
	disabled := summary("hidden", "H.")
	disabled.Invocation.ModelInvocable = false
	base := func(kind skill.ResourceKind) *skill.ResourceBase {
		return &skill.ResourceBase{Kind: kind, Path: "/skills/alpha", URL: "skill://alpha/", Description: "ask the host"}
	}
	def := func(policy skill.InvocationPolicy, rb *skill.ResourceBase, content string) skill.Definition {
		return skill.Definition{Summary: skill.Summary{Name: "alpha", Provider: "runtime", Invocation: policy}, ResourceBase: rb, Content: content}
	}
	modelOnly := skill.InvocationPolicy{ModelInvocable: true}
	tests := []struct {
		name     string
		args     string
		defs     map[string]skill.Definition
		getErr   string
		want     string
		isError  bool
		wantGets int
	}{
		{name: "invalid name", args: `{"name":"Not Valid"}`, want: `Error: invalid skill name "Not Valid"`, isError: true},
		{name: "missing name", args: `{}`, want: `Error: the required argument "name" is missing; the skill tool takes {"name": "<skill name>"}`, isError: true},
		{name: "non-string name", args: `{"name":42}`, want: `Error: invalid skill name "42"`, isError: true},
		{name: "unknown", args: `{"name":"nope"}`, want: `Error: skill "nope" is unknown or no longer available`, isError: true},
		{name: "policy on summary, body never requested", args: `{"name":"hidden"}`, want: `Error: skill "hidden" is not available for model invocation`, isError: true},
		{
			name: "vanished between snapshot and load", args: `{"name":"alpha"}`,
			defs: map[string]skill.Definition{}, want: `Error: skill "alpha" is unknown or no longer available`, isError: true, wantGets: 1,
		},
		{
			name: "policy re-checked on the loaded definition", args: `{"name":"alpha"}`,
			defs:    map[string]skill.Definition{"alpha": def(skill.InvocationPolicy{}, nil, "")},
			want:    `Error: skill "alpha" is not available for model invocation`,
			isError: true, wantGets: 1,
		},
		{name: "provider error", args: `{"name":"alpha"}`, getErr: "disk on fire", want: `Error: disk on fire`, isError: true, wantGets: 1},
		{
			name: "unknown resource base kind", args: `{"name":"alpha"}`,
			defs:    map[string]skill.Definition{"alpha": def(modelOnly, base("zip"), "body")},
			want:    `Error: skill "alpha": unsupported resource base kind "zip"`,
			isError: true, wantGets: 1,
		},
		{
			name: "success", args: `{"name":"alpha"}`,
			defs:     map[string]skill.Definition{"alpha": def(modelOnly, base("directory"), "Do alpha.")},
			wantGets: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(summary("alpha", "A."), disabled)
			if tc.defs != nil {
				h.defs = tc.defs
			}
			h.getErr = tc.getErr
			want := tc.want
			if !tc.isError {
				var err error
				want, err = render.SkillContent(skill.ToolValue{Name: "alpha", Provider: "runtime", ResourceBase: &skill.ResourceBase{Kind: "directory", Path: "/skills/alpha", URL: "skill://alpha/", Description: "ask the host"}, Content: "Do alpha."}, false)
				if err != nil {
					t.Fatal(err)
				}
			}
			resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(tc.args), Cwd: "/w", AgentScope: "global"})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != want || resp.IsError != tc.isError {
				t.Errorf("result = %q (error %v), want %q (error %v)", resp.Text, resp.IsError, want, tc.isError)
			}
			if h.gets != tc.wantGets {
				t.Errorf("GetSkill calls = %d, want %d", h.gets, tc.wantGets)
			}
			if !tc.isError {
				want := &skill.ToolValue{Name: "alpha", Provider: "runtime", ResourceBase: base("directory"), Content: "Do alpha."}
				if diff := cmp.Diff(want, resp.Value); diff != "" {
					t.Errorf("value (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	tests := []struct {
		raw     string
		want    int
		wantErr string
	}{
		{raw: "", want: 500},
		{raw: "{}", want: 500},
		{raw: `{"catalogDescriptionMaxLength": 3}`, want: 3},
		{raw: `{"catalogDescriptionMaxLength": 1e3}`, want: 1000},
		{raw: `{"catalogDescriptionMaxLength": 2}`, wantErr: "catalogDescriptionMaxLength must be an integer >= 3, got 2"},
		{raw: `{"catalogDescriptionMaxLength": 2.5}`, wantErr: "catalogDescriptionMaxLength must be an integer >= 3, got 2.5"},
		{raw: `{"catalogDescriptionMaxLength": "500"}`, wantErr: `catalogDescriptionMaxLength must be an integer >= 3, got "500"`},
		{raw: `{"catalogDescriptionMaxLength": null}`, wantErr: "catalogDescriptionMaxLength must be an integer >= 3, got null"},
		{raw: `{"catalogDescriptionMaxLength": -1}`, wantErr: "catalogDescriptionMaxLength must be an integer >= 3, got -1"},
		{raw: `{"catalogDescriptionMaxLength": 1e300}`, wantErr: "catalogDescriptionMaxLength must be an integer from 3 to 2147483647, got 1e300"},
		{raw: `{"catalogDescriptionMaxLength": 3000000000}`, wantErr: "catalogDescriptionMaxLength must be an integer from 3 to 2147483647, got 3000000000"},
		{raw: `{"catalogDescriptionMaxLength": 2147483647}`, want: 2147483647},
		{raw: `{"catalogDescriptionMaxLength": 1e-300}`, wantErr: "catalogDescriptionMaxLength must be an integer >= 3, got 1e-300"},
		{raw: `{"catalogDescriptionMaxLenght": 10}`, wantErr: `unknown plugin option "catalogDescriptionMaxLenght" (known options: catalogBudget, catalogDescriptionMaxLength, invocationArguments, invocationForm, reattachBudget, reattachSkillMaxLength, relevantSkills, resourceTool, searchTool, userInvocation)`},
		{raw: `[1]`, wantErr: "plugin configuration must be a JSON object of options"},
		{raw: `{} {}`, wantErr: "plugin configuration must be a single JSON object"},
	}
	for _, tc := range tests {
		cfg, err := ParseConfig(tc.raw)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseConfig(%s) error = %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cfg.DescriptionMaxLength != tc.want {
			t.Errorf("ParseConfig(%s) = %d, %v; want %d", tc.raw, cfg.DescriptionMaxLength, err, tc.want)
		}
	}
}

func TestParseCatalogBudget(t *testing.T) {
	const bound = "catalogBudget must be 0 (no budget) or an integer from 100 to 2147483647, got "
	tests := []struct {
		raw     string
		want    int
		wantErr string
	}{
		{raw: "", want: contract.DefaultCatalogBudget},
		{raw: `{"catalogBudget": 0}`, want: contract.NoCatalogBudget},
		{raw: `{"catalogBudget": 100}`, want: 100},
		{raw: `{"catalogBudget": 5440, "catalogDescriptionMaxLength": 300}`, want: 5440},
		{raw: `{"catalogBudget": 2147483647}`, want: 2147483647},
		{raw: `{"catalogBudget": 99}`, wantErr: bound + "99"},
		{raw: `{"catalogBudget": 1}`, wantErr: bound + "1"},
		{raw: `{"catalogBudget": -1}`, wantErr: bound + "-1"},
		{raw: `{"catalogBudget": 1000.5}`, wantErr: bound + "1000.5"},
		{raw: `{"catalogBudget": "1000"}`, wantErr: bound + `"1000"`},
		{raw: `{"catalogBudget": null}`, wantErr: bound + "null"},
		{raw: `{"catalogBudget": 3000000000}`, wantErr: bound + "3000000000"},
	}
	for _, tc := range tests {
		cfg, err := ParseConfig(tc.raw)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseConfig(%s) error = %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cfg.CatalogBudget != tc.want {
			t.Errorf("ParseConfig(%s) = %d, %v; want %d", tc.raw, cfg.CatalogBudget, err, tc.want)
		}
	}
}

func TestBaselineIsNotParsedTwice(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	// A catalog another plugin process published.
	h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}}, false))
	e := newEngine()
	for i := 0; i < 10; i++ {
		h.appendSource(nil)
		if resp := mustPreStep(t, e, h, testMount(), step(h, enter())); resp.Outcome != contract.OutcomeUnchanged {
			t.Fatalf("outcome = %v, want unchanged", resp.Outcome)
		}
	}
	// Compaction of an unrelated range forces a full rescan, which meets
	// the same catalog record again.
	h.hide(5, 6)
	mustPreStep(t, e, h, testMount(), step(h, enter()))
	if got := e.parses.Load(); got != 1 {
		t.Errorf("catalog records parsed %d times, want 1", got)
	}
}

// TestOwnPublicationIsNeverParsed: the catalog the plugin publishes comes
// back in the session's events at the next step; the plugin knows what it
// says without decoding it.
func TestOwnPublicationIsNeverParsed(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	h.skills = append(h.skills, summary("beta", "B."))
	h.token = "tok-2"
	req = step(h, enter())
	if resp := mustPreStep(t, e, h, testMount(), req); resp.Outcome != contract.OutcomeReplacement {
		t.Fatalf("outcome = %v, want replacement", resp.Outcome)
	} else {
		h.apply(t, req, resp)
	}
	for i := 0; i < 3; i++ {
		h.appendSource(nil)
		if resp := mustPreStep(t, e, h, testMount(), step(h, enter())); resp.Outcome != contract.OutcomeUnchanged {
			t.Fatalf("outcome = %v, want unchanged", resp.Outcome)
		}
	}
	if got := e.parses.Load(); got != 0 {
		t.Errorf("the plugin parsed %d of its own catalog records, want 0", got)
	}
}

func TestUnboundMountIsAnError(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	_, err := newEngine().preStep(context.Background(), h, mount{cfg: defaultConfig()}, step(h, enter()))
	if !errors.Is(err, contract.ErrUnbound) {
		t.Fatalf("err = %v, want ErrUnbound", err)
	}
}

func TestNotModifiedAfterConcurrentEviction(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	// Other steps evict every view while this one waits for the host.
	h.onSnapshot = func() {
		e.views.Purge()
	}
	resp := mustPreStep(t, e, h, testMount(), step(h, enter()))
	if resp.Outcome != contract.OutcomeUnchanged {
		t.Fatalf("outcome = %v, want unchanged", resp.Outcome)
	}
}

func TestCatalogMessageIDsAreUniqueAndStable(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	first := h.apply(t, req, mustPreStep(t, e, h, testMount(), req))[0].ID
	h.skills = append(h.skills, summary("beta", "B."))
	h.token = "tok-2"
	req = step(h, enter())
	resp := mustPreStep(t, e, h, testMount(), req)
	again := mustPreStep(t, newEngine(), h, testMount(), step(h, enter())) // a restarted plugin
	second := resp.Edits[0].Message.ID
	if first == second {
		t.Errorf("two catalogs of one session share the id %q", first)
	}
	if got := again.Edits[0].Message.ID; got != second {
		t.Errorf("restarted plugin named the catalog %q, want %q", got, second)
	}
}

// TestReproposedCatalogGetsNewID: a step that both changes the catalog and
// proposes the catalog message the log already holds publishes under a new
// id, so no two durable messages share one.
func TestReproposedCatalogGetsNewID(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	first := h.apply(t, req, mustPreStep(t, e, h, testMount(), req))[0]
	h.skills = append(h.skills, summary("beta", "B."))
	h.token = "tok-2"
	req = step(h, enter(first, userMsg("u1", "x")))
	resp := mustPreStep(t, e, h, testMount(), req)
	if resp.Outcome != contract.OutcomeReplacement {
		t.Fatalf("outcome = %v, want replacement", resp.Outcome)
	}
	final := h.apply(t, req, resp)
	if len(final) != 2 || final[1].ID != "u1" {
		t.Fatalf("final messages %+v, want the replacement then u1", final)
	}
	if final[0].ID == first.ID {
		t.Errorf("the replacement kept the published catalog's id %q", first.ID)
	}
	if c, ok := events.ParseCatalog(final[0].Source); !ok || len(c.Entries) != 2 {
		t.Errorf("the proposal was not replaced by the current catalog: %s", final[0].Source)
	}
}

func TestSurfaceChangeGoesStraightToOneFullScan(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, catalogMount(), req))
	mustPreStep(t, e, h, catalogMount(), step(h, enter()))
	h.appendSource(nil)
	h.hide(2, 2)
	reads := h.reads
	mustPreStep(t, e, h, catalogMount(), step(h, enter()))
	if got := h.reads - reads; got != 1 {
		t.Errorf("compaction cost %d reads, want one full scan", got)
	}
}

func TestMisbehavingEventPagesAreErrors(t *testing.T) {
	head := contract.SessionHead{Seq: 10}
	ev := func(seq uint64) contract.SessionEvent {
		return contract.SessionEvent{Seq: seq, Visible: true}
	}
	for name, pages := range map[string][]contract.EventPage{
		"more without events": {{Head: head, More: true}},
		"seq not decreasing":  {{Head: head, Events: []contract.SessionEvent{ev(10), ev(10)}, More: true}},
		"page revisits seqs":  {{Head: head, Events: []contract.SessionEvent{ev(10), ev(9)}, More: true}, {Head: head, Events: []contract.SessionEvent{ev(9)}}},
	} {
		t.Run(name, func(t *testing.T) {
			h := newMemHost(summary("alpha", "A."))
			h.pages = pages
			if _, err := newEngine().preStep(context.Background(), h, testMount(), step(h, enter())); err == nil {
				t.Fatal("a misbehaving host's pages were accepted")
			}
		})
	}
}

func TestSeveralProposedCatalogs(t *testing.T) {
	entA := digest.Entry{Name: "alpha", Description: "A."}
	h := newMemHost(summary("alpha", "A."), summary("beta", "B."))
	req := step(h, enter(catalogMsg("c1", false, entA), userMsg("u", "x"), catalogMsg("c2", false, entA)))
	final := h.apply(t, req, mustPreStep(t, newEngine(), h, testMount(), req))
	var ids []string
	for _, m := range final {
		ids = append(ids, m.ID)
	}
	if diff := cmp.Diff([]string{catalogMessageID("s1", contract.SessionHead{}, digest.Of([]digest.Entry{entA, {Name: "beta", Description: "B."}})), "u"}, ids); diff != "" {
		t.Errorf("final ids (-want +got):\n%s", diff)
	}
	if c, _ := events.ParseCatalog(final[0].Source); len(c.Entries) != 2 {
		t.Errorf("the first proposal was not replaced by the current catalog: %s", final[0].Source)
	}
}

// TestChangeStepWithDeltas: a host that answers with deltas sends only what
// changed, and the plugin publishes what a complete snapshot would have
// made it publish.
func TestChangeStepWithDeltas(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for i := 0; i < 50; i++ {
		skills = append(skills, summary(fmt.Sprintf("skill-%02d", i), fmt.Sprintf("Skill %d.", i)))
	}
	delta, full := newMemHost(slices.Clone(skills)...), newMemHost(slices.Clone(skills)...)
	delta.deltas = true
	de, fe := newEngine(), newEngine()
	for round := 0; round < 6; round++ {
		for _, h := range []*memHost{delta, full} {
			switch round {
			case 0:
			case 1:
				h.skills[7].Description = "Changed."
			case 2:
				h.skills = slices.Delete(h.skills, 3, 4)
			case 3:
				h.skills = append(h.skills, summary("skill-09a", "Inserted."))
				slices.SortFunc(h.skills, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
			case 4:
				h.skills[0].Invocation.ModelInvocable = false
			case 5: // more than half changes: sent whole
				for i := range h.skills {
					h.skills[i].Description += " Again."
				}
			}
			h.token = fmt.Sprintf("tok-%d", round)
		}
		before := delta.summaries
		dreq, freq := step(delta, enter()), step(full, enter())
		dresp, fresp := mustPreStep(t, de, delta, testMount(), dreq), mustPreStep(t, fe, full, testMount(), freq)
		if diff := cmp.Diff(fresp, dresp); diff != "" {
			t.Fatalf("round %d: the step with deltas differs (-complete +delta):\n%s", round, diff)
		}
		delta.apply(t, dreq, dresp)
		full.apply(t, freq, fresp)
		sent := delta.summaries - before
		if round > 0 && round < 5 && sent > 1 {
			t.Errorf("round %d: %d summaries crossed for a one-skill change", round, sent)
		}
		if round == 5 && sent != len(delta.skills) {
			t.Errorf("round 5: %d summaries crossed, want the whole snapshot of %d", sent, len(delta.skills))
		}
	}
}

func TestMalformedDeltasAreErrors(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]contract.Snapshot{
		"delta against another base": {Complete: true, Token: "tok-2", DeltaBase: "tok-0"},
		"unsorted delta":             {Complete: true, Token: "tok-2", DeltaBase: "tok-1", Skills: []skill.Summary{summary("b", "B."), summary("a", "A.")}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newMemHost(summary("alpha", "A."))
			e := newEngine()
			req := step(h, enter())
			h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
			e2 := &scriptedSnapshotHost{memHost: h, answer: answer}
			if _, err := e.preStep(context.Background(), e2, testMount(), step(h, enter())); err == nil {
				t.Fatal("a malformed delta was applied")
			}
		})
	}
}

// scriptedSnapshotHost answers every snapshot with one scripted answer.
type scriptedSnapshotHost struct {
	*memHost
	answer contract.Snapshot
}

func (h *scriptedSnapshotHost) Snapshot(context.Context, contract.SnapshotRequest) (contract.Snapshot, error) {
	return h.answer, nil
}

// recentSince is what a host sends with a step: every event after seq,
// newest first.
func (h *memHost) recentSince(after uint64) *contract.RecentEvents {
	r := &contract.RecentEvents{AfterSeq: after}
	for seq := uint64(len(h.events)); seq > after; seq-- {
		r.Events = append(r.Events, h.events[seq-1])
	}
	return r
}

// TestLoopStepsNeedNoCallbacks counts the callbacks of steps whose session
// grew between them, when the host sends the new events with the step.
func TestLoopStepsNeedNoCallbacks(t *testing.T) {
	t.Parallel()
	entA := digest.Entry{Name: "alpha", Description: "A."}
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req)) // initial catalog
	last := req.Head.Seq                                    // the head the host sent
	// loop runs one step the way a host in an agent loop does: its snapshot
	// token and the events since the head it sent last.
	loop := func(m mount, e *engine, recent *contract.RecentEvents) (contract.StepResponse, int, int) {
		t.Helper()
		reads, snaps := h.reads, h.snapshots
		req := step(h, enter())
		req.SnapshotToken = h.token
		req.Recent = recent
		resp := mustPreStep(t, e, h, m, req)
		h.apply(t, req, resp)
		last = req.Head.Seq
		return resp, h.reads - reads, h.snapshots - snaps
	}
	cases := []struct {
		name         string
		between      func()
		engine       func() *engine
		recent       func() *contract.RecentEvents
		want         contract.Outcome
		reads, snaps int
	}{
		{"two messages appended", func() { h.appendSource(nil); h.appendSource([]byte(`{"kind":"tool-result"}`)) }, nil, nil, contract.OutcomeUnchanged, 0, 0},
		{"the own catalog read back", func() {}, nil, nil, contract.OutcomeUnchanged, 0, 0},
		{"another writer's catalog, same entries", func() { h.appendSource(events.EncodeCatalog([]digest.Entry{entA}, true)) }, nil, nil, contract.OutcomeUnchanged, 0, 0},
		{"another writer's catalog, other entries", func() {
			h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "zeta", Description: "Z."}}, true))
		}, nil, nil, contract.OutcomeReplacement, 0, 0},
		{"a gap the host did not send", func() {
			for i := 0; i < 30; i++ {
				h.appendSource(nil)
			}
		}, nil, func() *contract.RecentEvents { return nil }, contract.OutcomeUnchanged, 1, 0},
		{"events that do not start where the plugin stopped", func() { h.appendSource(nil) }, nil, func() *contract.RecentEvents {
			r := h.recentSince(last)
			r.AfterSeq++ // the host's idea of the previous head is not the plugin's
			r.Events = r.Events[:len(r.Events)-1]
			return r
		}, contract.OutcomeUnchanged, 1, 0},
		{"compaction", func() { h.appendSource(nil); h.hide(1, 1) }, nil, nil, contract.OutcomeUnchanged, 1, 0},
		{"a restarted plugin", func() { h.appendSource(nil) }, newEngine, nil, contract.OutcomeUnchanged, 1, 1},
		{"a gap larger than a first page, read in one", func() {
			for i := 0; i < 3*firstEventsPage; i++ {
				h.appendSource(nil)
			}
		}, nil, func() *contract.RecentEvents { return nil }, contract.OutcomeUnchanged, 1, 0},
		{"a gap larger than the largest page", func() {
			for i := 0; i < maxEventsPage+10; i++ {
				h.appendSource(nil)
			}
		}, nil, func() *contract.RecentEvents { return nil }, contract.OutcomeUnchanged, 2, 0},
	}
	for _, c := range cases {
		c.between()
		recent := h.recentSince(last)
		if c.recent != nil {
			recent = c.recent()
		}
		if c.engine != nil {
			e = c.engine()
		}
		resp, reads, snaps := loop(catalogMount(), e, recent)
		if resp.Outcome != c.want || reads != c.reads || snaps != c.snaps {
			t.Errorf("%s: outcome %v with %d ReadEvents and %d Snapshot calls, want %v with %d and %d", c.name, resp.Outcome, reads, snaps, c.want, c.reads, c.snaps)
		}
	}
}

// TestRecentEventsOutsideTheHeadAreRefused: events that do not fit the
// head they came with are not trusted; the log is read instead.
func TestRecentEventsOutsideTheHeadAreRefused(t *testing.T) {
	t.Parallel()
	for name, seqs := range map[string][]uint64{
		"beyond the head":     {3, 2},
		"oldest first":        {1, 2},
		"at or before after":  {2, 0},
		"a repeated sequence": {2, 2},
	} {
		h := newMemHost(summary("alpha", "A."))
		e := newEngine()
		req := step(h, enter())
		h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
		mustPreStep(t, e, h, testMount(), step(h, enter())) // the plugin has read to the head
		after := h.head().Seq
		h.appendSource(nil)
		h.appendSource(nil)
		recent := &contract.RecentEvents{AfterSeq: after}
		for _, d := range seqs {
			recent.Events = append(recent.Events, contract.SessionEvent{Seq: after + d, Visible: true})
		}
		req = step(h, enter())
		req.SnapshotToken = h.token
		req.Recent = recent
		reads := h.reads
		if resp := mustPreStep(t, e, h, testMount(), req); resp.Outcome != contract.OutcomeUnchanged {
			t.Errorf("%s: outcome %v", name, resp.Outcome)
		}
		if h.reads-reads != 1 {
			t.Errorf("%s: %d ReadEvents calls, want the log read once instead of the events sent", name, h.reads-reads)
		}
	}
}
