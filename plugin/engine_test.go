package plugin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/internal/lru"
	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

const identity = "tooldef-1"

// memHost is an in-process Host: a fixed snapshot and an in-memory event
// log, counting the calls the plugin makes.
type memHost struct {
	onSnapshot func()                               // runs before a snapshot is answered
	pages      []*skillcatalogv1.ReadEventsResponse // scripted pages, answered in order when set
	skills     []*skillcatalogv1.SkillSummary
	defs       map[string]*skillcatalogv1.SkillDefinition
	getErr     string
	complete   bool
	token      string
	events     []*skillcatalogv1.SessionEvent // oldest first; seq = index+1
	surface    uint64
	snapshots  int
	reads      int
	gets       int
	readSeqs   int // events returned in total
}

func newMemHost(skills ...*skillcatalogv1.SkillSummary) *memHost {
	return &memHost{skills: skills, complete: true, token: "tok-1", defs: map[string]*skillcatalogv1.SkillDefinition{}}
}

func (h *memHost) Snapshot(ctx context.Context, req *skillcatalogv1.SnapshotRequest) (*skillcatalogv1.SnapshotResponse, error) {
	h.snapshots++
	if h.onSnapshot != nil {
		h.onSnapshot()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !h.complete {
		return &skillcatalogv1.SnapshotResponse{Skills: h.skills}, nil
	}
	if req.GetIfNoneMatch() != "" && req.GetIfNoneMatch() == h.token {
		return &skillcatalogv1.SnapshotResponse{NotModified: true, Token: h.token, Complete: true}, nil
	}
	return &skillcatalogv1.SnapshotResponse{Skills: h.skills, Complete: true, Token: h.token}, nil
}

func (h *memHost) GetSkill(_ context.Context, req *skillcatalogv1.GetSkillRequest) (*skillcatalogv1.GetSkillResponse, error) {
	h.gets++
	if h.getErr != "" {
		return &skillcatalogv1.GetSkillResponse{Error: h.getErr}, nil
	}
	d, ok := h.defs[req.GetName()]
	if !ok {
		return &skillcatalogv1.GetSkillResponse{}, nil
	}
	return &skillcatalogv1.GetSkillResponse{Found: true, Skill: d}, nil
}

func (h *memHost) ReadEvents(_ context.Context, req *skillcatalogv1.ReadEventsRequest) (*skillcatalogv1.ReadEventsResponse, error) {
	h.reads++
	if h.pages != nil {
		page := h.pages[0]
		h.pages = h.pages[1:]
		return page, nil
	}
	resp := &skillcatalogv1.ReadEventsResponse{Head: h.head()}
	top := uint64(len(h.events))
	if b := req.GetBeforeSeq(); b != 0 && b-1 < top {
		top = b - 1
	}
	for seq := top; seq > req.GetAfterSeq(); seq-- {
		if len(resp.Events) == int(req.GetMaxEvents()) {
			resp.More = true
			break
		}
		resp.Events = append(resp.Events, h.events[seq-1])
	}
	h.readSeqs += len(resp.Events)
	return resp, nil
}

func (h *memHost) head() *skillcatalogv1.SessionHead {
	return &skillcatalogv1.SessionHead{HeadSeq: uint64(len(h.events)), SurfaceRevision: h.surface}
}

func (h *memHost) appendSource(src []byte) {
	h.events = append(h.events, &skillcatalogv1.SessionEvent{Seq: uint64(len(h.events) + 1), Type: "message", SourceJson: src, Visible: true})
}

// appendMessages records a step's final messages the way a host does.
func (h *memHost) apply(t testing.TB, req *skillcatalogv1.PreStepRequest, resp *skillcatalogv1.PreStepResponse) []*skillcatalogv1.Message {
	t.Helper()
	msgs := append([]*skillcatalogv1.Message(nil), req.GetDownstream().GetEnter().GetMessages()...)
	removed := map[int]bool{}
	var tail []*skillcatalogv1.Message
	for _, e := range resp.GetEdits() {
		switch x := e.GetEdit().(type) {
		case *skillcatalogv1.MessageEdit_Remove:
			removed[int(x.Remove)] = true
		case *skillcatalogv1.MessageEdit_Replace:
			msgs[x.Replace.GetIndex()] = x.Replace.GetMessage()
		case *skillcatalogv1.MessageEdit_Append:
			tail = append(tail, x.Append)
		}
	}
	var out []*skillcatalogv1.Message
	for i, m := range msgs {
		if !removed[i] {
			out = append(out, m)
		}
	}
	out = append(out, tail...)
	for _, m := range out {
		h.appendSource(m.GetSourceJson())
	}
	return out
}

func (h *memHost) hide(from, to uint64) {
	for seq := from; seq <= to; seq++ {
		h.events[seq-1].Visible = false
	}
	h.surface++
}

func summary(name, desc string) *skillcatalogv1.SkillSummary {
	return &skillcatalogv1.SkillSummary{Name: name, Description: desc, Provider: "runtime", Invocation: &skillcatalogv1.InvocationPolicy{ModelInvocable: true, UserInvocable: true}}
}

func mount() Mount { return Mount{Config: DefaultConfig(), SkillIdentity: identity} }

func enter(msgs ...*skillcatalogv1.Message) *skillcatalogv1.Decision {
	return &skillcatalogv1.Decision{Kind: &skillcatalogv1.Decision_Enter{Enter: &skillcatalogv1.EnterDecision{Messages: msgs}}}
}

func step(h *memHost, downstream *skillcatalogv1.Decision) *skillcatalogv1.PreStepRequest {
	return &skillcatalogv1.PreStepRequest{SessionId: "s1", Cwd: "/w", AgentScope: "global", Downstream: downstream, SkillToolIdentity: identity, SessionHead: h.head()}
}

func catalogMsg(id string, update bool, entries ...digest.Entry) *skillcatalogv1.Message {
	return &skillcatalogv1.Message{Id: id, Role: skillcatalogv1.Role_ROLE_USER, SourceJson: events.EncodeCatalog(entries, update)}
}

func userMsg(id, text string) *skillcatalogv1.Message {
	return &skillcatalogv1.Message{Id: id, Role: skillcatalogv1.Role_ROLE_USER, Content: []*skillcatalogv1.ContentBlock{{Type: "text", Text: text}}}
}

func mustPreStep(t *testing.T, e *Engine, h *memHost, m Mount, req *skillcatalogv1.PreStepRequest) *skillcatalogv1.PreStepResponse {
	t.Helper()
	resp, err := e.PreStep(context.Background(), h, m, req)
	if err != nil {
		t.Fatalf("PreStep: %v", err)
	}
	return resp
}

// published returns the catalog records among the final messages.
func published(msgs []*skillcatalogv1.Message) []events.Catalog {
	var out []events.Catalog
	for _, m := range msgs {
		if c, ok := events.ParseCatalog(m.GetSourceJson()); ok {
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
		skills     []*skillcatalogv1.SkillSummary
		incomplete bool
		history    [][]byte // sources already in the log
		hideAll    bool     // compaction hides every history event
		identity   string   // what `skill` resolves to; "" = restricted away
		downstream *skillcatalogv1.Decision
		outcome    skillcatalogv1.Outcome
		wantPub    []events.Catalog // catalogs among the final messages
		wantIDs    []string         // ids of final messages, when checked
		noSnapshot bool
	}{
		{
			name:       "reject passes through untouched",
			skills:     []*skillcatalogv1.SkillSummary{a},
			identity:   identity,
			downstream: &skillcatalogv1.Decision{Kind: &skillcatalogv1.Decision_Reject{Reject: &skillcatalogv1.RejectDecision{Reason: "no"}}},
			outcome:    skillcatalogv1.Outcome_OUTCOME_REJECT_PASSTHROUGH,
			noSnapshot: true,
		},
		{
			name:     "initial catalog, sorted, model-invocable only",
			skills:   []*skillcatalogv1.SkillSummary{b, userOnly, a},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_INITIAL,
			wantPub:  []events.Catalog{{Entries: []digest.Entry{entA, entB}}},
		},
		{
			name:     "userInvocable false does not hide a skill from the model",
			skills:   []*skillcatalogv1.SkillSummary{modelOnly},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_INITIAL,
			wantPub:  []events.Catalog{{Entries: []digest.Entry{{Name: "delta", Description: "Model only."}}}},
		},
		{
			name:     "empty view and never published: nothing",
			skills:   []*skillcatalogv1.SkillSummary{userOnly},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
		},
		{
			name:       "tool restricted away, never published: nothing, no snapshot",
			skills:     []*skillcatalogv1.SkillSummary{a},
			identity:   "",
			outcome:    skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
			noSnapshot: true,
		},
		{
			name:       "tool shadowed after a catalog: tombstone, no snapshot",
			skills:     []*skillcatalogv1.SkillSummary{a},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   "tooldef-shadow",
			outcome:    skillcatalogv1.Outcome_OUTCOME_TOMBSTONE,
			wantPub:    []events.Catalog{{Update: true, Entries: []digest.Entry{}}},
			noSnapshot: true,
		},
		{
			name:       "incomplete snapshot emits nothing and keeps proposals",
			skills:     []*skillcatalogv1.SkillSummary{a},
			incomplete: true,
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA, entB}, false)},
			identity:   identity,
			downstream: enter(catalogMsg("stale", false, entB)),
			outcome:    skillcatalogv1.Outcome_OUTCOME_INCOMPLETE,
			wantPub:    []events.Catalog{{Entries: []digest.Entry{entB}}},
		},
		{
			name:     "same digest as the newest visible catalog: nothing",
			skills:   []*skillcatalogv1.SkillSummary{a},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
		},
		{
			name:       "same digest: a proposed duplicate is removed, other messages kept",
			skills:     []*skillcatalogv1.SkillSummary{a},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   identity,
			downstream: enter(userMsg("u1", "hi"), catalogMsg("dup", true, entA)),
			outcome:    skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
			wantIDs:    []string{"u1"},
		},
		{
			name:       "downstream already proposes the current catalog: kept as is",
			skills:     []*skillcatalogv1.SkillSummary{a, b},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   identity,
			downstream: enter(catalogMsg("theirs", true, entA, entB)),
			outcome:    skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
			wantPub:    []events.Catalog{{Update: true, Entries: []digest.Entry{entA, entB}}},
			wantIDs:    []string{"theirs"},
		},
		{
			name:       "never published, empty view: stale proposal removed, unreadable kept",
			identity:   identity,
			downstream: enter(catalogMsg("stale", false, entA), &skillcatalogv1.Message{Id: "odd", SourceJson: []byte(`{"kind":"skill-catalog","form":"catalog","entries":[null]}`)}),
			outcome:    skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
			wantIDs:    []string{"odd"},
		},
		{
			name:     "membership change: replacement",
			skills:   []*skillcatalogv1.SkillSummary{a, b},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_REPLACEMENT,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{entA, entB}}},
		},
		{
			name:     "every skill removed: tombstone",
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_TOMBSTONE,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{}}},
		},
		{
			name:     "tombstone already visible and still empty: nothing",
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false), events.EncodeCatalog(nil, true)},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_UNCHANGED,
		},
		{
			name:     "compaction hid every catalog: replacement re-establishes it",
			skills:   []*skillcatalogv1.SkillSummary{a},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			hideAll:  true,
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_REPLACEMENT,
			wantPub:  []events.Catalog{{Update: true, Entries: []digest.Entry{entA}}},
		},
		{
			name:       "a proposed stale catalog is replaced in place",
			skills:     []*skillcatalogv1.SkillSummary{a, b},
			history:    [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity:   identity,
			downstream: enter(userMsg("u1", "x"), catalogMsg("proposed", true, entB), userMsg("u2", "y")),
			outcome:    skillcatalogv1.Outcome_OUTCOME_REPLACEMENT,
			wantPub:    []events.Catalog{{Update: true, Entries: []digest.Entry{entA, entB}}},
			wantIDs:    []string{"u1", "proposed", "u2"},
		},
		{
			name:       "new catalog appended after everything else",
			skills:     []*skillcatalogv1.SkillSummary{a},
			identity:   identity,
			downstream: enter(userMsg("u1", "x")),
			outcome:    skillcatalogv1.Outcome_OUTCOME_INITIAL,
			wantPub:    []events.Catalog{{Entries: []digest.Entry{entA}}},
			wantIDs:    []string{"u1", catalogMessageID("s1", &skillcatalogv1.SessionHead{}, digest.Of([]digest.Entry{entA}))},
		},
		{
			name:   "malformed and foreign records are skipped, not a baseline",
			skills: []*skillcatalogv1.SkillSummary{a},
			history: [][]byte{
				[]byte(`{"kind":"skill-catalog","form":"catalog","entries":"not-an-array"}`),
				[]byte(`not json`),
				[]byte(`{"kind":"plugin-note","text":"<available_skills>\n-` + "`alpha`" + `: x\n</available_skills>"}`),
			},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_INITIAL,
			wantPub:  []events.Catalog{{Entries: []digest.Entry{entA}}},
		},
		{
			name:     "description change: replacement",
			skills:   []*skillcatalogv1.SkillSummary{summary("alpha", "New  alpha\n text.")},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			identity: identity,
			outcome:  skillcatalogv1.Outcome_OUTCOME_REPLACEMENT,
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
			downstream := tc.downstream
			if downstream == nil {
				downstream = enter()
			}
			req := step(h, downstream)
			req.SkillToolIdentity = tc.identity
			resp := mustPreStep(t, NewEngine(), h, mount(), req)
			if resp.GetOutcome() != tc.outcome {
				t.Errorf("outcome = %v, want %v", resp.GetOutcome(), tc.outcome)
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
					ids = append(ids, m.GetId())
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
	resp := mustPreStep(t, NewEngine(), h, mount(), step(h, enter()))
	final := h.apply(t, step(h, enter()), resp)
	if len(final) != 1 {
		t.Fatalf("final messages = %d, want 1", len(final))
	}
	m := final[0]
	if m.GetRole() != skillcatalogv1.Role_ROLE_USER {
		t.Errorf("role = %v, want user", m.GetRole())
	}
	want := render.InitialCatalog([]digest.Entry{{Name: "alpha", Description: "Does <alpha> & things."}})
	if got := m.GetContent()[0].GetText(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(want, "Does &lt;alpha&gt; &amp; things.") {
		t.Errorf("description not escaped in the rendered catalog:\n%s", want)
	}
	c, ok := events.ParseCatalog(m.GetSourceJson())
	if !ok || c.Update || c.Entries[0].Description != "Does <alpha> & things." {
		t.Errorf("source = %s, want a first catalog with the unescaped description", m.GetSourceJson())
	}
}

func TestDescriptionCapFromConfig(t *testing.T) {
	h := newMemHost(summary("alpha", "abcdefghij"))
	m := mount()
	m.Config.DescriptionMaxLength = 5
	resp := mustPreStep(t, NewEngine(), h, m, step(h, enter()))
	c, _ := events.ParseCatalog(resp.GetEdits()[0].GetAppend().GetSourceJson())
	if got := c.Entries[0].Description; got != "ab..." {
		t.Errorf("capped description = %q, want %q", got, "ab...")
	}
}

func TestBodyOnlyChangeDoesNotRepublish(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	h.defs["alpha"] = &skillcatalogv1.SkillDefinition{Name: "alpha", Content: "v1"}
	e := NewEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, mount(), req))
	h.defs["alpha"].Content = "v2"
	h.token = "tok-2" // the host's token changes with any change it sees
	req = step(h, enter())
	resp := mustPreStep(t, e, h, mount(), req)
	if resp.GetOutcome() != skillcatalogv1.Outcome_OUTCOME_UNCHANGED || len(resp.GetEdits()) != 0 {
		t.Errorf("body-only change: outcome %v edits %v, want unchanged and none", resp.GetOutcome(), resp.GetEdits())
	}
}

func TestUnchangedStepCrossesNothing(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	for i := 0; i < 1000; i++ {
		h.appendSource(nil)
	}
	e := NewEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, mount(), req))
	// The next step reads the one event the host appended.
	reads := h.reads
	mustPreStep(t, e, h, mount(), step(h, enter()))
	if h.reads != reads+1 {
		t.Errorf("step after publishing made %d read calls, want 1", h.reads-reads)
	}

	// The host's hints (token, head) match what the plugin holds.
	snaps, reads := h.snapshots, h.reads
	req = step(h, enter())
	req.SnapshotToken = h.token
	resp := mustPreStep(t, e, h, mount(), req)
	if resp.GetOutcome() != skillcatalogv1.Outcome_OUTCOME_UNCHANGED {
		t.Fatalf("outcome = %v", resp.GetOutcome())
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
	mustPreStep(t, e, h, mount(), req)
	if got := h.readSeqs - seqs; got != 2 {
		t.Errorf("incremental step read %d events, want 2", got)
	}

	// Without a token hint the plugin asks conditionally and the host
	// answers not modified.
	req = step(h, enter())
	mustPreStep(t, e, h, mount(), req)
	if h.snapshots != snaps+1 {
		t.Errorf("snapshot calls = %d, want %d", h.snapshots, snaps+1)
	}
}

