package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/internal/bytelru"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestParseConfigEdges: the bounds of each option are inclusive, a value
// is echoed compacted and cut at 64 bytes, and a blank or null
// configuration is told apart.
func TestParseConfigEdges(t *testing.T) {
	t.Parallel()
	const budgetBound = "catalogBudget must be 0 (no budget) or an integer from 100 to 2147483647, got "
	long := func(n int) string { return `"` + strings.Repeat("x", n-2) + `"` } // n bytes of JSON
	tests := []struct {
		raw       string
		maxLen    int
		budget    int
		userInv   bool
		resources bool
		wantErr   string
	}{
		{raw: " \n\t ", maxLen: 500, budget: contract.DefaultCatalogBudget},
		{raw: `{"catalogDescriptionMaxLength": 90}`, maxLen: 90, budget: contract.DefaultCatalogBudget},
		{raw: `{"catalogDescriptionMaxLength": 9}`, maxLen: 9, budget: contract.DefaultCatalogBudget},
		{raw: `{"catalogDescriptionMaxLength": 0}`, wantErr: "catalogDescriptionMaxLength must be an integer >= 3, got 0"},
		{raw: `{"catalogBudget": 0, "userInvocation": true, "resourceTool": true}`, maxLen: 500, budget: contract.NoCatalogBudget, userInv: true, resources: true},
		{raw: `{"catalogBudget": 100}`, maxLen: 500, budget: 100},
		{raw: `{"catalogBudget": 900}`, maxLen: 500, budget: 900},
		{raw: `{"catalogBudget": [1, 2]}`, wantErr: budgetBound + "[1,2]"},
		{raw: `{"catalogBudget": { "a" : 1 }}`, wantErr: budgetBound + `{"a":1}`},
		{raw: `{"catalogBudget": ` + long(64) + `}`, wantErr: budgetBound + long(64)},
		{raw: `{"catalogBudget": ` + long(65) + `}`, wantErr: budgetBound + long(65)[:61] + "..."},
		{raw: `{"userInvocation": [ true ]}`, wantErr: "userInvocation must be true or false, got [true]"},
		{raw: `null`, wantErr: "plugin configuration must be a JSON object of options"},
		{raw: `{"b": 1, "a": 2}`, wantErr: `unknown plugin option "a" (known options: catalogBudget, catalogDescriptionMaxLength, invocationArguments, invocationForm, reattachBudget, reattachSkillMaxLength, relevantSkills, resourceTool, searchTool, userInvocation)`},
	}
	for _, tc := range tests {
		cfg, err := ParseConfig(tc.raw)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseConfig(%s) error = %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		want := contract.MountOptions{DescriptionMaxLength: tc.maxLen, CatalogBudget: tc.budget, UserInvocation: tc.userInv, ResourceTool: tc.resources}
		if err != nil || cfg != want {
			t.Errorf("ParseConfig(%s) = %+v, %v; want %+v", tc.raw, cfg, err, want)
		}
	}
}

