package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

func budgetMount(budget int) mount {
	m := testMount()
	m.cfg.CatalogBudget = budget
	return m
}

// wantFitted is the reference of a budgeted catalog: the model-invocable
// skills' capped entries, fitted by render.FitCatalog.
func wantFitted(t *testing.T, skills []skill.Summary, maxLen, budget int) render.Fit {
	t.Helper()
	var entries []digest.Entry
	sorted := slices.Clone(skills)
	slices.SortFunc(sorted, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	for _, s := range sorted {
		if s.Invocation.ModelInvocable && skill.ValidListedName(s.Name) { // addressable names, as rule 4 lists them
			entries = append(entries, digest.Entry{Name: s.Name, Description: render.NormalizeDescription(s.Description, maxLen), Origin: s.Origin, OriginKind: recordedKind(s)})
		}
	}
	fit, err := render.FitCatalog(entries, budget)
	if err != nil {
		t.Fatal(err)
	}
	return fit
}

func linesOf(entries []digest.Entry) [][]byte {
	var out [][]byte
	for _, e := range entries {
		out = append(out, render.AppendEntryLine(nil, e))
	}
	return out
}

// TestBudgetedCatalog: with a budget the published catalog is the fitted
// one, text and record; what was shortened or left out is reported with
// it; the next step with the same skills publishes nothing and reports
// nothing.
func TestBudgetedCatalog(t *testing.T) {
	skills := []skill.Summary{
		summary("alpha", "Short."),
		summary("beta", strings.Repeat("Beta does a lot of things. ", 5)),
		summary("gamma", strings.Repeat("Gamma & more <things>. ", 5)),
		summary("omega", "Last in name order."),
	}
	for _, tc := range []struct {
		name            string
		budget          int
		shortened, left bool
	}{
		{"fits", 10000, false, false},
		{"shortened", 150, true, false},
		{"left out", 30, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(skills...)
			e := newEngine()
			m := budgetMount(tc.budget)
			req := step(h, enter())
			resp := mustPreStep(t, e, h, m, req)
			if resp.Outcome != contract.OutcomeInitial {
				t.Fatalf("outcome %v, want initial", resp.Outcome)
			}
			fit := wantFitted(t, skills, m.cfg.DescriptionMaxLength, tc.budget)
			if (fit.NumShortened > 0) != tc.shortened || (fit.Omitted > 0) != tc.left {
				t.Fatalf("the case does not exercise what it says: %+v", fit)
			}
			final := h.apply(t, req, resp)
			if got, want := final[0].Text(), render.AssembleCatalogSeq(slices.Values(linesOf(fit.Entries)), false, fit.Omitted, render.CatalogNotes{}); got != want {
				t.Errorf("catalog text (-want +got):\n%s", cmp.Diff(want, got))
			}
			c, ok := events.ParseCatalog(final[0].Source)
			if !ok || c.Digest != digest.OfOmitting(fit.Entries, fit.Omitted) || c.Omitted != fit.Omitted {
				t.Errorf("record %s does not publish the fitted entries %v", final[0].Source, fit.Entries)
			}
			if n := len(resp.Diagnostics); n != btoi(tc.shortened)+btoi(tc.left) {
				t.Errorf("diagnostics %q, want one for each of shortened (%v) and left out (%v)", resp.Diagnostics, tc.shortened, tc.left)
			}
			for _, d := range resp.Diagnostics {
				if !strings.HasPrefix(d, fmt.Sprintf("catalogBudget %d: ", tc.budget)) {
					t.Errorf("diagnostic %q does not name the option and the budget", d)
				}
			}
			if tc.left && !strings.Contains(resp.Diagnostics[len(resp.Diagnostics)-1], "omega") {
				t.Errorf("diagnostic %q does not name the skill left out", resp.Diagnostics)
			}

			again := mustPreStep(t, e, h, m, step(h, enter()))
			if again.Outcome != contract.OutcomeUnchanged || len(again.Edits) != 0 || len(again.Diagnostics) != 0 {
				t.Errorf("second step with the same skills: %+v, want unchanged without edits or diagnostics", again)
			}
			// A restarted plugin reaches the same decision.
			if r := mustPreStep(t, newEngine(), h, m, step(h, enter())); r.Outcome != contract.OutcomeUnchanged {
				t.Errorf("restarted plugin: outcome %v, want unchanged", r.Outcome)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBudgetLeftOutCountIsPublished: a skill added where the budget leaves
// it out changes no entry, but it changes how many skills the catalog says
// were left out, so a replacement with the new count is published.
func TestBudgetLeftOutCountIsPublished(t *testing.T) {
	h := newMemHost(summary("alpha", "A."), summary("beta", "B."), summary("gamma", "G."))
	e := newEngine()
	m := budgetMount(20) // "-`alpha`: A.\n" is 13 characters: only alpha fits
	req := step(h, enter())
	first := h.apply(t, req, mustPreStep(t, e, h, m, req))
	if !strings.Contains(first[0].Text(), "\n2 more skills are available but not listed") {
		t.Fatalf("initial catalog %q does not say 2 skills were left out", first[0].Text())
	}
	h.skills = append(h.skills, summary("zeta", "Z."))
	h.token = "tok-2"
	req = step(h, enter())
	resp := mustPreStep(t, e, h, m, req)
	if resp.Outcome != contract.OutcomeReplacement {
		t.Fatalf("outcome %v, want a replacement with the new count", resp.Outcome)
	}
	final := h.apply(t, req, resp)
	if !strings.Contains(final[0].Text(), "\n3 more skills are available but not listed") {
		t.Errorf("replacement %q does not say 3 skills were left out", final[0].Text())
	}
	if c, ok := events.ParseCatalog(final[0].Source); !ok || c.Omitted != 3 || len(c.Entries) != 1 {
		t.Errorf("record %s does not publish one entry and 3 left out", final[0].Source)
	}
	if r := mustPreStep(t, newEngine(), h, m, step(h, enter())); r.Outcome != contract.OutcomeUnchanged {
		t.Errorf("a restarted plugin reading the record back: outcome %v, want unchanged", r.Outcome)
	}
}

// TestBudgetLeftOutSkillsStillLoad: a skill the budget left out of the
// catalog is still listed, so the `skill` tool loads it by name.
func TestBudgetLeftOutSkillsStillLoad(t *testing.T) {
	h := newMemHost(summary("alpha", "A."), summary("omega", "O."))
	h.defs["omega"] = skill.Definition{Summary: summary("omega", "O."), Content: "omega body"}
	e := newEngine()
	m := budgetMount(12) // below the configurable bound: only alpha's name fits
	mustPreStep(t, e, h, m, step(h, enter()))
	res, err := e.executeSkillTool(context.Background(), h, m, contract.ToolCall{Arguments: json.RawMessage(`{"name":"omega"}`)})
	if err != nil || res.IsError || res.Value == nil || res.Value.Content != "omega body" {
		t.Errorf("loading a left-out skill: %+v, %v", res, err)
	}
}

// viewOutput is what a view publishes: its catalog's lines and record
// members, digest, count left out and diagnostics.
type viewOutput struct {
	Lines, Records string
	Digest         digest.Digest
	Omitted        int
	Diagnostics    string
}

func outputOf(v *view.View) viewOutput {
	var lines, records []byte
	for p := range v.Lines() {
		lines = append(lines, p...)
	}
	for p := range v.Records() {
		records = append(records, p...)
	}
	return viewOutput{string(lines), string(records), v.Digest(), v.Omitted(), strings.Join(v.Diagnostics(), "\n")}
}

// TestFittedViewIsCachedAndBuiltOn: a step whose host hint names a known
// snapshot uses the fitted view without fitting again, and the next
// snapshot's view is built on the unfitted one, equal to a fresh build.
func TestFittedViewIsCachedAndBuiltOn(t *testing.T) {
	var skills []skill.Summary
	for i := range 40 {
		skills = append(skills, summary(fmt.Sprintf("skill-%02d", i), strings.Repeat(fmt.Sprintf("Skill %d does things. ", i), 4)))
	}
	h := newMemHost(skills...)
	e := newEngine()
	m := budgetMount(2000)
	mustPreStep(t, e, h, m, step(h, enter()))
	key := h.token + "\x00500/2000/s"
	first, ok := e.views.Get(key)
	if !ok || first.Unfitted() == first {
		t.Fatalf("no fitted view cached under %q", key)
	}
	req := step(h, enter())
	req.SnapshotToken = h.token
	snaps := h.snapshots
	mustPreStep(t, e, h, m, req)
	if v, _ := e.views.Get(key); v != first || h.snapshots != snaps {
		t.Errorf("the steady-state step did not use the cached fitted view")
	}

	for _, change := range []func([]skill.Summary) []skill.Summary{
		func(s []skill.Summary) []skill.Summary { s[3].Description = "Now short."; return s },
		func(s []skill.Summary) []skill.Summary { return append(s, summary("skill-99", "Added.")) },
		func(s []skill.Summary) []skill.Summary { return slices.Delete(s, 0, 5) },
	} {
		h.skills = change(slices.Clone(h.skills))
		h.token += "+"
		mustPreStep(t, e, h, m, step(h, enter()))
		got, ok := e.views.Get(h.token + "\x00500/2000/s")
		if !ok {
			t.Fatal("no view cached for the new snapshot")
		}
		unfitted := view.Build(h.skills, 500, nil)
		if diff := cmp.Diff(outputOf(view.Fit(unfitted, 2000)), outputOf(got)); diff != "" {
			t.Errorf("the fitted view built on the previous one differs from a fresh one (-fresh +built on):\n%s", diff)
		}
		if got.Unfitted() == got || outputOf(got.Unfitted()) != outputOf(unfitted) {
			t.Errorf("the fitted view does not keep the unfitted view it was fitted from")
		}
	}
}

// BenchmarkBudgetSteadyState measures one PreStep of an established
// session with 10,000 skills, with and without a catalog budget (one that
// shortens every description): the fitted view is cached with the
// snapshot, so the steady state costs the same.
func BenchmarkBudgetSteadyState(b *testing.B) {
	const n = 10000
	for _, c := range []struct {
		name   string
		budget int
	}{{"budget=none", 0}, {"budget=400000", 400000}} {
		b.Run(fmt.Sprintf("skills=%d/%s", n, c.name), func(b *testing.B) {
			h := newMemHost(manySkills(n)...)
			e := newEngine()
			m := budgetMount(c.budget)
			ctx := context.Background()
			resp, err := e.preStep(ctx, h, m, step(h, enter()))
			if err != nil {
				b.Fatal(err)
			}
			if c.budget > 0 && len(resp.Diagnostics) == 0 {
				b.Fatal("the budget shortened nothing")
			}
			for _, ed := range resp.Edits {
				h.appendSource(ed.Message.Source)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				req := step(h, enter())
				req.SnapshotToken = h.token
				resp, err := e.preStep(ctx, h, m, req)
				if err != nil || resp.Outcome != contract.OutcomeUnchanged {
					b.Fatalf("outcome %v, err %v", resp.Outcome, err)
				}
			}
		})
	}
}

// BenchmarkBudgetNewSnapshot measures building and fitting the view of a
// snapshot the plugin has not seen, 10,000 skills, with and without a
// budget.
func BenchmarkBudgetNewSnapshot(b *testing.B) {
	const n = 10000
	for _, c := range []struct {
		name   string
		budget int
	}{{"budget=none", 0}, {"budget=400000", 400000}} {
		b.Run(fmt.Sprintf("skills=%d/%s", n, c.name), func(b *testing.B) {
			h := newMemHost(manySkills(n)...)
			e := newEngine()
			m := budgetMount(c.budget)
			ctx := context.Background()
			resp, err := e.preStep(ctx, h, m, step(h, enter()))
			if err != nil {
				b.Fatal(err)
			}
			for _, ed := range resp.Edits {
				h.appendSource(ed.Message.Source)
			}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				i++
				h.token = fmt.Sprintf("tok-%d", i)
				if _, err := e.preStep(ctx, h, m, step(h, enter())); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