func TestCompactionAfterScanTriggersFullRescan(t *testing.T) {
	entA := digest.Entry{Name: "alpha", Description: "A."}
	h := newMemHost(summary("alpha", "A."))
	e := NewEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, mount(), req)) // initial, seq 1
	h.appendSource(nil)
	h.hide(1, 1)
	req = step(h, enter())
	resp := mustPreStep(t, e, h, mount(), req)
	if resp.GetOutcome() != skillcatalogv1.Outcome_OUTCOME_REPLACEMENT {
		t.Fatalf("outcome after compaction = %v, want replacement", resp.GetOutcome())
	}
	c, _ := events.ParseCatalog(resp.GetEdits()[0].GetAppend().GetSourceJson())
	if diff := cmp.Diff([]digest.Entry{entA}, c.Entries); diff != "" || !c.Update {
		t.Errorf("re-established catalog update=%v (-want +got):\n%s", c.Update, diff)
	}
}

func TestRestartedEngineResumesWithoutRepublishing(t *testing.T) {
	h := newMemHost(summary("alpha", "A."), summary("beta", "B."))
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, NewEngine(), h, mount(), req))
	for i := 0; i < 50; i++ {
		h.appendSource([]byte(`{"kind":"other"}`))
	}
	resp := mustPreStep(t, NewEngine(), h, mount(), step(h, enter()))
	if resp.GetOutcome() != skillcatalogv1.Outcome_OUTCOME_UNCHANGED || len(resp.GetEdits()) != 0 {
		t.Errorf("fresh engine: outcome %v edits %d, want unchanged", resp.GetOutcome(), len(resp.GetEdits()))
	}
}