// TestCoreMountIDsAndLog: mounts are numbered from 1 and each is logged
// to the logger the Core was given.
func TestCoreMountIDsAndLog(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	c := New(&Options{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	h := newMemHost()
	var ids []string
	for range 2 {
		m, err := c.Configure(context.Background(), h, contract.ConfigureRequest{Scope: "global", Config: `{"resourceTool": true}`})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.MountID)
		if len(m.Tools) != 2 || m.Tools[1].Name != contract.ResourceToolName {
			t.Errorf("tools = %+v, want skill and the resource tool", m.Tools)
		}
	}
	if diff := cmp.Diff([]string{"mount-1", "mount-2"}, ids); diff != "" {
		t.Errorf("mount ids (-want +got):\n%s", diff)
	}
	for _, want := range []string{"msg=mounted mount=mount-1 scope=global", "msg=mounted mount=mount-2"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestResourceToolOfAnUnboundMount: before the host binds `skill`, no
// agent's `skill` is the mount's, so the resource tool reads nothing, even
// for a call that names no identity either.
func TestResourceToolOfAnUnboundMount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newResHost(summary("alpha", "A."))
	h.files["alpha/a.md"] = "text"
	c := New(nil)
	m, err := c.Configure(ctx, h, contract.ConfigureRequest{Config: `{"resourceTool": true}`})
	if err != nil {
		t.Fatal(err)
	}
	call := contract.ToolCall{MountID: m.MountID, ToolName: contract.ResourceToolName, Arguments: json.RawMessage(`{"name":"alpha","path":"a.md"}`)}
	res, err := c.ExecuteSkillTool(ctx, call)
	if want := string(render.ResourceToolWithoutSkill()); err != nil || res.Text != want || !res.IsError {
		t.Errorf("unbound mount: %+v, %v; want %q", res, err, want)
	}
	if len(h.asked) != 0 {
		t.Errorf("the host was asked for %d resources", len(h.asked))
	}
	if err := c.BindTools(ctx, m.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
		t.Fatal(err)
	}
	call.SkillToolIdentity = identity
	if res, err := c.ExecuteSkillTool(ctx, call); err != nil || res.IsError || res.Resource.Content != "text" {
		t.Errorf("bound mount: %+v, %v; want the file", res, err)
	}
}

// TestInvocationErrorIsAHostFailure: an invocation error matches
// ErrHostFailed and nothing else.
func TestInvocationErrorIsAHostFailure(t *testing.T) {
	t.Parallel()
	var err error = &invocationError{Name: "alpha", Message: "broken"}
	if !errors.Is(err, contract.ErrHostFailed) {
		t.Error("an InvocationError does not match ErrHostFailed")
	}
	for _, other := range []error{contract.ErrUnbound, contract.ErrUnknownMount, errors.New("other")} {
		if errors.Is(err, other) {
			t.Errorf("an InvocationError matches %v", other)
		}
	}
	if want := `load skill "alpha" invoked by the user: broken`; err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
}

// finalIDs applies a step's edits to its proposal and returns the ids.
func finalIDs(t *testing.T, req contract.StepRequest, resp contract.StepResponse) []string {
	t.Helper()
	final, err := req.Downstream.Apply(resp.Edits)
	if err != nil {
		t.Fatalf("apply edits: %v", err)
	}
	var ids []string
	for _, m := range final.Messages {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestProposedCatalogsAtEveryIndex: the rules treat a proposed catalog at
// any index alike, first ones and adjacent ones included.
func TestProposedCatalogsAtEveryIndex(t *testing.T) {
	t.Parallel()
	entA := digest.Entry{Name: "alpha", Description: "A."}
	entB := digest.Entry{Name: "beta", Description: "B."}
	both := digest.Of([]digest.Entry{entA, entB})
	tests := []struct {
		name     string
		skills   []skill.Summary
		history  [][]byte
		proposed []contract.Message
		outcome  contract.Outcome
		want     []string
	}{
		{
			name:     "seen catalog: adjacent duplicates removed",
			skills:   []skill.Summary{summary("alpha", "A.")},
			history:  [][]byte{events.EncodeCatalog([]digest.Entry{entA}, false)},
			proposed: []contract.Message{catalogMsg("c0", true, entA), catalogMsg("c1", true, entA), userMsg("u", "x")},
			outcome:  contract.OutcomeUnchanged,
			want:     []string{"u"},
		},
		{
			name:     "never published, empty view: adjacent stale catalogs removed",
			proposed: []contract.Message{catalogMsg("c0", false, entA), catalogMsg("c1", false, entB), userMsg("u", "x")},
			outcome:  contract.OutcomeUnchanged,
			want:     []string{"u"},
		},
		{
			name:     "current catalog proposed twice: the first is kept",
			skills:   []skill.Summary{summary("alpha", "A."), summary("beta", "B.")},
			proposed: []contract.Message{catalogMsg("c0", false, entA, entB), userMsg("u", "x"), catalogMsg("c2", false, entA, entB)},
			outcome:  contract.OutcomeUnchanged,
			want:     []string{"c0", "u"},
		},
		{
			name:     "current catalog proposed after a stale one: it is kept, the stale one removed",
			skills:   []skill.Summary{summary("alpha", "A."), summary("beta", "B.")},
			proposed: []contract.Message{catalogMsg("c0", false, entA), catalogMsg("c1", false, entA, entB)},
			outcome:  contract.OutcomeUnchanged,
			want:     []string{"c1"},
		},
		{
			name:     "stale catalogs at 0 and 1: the first replaced, the second removed",
			skills:   []skill.Summary{summary("alpha", "A."), summary("beta", "B.")},
			proposed: []contract.Message{catalogMsg("c0", false, entA), catalogMsg("c1", false, entB), userMsg("u", "x")},
			outcome:  contract.OutcomeInitial,
			want:     []string{catalogMessageID("s1", contract.SessionHead{}, both), "u"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(tc.skills...)
			for _, src := range tc.history {
				h.appendSource(src)
			}
			req := step(h, enter(tc.proposed...))
			resp := mustPreStep(t, newEngine(), h, testMount(), req)
			if resp.Outcome != tc.outcome {
				t.Errorf("outcome = %v, want %v", resp.Outcome, tc.outcome)
			}
			if diff := cmp.Diff(tc.want, finalIDs(t, req, resp)); diff != "" {
				t.Errorf("final ids (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBudgetedAndUnbudgetedMountsShareNoView: two mounts of one engine
// with the same description cap, one with a budget, see the same
// snapshot token; each gets its own projection.
func TestBudgetedAndUnbudgetedMountsShareNoView(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for _, n := range []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"} {
		skills = append(skills, summary(n, strings.Repeat("A long description of "+n+". ", 8)))
	}
	h := newMemHost(skills...)
	e := newEngine()
	plain := mustPreStep(t, e, h, testMount(), step(h, enter()))
	req := step(h, enter())
	req.SnapshotToken = h.token
	budgeted := mustPreStep(t, e, h, budgetMount(render.MinCatalogBudget), req)
	if len(budgeted.Diagnostics) == 0 {
		t.Error("the budgeted mount's catalog was not fitted")
	}
	if plain.Edits[0].Message.Content[0].Text == budgeted.Edits[0].Message.Content[0].Text {
		t.Error("the budgeted mount published the unbudgeted catalog")
	}
	// And the other way round, on a fresh engine.
	e = newEngine()
	mustPreStep(t, e, h, budgetMount(render.MinCatalogBudget), step(h, enter()))
	again := mustPreStep(t, e, h, testMount(), req)
	if len(again.Diagnostics) != 0 || again.Edits[0].Message.Content[0].Text != plain.Edits[0].Message.Content[0].Text {
		t.Error("the unbudgeted mount published the budgeted catalog")
	}
}

// TestNotModifiedToAnUnconditionalRequest: a host that answers "not
// modified" when the plugin holds nothing fails the step.
func TestNotModifiedToAnUnconditionalRequest(t *testing.T) {
	t.Parallel()
	h := &scriptedSnapshotHost{memHost: newMemHost(), answer: contract.Snapshot{NotModified: true, Complete: true, Token: "tok-1"}}
	_, err := newEngine().preStep(context.Background(), h, testMount(), step(h.memHost, enter()))
	if !errors.Is(err, contract.ErrHostFailed) || !strings.Contains(err.Error(), "not modified to an unconditional request") {
		t.Errorf("err = %v, want a host failure", err)
	}
	// The `skill` tool checks its listing on the same snapshot.
	_, err = newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("skill tool: err = %v, want a host failure", err)
	}
	_, err = newEngine().executeResourceTool(context.Background(), h, resourceMount(), contract.ToolCall{Arguments: json.RawMessage(`{"name":"alpha","path":"a.md"}`)})
	if !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("resource tool: err = %v, want a host failure", err)
	}
}

// eventsHost records the pages the plugin asks for.
type eventsHost struct {
	*memHost
	asked []contract.EventsRequest
	// surfaceOnRead, when set, changes the surface revision the log
	// reports at each read after the first of a scan.
	surfaceOnRead bool
}

func (h *eventsHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	h.asked = append(h.asked, req)
	if h.surfaceOnRead && req.BeforeSeq != 0 {
		h.surface++
	}
	return h.memHost.ReadEvents(ctx, req)
}

func (h *eventsHost) sizes() []int {
	var out []int
	for _, r := range h.asked {
		out = append(out, r.MaxEvents)
	}
	return out
}

// TestScanPageSizes: a scan from nothing starts with a small page and
// doubles it up to the largest; a scan that continues a remembered one asks
// for every new event at once.
func TestScanPageSizes(t *testing.T) {
	t.Parallel()
	h := &eventsHost{memHost: newMemHost(summary("alpha", "A."))}
	for range 9000 {
		h.appendSource(nil)
	}
	e := newEngine()
	req := step(h.memHost, enter())
	resp, err := e.preStep(context.Background(), h, testMount(), req)
	if err != nil || resp.Outcome != contract.OutcomeInitial {
		t.Fatalf("first step: %v, %v", resp.Outcome, err)
	}
	want := []int{64, 128, 256, 512, 1024, 2048, 4096, 4096}
	if diff := cmp.Diff(want, h.sizes()); diff != "" {
		t.Errorf("page sizes of a full scan (-want +got):\n%s", diff)
	}
	h.apply(t, req, resp)
	for range 299 {
		h.appendSource(nil)
	}
	h.asked = nil
	if _, err := e.preStep(context.Background(), h, testMount(), step(h.memHost, enter())); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{300}, h.sizes()); diff != "" {
		t.Errorf("page sizes of a continued scan (-want +got):\n%s", diff)
	}
	if h.asked[0].AfterSeq != 9000 {
		t.Errorf("continued scan after %d, want 9000", h.asked[0].AfterSeq)
	}
	// A step without a head hint continues from what is remembered too,
	// with a first page.
	h.appendSource(nil)
	h.asked = nil
	req = step(h.memHost, enter())
	req.Head = nil
	if resp, err := e.preStep(context.Background(), h, testMount(), req); err != nil || resp.Outcome != contract.OutcomeUnchanged {
		t.Fatalf("step without a head: %v, %v", resp.Outcome, err)
	}
	if len(h.asked) != 1 || h.asked[0].AfterSeq != 9300 || h.asked[0].MaxEvents != firstEventsPage {
		t.Errorf("step without a head asked %+v, want one first page after 9300", h.asked)
	}
}

// TestCatalogBeyondTheFirstPage: a scan from nothing reads page after page
// until it meets the catalog.
func TestCatalogBeyondTheFirstPage(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."))
	h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}}, false))
	for range 200 {
		h.appendSource(nil)
	}
	resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter()))
	if resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 0 {
		t.Errorf("outcome %v with %d edits, want the catalog 200 events back found", resp.Outcome, len(resp.Edits))
	}
	if h.reads != 3 {
		t.Errorf("%d reads, want pages of 64, 128 and 256", h.reads)
	}
}

