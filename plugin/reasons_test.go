package plugin

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestStepReasons walks one session through every outcome and checks the
// reasons each step gives: the code that explains its outcome, with the
// details an operator needs, then what else applied.
func TestStepReasons(t *testing.T) {
	h := &recordingHost{memHost: newMemHost(summary("alpha", "A."), summary("beta", "B."))}
	h.defs["beta"] = definition("beta", skill.DefaultPolicy(), "Do beta.")
	e := newEngine()
	m := invocationMount()
	r := func(code contract.ReasonCode, detail string) contract.Reason {
		return contract.Reason{Code: code, Detail: detail}
	}
	const (
		current  = "the newest visible catalog in the session log lists the current skills"
		empty    = "there are no skills to list, and the session has no earlier catalog to retire"
		retired  = "no skills are left to list: published the empty catalog that retires every earlier name"
		restrict = "the tool name `skill` resolves to no tool for agent scope \"global\" (restricted away): it sees no skills of this mount"
		shadow   = "the tool name `skill` resolves, for agent scope \"global\", to a definition other than this mount's (shadowed): it sees no skills of this mount"
	)
	steps := []struct {
		name    string
		before  func(req *contract.StepRequest)
		outcome contract.Outcome
		want    []contract.Reason
	}{
		{"rejected", func(req *contract.StepRequest) {
			req.Downstream = contract.Decision{Reject: &contract.Reject{Reason: "no"}}
		},
			contract.OutcomeRejectPassthrough, []contract.Reason{r(contract.ReasonRejectPassthrough, "the downstream decision rejected the step; it passes through untouched")}},
		{"restricted before any catalog", func(req *contract.StepRequest) { req.SkillToolIdentity = "" },
			contract.OutcomeUnchanged, []contract.Reason{r(contract.ReasonToolRestricted, restrict), r(contract.ReasonEmpty, empty)}},
		{"incomplete", func(*contract.StepRequest) { h.complete = false },
			contract.OutcomeIncomplete, []contract.Reason{r(contract.ReasonSnapshotIncomplete, "the host's skill snapshot is incomplete: the catalog the model sees stays as it is until a complete snapshot, tried again at the next step")}},
		{"initial", func(*contract.StepRequest) { h.complete = true },
			contract.OutcomeInitial, []contract.Reason{r(contract.ReasonPublishedInitial, "published the session's first catalog, listing 2 skills")}},
		{"current", nil,
			contract.OutcomeUnchanged, []contract.Reason{r(contract.ReasonCurrent, current)}},
		{"current, with a skill the user invoked", func(req *contract.StepRequest) {
			req.Downstream = enter(typed("u1", "/beta please"))
		}, contract.OutcomeUnchanged, []contract.Reason{r(contract.ReasonCurrent, current), r(contract.ReasonInvoked, `added the instructions of skill "beta", which the user invoked by name`)}},
		{"changed", func(*contract.StepRequest) { h.skills, h.token = h.skills[:1], "tok-2" },
			contract.OutcomeReplacement, []contract.Reason{r(contract.ReasonPublishedReplacement, "the skills changed since the newest visible catalog: published a complete replacement listing 1 skill")}},
		{"compacted", func(req *contract.StepRequest) {
			h.hide(1, uint64(len(h.events)))
			req.Head = h.head()
		}, contract.OutcomeReplacement, []contract.Reason{r(contract.ReasonPublishedReplacement, "no catalog is visible any more (compaction hid it): published a complete replacement listing 1 skill"),
			// The skill the user invoked before was removed since.
			r(contract.ReasonReattached, `attached again the skills a compaction hid: "beta" (gone)`)}},
		{"proposed downstream", func(req *contract.StepRequest) {
			h.skills, h.token = append(h.skills, summary("gamma", "G.")), "tok-3"
			req.Downstream = enter(catalogMsg("c1", true, digest.Entry{Name: "alpha", Description: "A."}, digest.Entry{Name: "gamma", Description: "G."}))
		}, contract.OutcomeUnchanged, []contract.Reason{r(contract.ReasonProposed, "the downstream decision already proposes the current catalog")}},
		{"shadowed", func(req *contract.StepRequest) { req.SkillToolIdentity = "another-definition" },
			contract.OutcomeTombstone, []contract.Reason{r(contract.ReasonToolShadowed, shadow), r(contract.ReasonPublishedTombstone, retired)}},
		{"restricted after the tombstone", func(req *contract.StepRequest) { req.SkillToolIdentity = "" },
			contract.OutcomeUnchanged, []contract.Reason{r(contract.ReasonToolRestricted, restrict), r(contract.ReasonCurrent, current)}},
		{"visible again", nil,
			contract.OutcomeReplacement, []contract.Reason{r(contract.ReasonPublishedReplacement, "the skills changed since the newest visible catalog: published a complete replacement listing 2 skills")}},
		{"tombstone", func(*contract.StepRequest) { h.skills, h.token = nil, "tok-5" },
			contract.OutcomeTombstone, []contract.Reason{r(contract.ReasonPublishedTombstone, retired)}},
	}
	for _, s := range steps {
		req := step(h.memHost, enter())
		if s.before != nil {
			s.before(&req)
		}
		resp, err := e.preStep(context.Background(), h, m, req)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if resp.Outcome != s.outcome {
			t.Fatalf("%s: outcome %s, want %s", s.name, resp.Outcome, s.outcome)
		}
		if diff := cmp.Diff(s.want, resp.Reasons); diff != "" {
			t.Errorf("%s: reasons (-want +got):\n%s", s.name, diff)
		}
		if resp.Outcome != contract.OutcomeRejectPassthrough {
			h.apply(t, req, resp)
		}
	}
}

// TestBudgetReasons: a catalog the budget fitted is published with a
// budget reason for each of its diagnostics, after the outcome's own.
func TestBudgetReasons(t *testing.T) {
	var skills []skill.Summary
	for _, n := range []string{"code-review", "data-viz", "deploy-service", "incident-response", "pdf-tools", "release-notes", "security-audit"} {
		skills = append(skills, summary(n, "The skill "+n+"."))
	}
	h := newMemHost(skills...)
	m := testMount()
	m.cfg.CatalogBudget = 100
	resp := mustPreStep(t, newEngine(), h, m, step(h, enter()))
	want := []contract.Reason{{Code: contract.ReasonPublishedInitial, Detail: "published the session's first catalog, listing 5 skills"}}
	for _, d := range resp.Diagnostics {
		want = append(want, contract.Reason{Code: contract.ReasonBudget, Detail: d})
	}
	if len(resp.Diagnostics) != 2 {
		t.Fatalf("diagnostics %q, want two", resp.Diagnostics)
	}
	if diff := cmp.Diff(want, resp.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

// TestReasonCodesAreKnown: every code of the closed set is known, and
// nothing else is.
func TestReasonCodesAreKnown(t *testing.T) {
	seen := map[contract.ReasonCode]bool{}
	for _, c := range contract.ReasonCodes() {
		if !c.Known() || seen[c] {
			t.Errorf("code %q: known %v, repeated %v", c, c.Known(), seen[c])
		}
		seen[c] = true
	}
	for _, c := range []contract.ReasonCode{"", "unchanged", "Current", "published"} {
		if c.Known() {
			t.Errorf("code %q is known", c)
		}
	}
}