func TestCancellationReachesSnapshot(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewEngine().PreStep(ctx, h, mount(), step(h, enter()))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestExecuteSkillTool(t *testing.T) {
	disabled := summary("hidden", "H.")
	disabled.Invocation.ModelInvocable = false
	base := func(kind string) *skillcatalogv1.ResourceBase {
		return &skillcatalogv1.ResourceBase{Kind: kind, Path: "/skills/alpha", Url: "skill://alpha/", Description: "ask the host"}
	}
	tests := []struct {
		name     string
		args     string
		defs     map[string]*skillcatalogv1.SkillDefinition
		getErr   string
		want     string
		isError  bool
		wantGets int
	}{
		{name: "invalid name", args: `{"name":"Not Valid"}`, want: `Error: invalid skill name "Not Valid"`, isError: true},
		{name: "missing name", args: `{}`, want: `Error: invalid skill name ""`, isError: true},
		{name: "non-string name", args: `{"name":42}`, want: `Error: invalid skill name "42"`, isError: true},
		{name: "unknown", args: `{"name":"nope"}`, want: `Error: skill "nope" is unknown or no longer available`, isError: true},
		{name: "policy on summary, body never requested", args: `{"name":"hidden"}`, want: `Error: skill "hidden" is not available for model invocation`, isError: true},
		{
			name: "vanished between snapshot and load", args: `{"name":"alpha"}`,
			defs: map[string]*skillcatalogv1.SkillDefinition{}, want: `Error: skill "alpha" is unknown or no longer available`, isError: true, wantGets: 1,
		},
		{
			name: "policy re-checked on the loaded definition", args: `{"name":"alpha"}`,
			defs:    map[string]*skillcatalogv1.SkillDefinition{"alpha": {Name: "alpha", Invocation: &skillcatalogv1.InvocationPolicy{}}},
			want:    `Error: skill "alpha" is not available for model invocation`,
			isError: true, wantGets: 1,
		},
		{name: "provider error", args: `{"name":"alpha"}`, getErr: "disk on fire", want: `Error: disk on fire`, isError: true, wantGets: 1},
		{
			name: "unknown resource base kind", args: `{"name":"alpha"}`,
			defs:    map[string]*skillcatalogv1.SkillDefinition{"alpha": {Name: "alpha", Provider: "runtime", Invocation: &skillcatalogv1.InvocationPolicy{ModelInvocable: true}, ResourceBase: base("zip"), Content: "body"}},
			want:    `Error: skill "alpha": unsupported resource base kind "zip"`,
			isError: true, wantGets: 1,
		},
		{
			name: "success", args: `{"name":"alpha"}`,
			defs:     map[string]*skillcatalogv1.SkillDefinition{"alpha": {Name: "alpha", Provider: "runtime", Invocation: &skillcatalogv1.InvocationPolicy{ModelInvocable: true}, ResourceBase: base("directory"), Content: "Do alpha."}},
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
				want, err = render.SkillContent(skill.ToolValue{Name: "alpha", Provider: "runtime", ResourceBase: &skill.ResourceBase{Kind: "directory", Path: "/skills/alpha", URL: "skill://alpha/", Description: "ask the host"}, Content: "Do alpha."})
				if err != nil {
					t.Fatal(err)
				}
			}
			resp, err := NewEngine().ExecuteSkillTool(context.Background(), h, mount(), &skillcatalogv1.ExecuteSkillToolRequest{ArgumentsJson: tc.args, Cwd: "/w", AgentScope: "global"})
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetText() != want || resp.GetIsError() != tc.isError {
				t.Errorf("result = %q (error %v), want %q (error %v)", resp.GetText(), resp.GetIsError(), want, tc.isError)
			}
			if h.gets != tc.wantGets {
				t.Errorf("GetSkill calls = %d, want %d", h.gets, tc.wantGets)
			}
			if !tc.isError {
				want := &skillcatalogv1.SkillToolValue{Name: "alpha", Provider: "runtime", ResourceBase: base("directory"), Content: "Do alpha."}
				if diff := cmp.Diff(want, resp.GetValue(), protocmp.Transform()); diff != "" {
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
		{raw: `{"catalogDescriptionMaxLenght": 10}`, wantErr: `unknown plugin option "catalogDescriptionMaxLenght" (known options: catalogDescriptionMaxLength)`},
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

func TestBaselineIsNotParsedTwice(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := NewEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, mount(), req))
	for i := 0; i < 10; i++ {
		h.appendSource(nil)
		mustPreStep(t, e, h, mount(), step(h, enter()))
	}
	// Compaction of an unrelated range forces a full rescan, which meets
	// the same catalog record again.
	h.hide(5, 6)
	mustPreStep(t, e, h, mount(), step(h, enter()))
	if e.parses != 1 {
		t.Errorf("catalog records parsed %d times, want 1", e.parses)
	}
}

func TestUnboundMountIsAnError(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	_, err := NewEngine().PreStep(context.Background(), h, Mount{Config: DefaultConfig()}, step(h, enter()))
	if !errors.Is(err, errUnbound) {
		t.Fatalf("err = %v, want errUnbound", err)
	}
}

func TestNotModifiedAfterConcurrentEviction(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := NewEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, mount(), req))
	// Other steps evict every view while this one waits for the host.
	h.onSnapshot = func() {
		e.mu.Lock()
		e.views = lru.New[string, *view](maxViews)
		e.mu.Unlock()
	}
	resp := mustPreStep(t, e, h, mount(), step(h, enter()))
	if resp.GetOutcome() != skillcatalogv1.Outcome_OUTCOME_UNCHANGED {
		t.Fatalf("outcome = %v, want unchanged", resp.GetOutcome())
	}
}

func TestCatalogMessageIDsAreUniqueAndStable(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := NewEngine()
	req := step(h, enter())
	first := h.apply(t, req, mustPreStep(t, e, h, mount(), req))[0].GetId()
	h.skills = append(h.skills, summary("beta", "B."))
	h.token = "tok-2"
	req = step(h, enter())
	resp := mustPreStep(t, e, h, mount(), req)
	again := mustPreStep(t, NewEngine(), h, mount(), step(h, enter())) // a restarted plugin
	second := resp.GetEdits()[0].GetAppend().GetId()
	if first == second {
		t.Errorf("two catalogs of one session share the id %q", first)
	}
	if got := again.GetEdits()[0].GetAppend().GetId(); got != second {
		t.Errorf("restarted plugin named the catalog %q, want %q", got, second)
	}
}

func TestSurfaceChangeGoesStraightToOneFullScan(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	e := NewEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, mount(), req))
	mustPreStep(t, e, h, mount(), step(h, enter()))
	h.appendSource(nil)
	h.hide(2, 2)
	reads := h.reads
	mustPreStep(t, e, h, mount(), step(h, enter()))
	if got := h.reads - reads; got != 1 {
		t.Errorf("compaction cost %d reads, want one full scan", got)
	}
}