// TestScanStopsAtTheFirstEvent: a page that reaches the first event ends
// the scan, whatever the host says about more.
func TestScanStopsAtTheFirstEvent(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."))
	h.pages = []contract.EventPage{{
		Head:   contract.SessionHead{Seq: 2},
		Events: []contract.SessionEvent{{Seq: 2, Visible: true}, {Seq: 1, Visible: true}},
		More:   true,
	}}
	req := step(h, enter())
	req.Head = &contract.SessionHead{Seq: 2}
	resp := mustPreStep(t, newEngine(), h, testMount(), req)
	if resp.Outcome != contract.OutcomeInitial || h.reads != 1 {
		t.Errorf("outcome %v after %d reads, want initial after 1", resp.Outcome, h.reads)
	}
}

// TestUnstableSurfaceIsRescanned: a surface that changes between the pages
// of a scan restarts it, a bounded number of times.
func TestUnstableSurfaceIsRescanned(t *testing.T) {
	t.Parallel()
	newHost := func(unstable int) *settlingHost {
		h := &eventsHost{memHost: newMemHost(summary("alpha", "A."))}
		h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}}, false))
		for range 100 {
			h.appendSource(nil)
		}
		return &settlingHost{eventsHost: h, unstable: unstable}
	}
	// Four unstable scans: the step fails, though a fifth would have
	// been stable.
	h := newHost(maxRescanAttempts)
	_, err := newEngine().preStep(context.Background(), h, catalogMount(), step(h.memHost, enter()))
	if !errors.Is(err, contract.ErrHostFailed) || !strings.Contains(err.Error(), "during 4 scans") {
		t.Errorf("err = %v, want a host failure after 4 scans", err)
	}
	if len(h.asked) != 8 {
		t.Errorf("%d reads, want 4 scans of 2 pages", len(h.asked))
	}

	// Once the surface settles, the scan completes.
	h = newHost(2)
	resp, err := newEngine().preStep(context.Background(), h, catalogMount(), step(h.memHost, enter()))
	if err != nil || resp.Outcome != contract.OutcomeUnchanged {
		t.Fatalf("settled scan: %v, %v", resp.Outcome, err)
	}
	if len(h.asked) != 6 {
		t.Errorf("%d reads, want 2 unstable scans of 2 pages and one of 2", len(h.asked))
	}
}

// settlingHost changes the surface between the pages of its first
// unstable scans only.
type settlingHost struct {
	*eventsHost
	unstable int
}

func (h *settlingHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	h.surfaceOnRead = h.unstable > 0
	if req.BeforeSeq != 0 && h.unstable > 0 {
		h.unstable--
	}
	return h.eventsHost.ReadEvents(ctx, req)
}

// TestCompactionSeenOnlyByTheScan: a step whose head hint says the surface
// did not change, while the log it reads says it did, rescans from
// nothing.
func TestCompactionSeenOnlyByTheScan(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req)) // the catalog at seq 1
	mustPreStep(t, e, h, testMount(), step(h, enter()))     // remembered up to seq 1
	h.appendSource(nil)
	stale := *h.head() // seq 2 on the old surface
	h.hide(1, 1)
	req = step(h, enter())
	req.Head = &stale
	resp := mustPreStep(t, e, h, testMount(), req)
	if resp.Outcome != contract.OutcomeReplacement {
		t.Errorf("outcome %v, want the hidden catalog replaced", resp.Outcome)
	}
}

// TestHeadHintAheadOfTheLog: a hint ahead of the log the host then reads
// costs one read, not a rescan.
func TestHeadHintAheadOfTheLog(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	mustPreStep(t, e, h, testMount(), step(h, enter()))
	req = step(h, enter())
	req.Head = &contract.SessionHead{Seq: h.head().Seq + 1}
	reads := h.reads
	if resp := mustPreStep(t, e, h, testMount(), req); resp.Outcome != contract.OutcomeUnchanged {
		t.Errorf("outcome %v, want unchanged", resp.Outcome)
	}
	if h.reads-reads != 1 {
		t.Errorf("%d reads, want 1", h.reads-reads)
	}
}