func TestMisbehavingEventPagesAreErrors(t *testing.T) {
	head := &skillcatalogv1.SessionHead{HeadSeq: 10}
	ev := func(seq uint64) *skillcatalogv1.SessionEvent {
		return &skillcatalogv1.SessionEvent{Seq: seq, Visible: true}
	}
	for name, pages := range map[string][]*skillcatalogv1.ReadEventsResponse{
		"more without events": {{Head: head, More: true}},
		"seq not decreasing":  {{Head: head, Events: []*skillcatalogv1.SessionEvent{ev(10), ev(10)}, More: true}},
		"page revisits seqs":  {{Head: head, Events: []*skillcatalogv1.SessionEvent{ev(10), ev(9)}, More: true}, {Head: head, Events: []*skillcatalogv1.SessionEvent{ev(9)}}},
	} {
		t.Run(name, func(t *testing.T) {
			h := newMemHost(summary("alpha", "A."))
			h.pages = pages
			if _, err := NewEngine().PreStep(context.Background(), h, mount(), step(h, enter())); err == nil {
				t.Fatal("a misbehaving host's pages were accepted")
			}
		})
	}
}

func TestSeveralProposedCatalogs(t *testing.T) {
	entA := digest.Entry{Name: "alpha", Description: "A."}
	h := newMemHost(summary("alpha", "A."), summary("beta", "B."))
	req := step(h, enter(catalogMsg("c1", false, entA), userMsg("u", "x"), catalogMsg("c2", false, entA)))
	final := h.apply(t, req, mustPreStep(t, NewEngine(), h, mount(), req))
	var ids []string
	for _, m := range final {
		ids = append(ids, m.GetId())
	}
	if diff := cmp.Diff([]string{"c1", "u"}, ids); diff != "" {
		t.Errorf("final ids (-want +got):\n%s", diff)
	}
	if c, _ := events.ParseCatalog(final[0].GetSourceJson()); len(c.Entries) != 2 {
		t.Errorf("the first proposal was not replaced by the current catalog: %s", final[0].GetSourceJson())
	}
}