// TestContinuedScanRefusesOldEvents: a continued scan that gets an event
// the plugin already read fails.
func TestContinuedScanRefusesOldEvents(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."))
	e := newEngine()
	req := step(h, enter())
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	mustPreStep(t, e, h, testMount(), step(h, enter())) // remembered up to seq 1
	ev := func(seq uint64) contract.SessionEvent { return contract.SessionEvent{Seq: seq, Visible: true} }
	h.pages = []contract.EventPage{{Head: contract.SessionHead{Seq: 3}, Events: []contract.SessionEvent{ev(3), ev(2), ev(1)}}}
	req = step(h, enter())
	req.Head = &contract.SessionHead{Seq: 3}
	if _, err := e.preStep(context.Background(), h, testMount(), req); !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("err = %v, want a host failure", err)
	}
}

// TestReadEventsFailure: a failing ReadEvents fails the step.
func TestReadEventsFailure(t *testing.T) {
	t.Parallel()
	h := &failingEventsHost{memHost: newMemHost(summary("alpha", "A."))}
	_, err := newEngine().preStep(context.Background(), h, testMount(), step(h.memHost, enter()))
	if !errors.Is(err, contract.ErrHostFailed) || !strings.Contains(err.Error(), "read session events: gone") {
		t.Errorf("err = %v, want the host failure", err)
	}
}

type failingEventsHost struct{ *memHost }

func (h *failingEventsHost) ReadEvents(context.Context, contract.EventsRequest) (contract.EventPage, error) {
	return contract.EventPage{}, errors.New("gone")
}

// TestResourceReadFailures: a host that cannot read resources, or fails
// to, is told apart from one that refuses a path.
func TestResourceReadFailures(t *testing.T) {
	t.Parallel()
	h := &erringResHost{memHost: newMemHost(summary("alpha", "A.")), err: contract.ErrNoResourceReads}
	res := readCall(t, h, `{"name":"alpha","path":"a.md"}`)
	if want := string(render.ResourceNotReadable("alpha")); res.Text != want || !res.IsError {
		t.Errorf("no resource reads: %q, want %q", res.Text, want)
	}
	h.err = errors.New("disk on fire")
	_, err := newEngine().executeResourceTool(context.Background(), h, resourceMount(), contract.ToolCall{Arguments: json.RawMessage(`{"name":"alpha","path":"a.md"}`)})
	if !errors.Is(err, contract.ErrHostFailed) || !strings.Contains(err.Error(), `read resource "a.md" of skill "alpha": disk on fire`) {
		t.Errorf("failed read: err = %v, want a host failure", err)
	}
}

type erringResHost struct {
	*memHost
	err error
}

func (h *erringResHost) ReadResource(context.Context, contract.ResourceRequest) (contract.ResourceRead, error) {
	return contract.ResourceRead{}, h.err
}

// TestInvocationIDOnAnIncompleteSnapshot: a skill the user invokes at a
// step with an incomplete snapshot is named after the head the step
// follows, or 0 when the step sent none.
func TestInvocationIDOnAnIncompleteSnapshot(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."))
	h.complete = false
	h.defs["alpha"] = definition("alpha", skill.DefaultPolicy(), "Do alpha.")
	for range 3 {
		h.appendSource(nil)
	}
	req := step(h, enter(typed("u1", "/alpha")))
	resp := mustPreStep(t, newEngine(), h, invocationMount(), req)
	if resp.Outcome != contract.OutcomeIncomplete || len(resp.Edits) != 1 {
		t.Fatalf("outcome %v with %d edits, want incomplete with the invocation", resp.Outcome, len(resp.Edits))
	}
	if got := resp.Edits[0].Message.ID; got != "skill-invocation-s1-3-alpha" {
		t.Errorf("id %q, want skill-invocation-s1-3-alpha", got)
	}
	req.Head = nil
	resp = mustPreStep(t, newEngine(), h, invocationMount(), req)
	if len(resp.Edits) != 1 || resp.Edits[0].Message.ID != "skill-invocation-s1-0-alpha" {
		t.Errorf("without a head: edits %+v, want one named skill-invocation-s1-0-alpha", resp.Edits)
	}
}

// TestChangedCatalogIsTheFreshOne: the catalog a plugin publishes after a
// change, built on its previous view, is the one a restarted plugin
// publishes from the same log: text, record and diagnostics.
func TestChangedCatalogIsTheFreshOne(t *testing.T) {
	t.Parallel()
	skills := []skill.Summary{
		summary("alpha", "Alpha."),
		remoteSummary("beta", "Beta, remote.", "docs", "beta"),
		summary("gamma", strings.Repeat("Gamma does many things. ", 6)),
		summary("omega", "Omega."),
	}
	for _, tc := range []struct {
		name   string
		m      mount
		change func(s []skill.Summary)
	}{
		{"local skill changed", testMount(), func(s []skill.Summary) { s[0].Description = "Alpha, changed." }},
		{"remote skill changed", testMount(), func(s []skill.Summary) { s[1].Description = "Beta, changed." }},
		{"under a budget", budgetMount(render.MinCatalogBudget), func(s []skill.Summary) { s[3].Description = "Omega, changed." }},
		{"remote skill gone", testMount(), func(s []skill.Summary) { s[1].Invocation.ModelInvocable = false }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(slices.Clone(skills)...)
			e := newEngine()
			req := step(h, enter())
			h.apply(t, req, mustPreStep(t, e, h, tc.m, req))
			tc.change(h.skills)
			h.token = "tok-2"
			got := mustPreStep(t, e, h, tc.m, step(h, enter()))
			want := mustPreStep(t, newEngine(), h, tc.m, step(h, enter()))
			if got.Outcome != contract.OutcomeReplacement {
				t.Fatalf("outcome %v, want a replacement", got.Outcome)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("step (-restarted +incremental):\n%s", diff)
			}
		})
	}
}

// TestCacheEntriesAreAccounted: each cache entry a step adds costs its
// key, what its value keeps alive and the cache's bookkeeping.
func TestCacheEntriesAreAccounted(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "A."), summary("beta", "B."))
	h.token = "a-rather-long-snapshot-token"
	e := newEngine()
	req := step(h, enter())
	mustPreStep(t, e, h, testMount(), req)
	placeKey := req.Cwd + "\x00" + req.AgentScope + "\x00" + "500/8000/s" // the default cap and budget; it searches
	if got, want := e.lastTokens.Bytes(), len(placeKey)+len(h.token)+bytelru.Bookkeeping[string, string](); got != want {
		t.Errorf("place entry accounted at %d bytes, want %d", got, want)
	}
	key := h.token + "\x00" + "500/8000/s"
	v, ok := e.views.Get(key)
	if !ok {
		t.Fatalf("no view cached under %q", key)
	}
	if got, want := e.views.Bytes(), len(key)+v.Bytes()+bytelru.Bookkeeping[string, *view.View](); got != want {
		t.Errorf("view entry accounted at %d bytes, want %d", got, want)
	}
	if got, want := e.sessions.Bytes(), len(req.SessionID)+bytelru.Bookkeeping[string, sessionState](); got != want {
		t.Errorf("session entry accounted at %d bytes, want %d", got, want)
	}
}

// TestResourceArgumentsNameTheFirstUnexpected: of several fields the
// schema does not allow, the first in sorted order is named, whatever the
// order of the object.
func TestResourceArgumentsNameTheFirstUnexpected(t *testing.T) {
	t.Parallel()
	h := newResHost(summary("alpha", "A."))
	want := string(render.ResourceUnexpectedArgument("beta"))
	for range 20 {
		if res := readCall(t, h, `{"zeta":1,"name":"alpha","path":"a.md","mu":2,"beta":null,"omega":3}`); res.Text != want {
			t.Fatalf("%q, want %q", res.Text, want)
		}
	}
}
