package view

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestFitViewMatchesFitCatalog: Fit publishes exactly what FitCatalog
// computes from the view's entries, for every budget.
func TestFitViewMatchesFitCatalog(t *testing.T) {
	skills := []skill.Summary{
		summary("a", "x & y < z"), summary("b", "Ünïcödé — 図表を作成します"), summary("c", ""),
		summary("d", strings.Repeat("long ", 30)), summary("e", "short"),
	}
	base := Build(skills, 500, nil)
	for budget := 1; budget < 300; budget++ {
		v := Fit(base, budget)
		fit := wantFitted(t, skills, 500, budget)
		if v.digest != digest.OfOmitting(fit.Entries, fit.Omitted) || v.omitted != fit.Omitted {
			t.Fatalf("budget %d: view digest/omitted differ from FitCatalog's %+v", budget, fit)
		}
		var lines []byte
		for _, e := range fit.Entries {
			lines = render.AppendEntryLine(lines, e)
		}
		if got := joined(v, blockLines); string(got) != string(lines) {
			t.Fatalf("budget %d: lines %q, want %q", budget, got, lines)
		}
		if fit.NumShortened == 0 && fit.Omitted == 0 && v != base {
			t.Fatalf("budget %d: everything fits but a new view was built", budget)
		}
	}
}

// FuzzFitViewReuse: for any two listings and budget, the fitted view of the
// second built on the fitted view of the first (through its unfitted base,
// as currentView does) is the fitted view of the second built from
// nothing, and publishes what render.FitCatalog computes.
func FuzzFitViewReuse(f *testing.F) {
	f.Add([]byte("alpha=A long one;beta=B;gamma=G & g"), []byte("alpha=A long one;beta=B2;gamma=G & g;omega=O"), uint8(40), uint16(30))
	f.Add([]byte("a=x;b=y"), []byte("a=x;b=y;c=z"), uint8(3), uint16(1))
	f.Add([]byte("a=~x long;b=^y long;c=z"), []byte("a=^x long;b=^y long;c=~z"), uint8(40), uint16(60))
	f.Fuzz(func(t *testing.T, first, second []byte, maxLen uint8, budget uint16) {
		capLen, b := int(maxLen%64)+3, int(budget%512)+1
		prev := Fit(Build(parseListing(first), capLen, nil), b)
		next := parseListing(second)
		got := Fit(Build(next, capLen, prev.Unfitted()), b)
		want := Fit(Build(next, capLen, nil), b)
		if !sameContent(got, want) || got.omitted != want.omitted || !slices.Equal(got.diagnostics, want.diagnostics) {
			t.Fatalf("incremental fitted view of %q after %q differs from a fresh one", second, first)
		}
		fit := wantFitted(t, sortedUnique(next), capLen, b)
		if got.digest != digest.OfOmitting(fit.Entries, fit.Omitted) || got.omitted != fit.Omitted {
			t.Fatalf("fitted view of %q at budget %d is not FitCatalog's %+v", second, b, fit)
		}
	})
}

// fitFor returns the smallest budget from 1 up at which entries fit as
// pred wants, and the fit.
func fitFor(t *testing.T, v *View, pred func(render.Fit) bool) (int, render.Fit) {
	t.Helper()
	entries := v.catalogEntries()
	for budget := 1; budget < 100000; budget++ {
		fit, err := render.FitCatalog(entries, budget)
		if err == nil && pred(fit) {
			return budget, fit
		}
	}
	t.Fatal("no budget fits as wanted")
	return 0, render.Fit{}
}

// TestFitDiagnostics: the diagnostics of a fitted view say exactly what
// was shortened or left out.
func TestFitDiagnostics(t *testing.T) {
	t.Parallel()
	var described, bare []skill.Summary
	for i := range 25 {
		described = append(described, summary(fmt.Sprintf("skill-%02d", i), strings.Repeat(fmt.Sprintf("Skill %d does things. ", i), 6)))
		bare = append(bare, summary(fmt.Sprintf("skill-%02d", i), ""))
	}
	names := func(from, to int) string {
		var out []string
		for i := from; i < to; i++ {
			out = append(out, fmt.Sprintf("skill-%02d", i))
		}
		return strings.Join(out, ", ")
	}
	tests := []struct {
		name   string
		skills []skill.Summary
		pred   func(render.Fit) bool
		want   func(budget int, fit render.Fit) []string
	}{
		{"shortened to the least length shown", described, func(f render.Fit) bool {
			return f.Omitted == 0 && f.DescriptionLength == render.MinDescriptionMaxLength
		}, func(b int, f render.Fit) []string {
			return []string{fmt.Sprintf("catalogBudget %d: %d of 25 catalog descriptions shortened to 3 characters", b, f.NumShortened)}
		}},
		{"shortened", described, func(f render.Fit) bool {
			return f.Omitted == 0 && f.DescriptionLength > 20
		}, func(b int, f render.Fit) []string {
			return []string{fmt.Sprintf("catalogBudget %d: 25 of 25 catalog descriptions shortened to %d characters", b, f.DescriptionLength)}
		}},
		{"descriptions removed", described, func(f render.Fit) bool {
			return f.Omitted == 0 && f.NumShortened > 0 && f.DescriptionLength < render.MinDescriptionMaxLength
		}, func(b int, f render.Fit) []string {
			return []string{fmt.Sprintf("catalogBudget %d: %d of 25 catalog descriptions removed, the names alone fill the budget", b, f.NumShortened)}
		}},
		{"one left out, nothing to shorten", bare, func(f render.Fit) bool { return f.Omitted == 1 }, func(b int, f render.Fit) []string {
			return []string{fmt.Sprintf("catalogBudget %d: 1 of 25 skills left out of the catalog, their names do not fit: skill-24", b)}
		}},
		{"ten left out, all named", bare, func(f render.Fit) bool { return f.Omitted == 10 }, func(b int, f render.Fit) []string {
			return []string{fmt.Sprintf("catalogBudget %d: 10 of 25 skills left out of the catalog, their names do not fit: %s", b, names(15, 25))}
		}},
		{"eleven left out, ten named", bare, func(f render.Fit) bool { return f.Omitted == 11 }, func(b int, f render.Fit) []string {
			return []string{fmt.Sprintf("catalogBudget %d: 11 of 25 skills left out of the catalog, their names do not fit: %s and 1 more", b, names(14, 24))}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := Build(tc.skills, 500, nil)
			budget, fit := fitFor(t, base, tc.pred)
			v := Fit(base, budget)
			if diff := cmp.Diff(tc.want(budget, fit), v.diagnostics); diff != "" {
				t.Errorf("budget %d, fit %+v: diagnostics (-want +got):\n%s", budget, fit, diff)
			}
			if v.omitted != fit.Omitted || v.numEntries != len(fit.Entries) || v.digest != digest.OfOmitting(fit.Entries, fit.Omitted) {
				t.Errorf("fitted view: %d entries, %d left out; want %d and %d", v.numEntries, v.omitted, len(fit.Entries), fit.Omitted)
			}
		})
	}
}

// TestCatalogDescription: a view says what its catalog shows of each
// skill, across blocks, capped and fitted, and nothing of a skill it does
// not show.
func TestCatalogDescription(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for i := range 120 {
		d := fmt.Sprintf("Skill %d does things.", i)
		if i%10 == 0 {
			d = strings.Repeat(fmt.Sprintf("Long skill %d. ", i), 20)
		}
		skills = append(skills, summary(fmt.Sprintf("skill-%03d", i), d))
	}
	hidden := summary("skill-050x", "Not for the model.")
	hidden.Invocation.ModelInvocable = false
	skills = append(skills, hidden)
	slices.SortFunc(skills, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	v := Build(skills, 100, nil)
	if v.Lossy() {
		t.Error("an unfitted view is lossy")
	}
	for _, s := range skills {
		got, ok := v.CatalogDescription(s.Name)
		if !s.Invocation.ModelInvocable {
			if ok {
				t.Errorf("%s, not model-invocable, shown as %q", s.Name, got)
			}
			continue
		}
		if want := render.NormalizeDescription(s.Description, 100); !ok || got != want {
			t.Errorf("%s: %q, %v; want %q", s.Name, got, ok, want)
		}
	}
	for _, name := range []string{"", "skill-", "skill-999", "zzz"} {
		if got, ok := v.CatalogDescription(name); ok {
			t.Errorf("%q shown as %q", name, got)
		}
	}
	budget := 1200 // the names alone take some 1,470 bytes
	fitted := Fit(v, budget)
	fit := wantFitted(t, skills, 100, budget)
	if !fitted.Lossy() || fit.Omitted == 0 {
		t.Fatalf("the budget left out %d skills; lossy %v", fit.Omitted, fitted.Lossy())
	}
	for i, e := range fit.Entries {
		if got, ok := fitted.CatalogDescription(e.Name); !ok || got != e.Description {
			t.Errorf("entry %d %s: %q, %v; want %q", i, e.Name, got, ok, e.Description)
		}
	}
	last := skills[len(skills)-1].Name
	if got, ok := fitted.CatalogDescription(last); ok {
		t.Errorf("%s, left out by the budget, shown as %q", last, got)
	}
}

// TestCatalogDescriptionJoinsWhenToUse: a skill's when_to_use follows its
// description in the catalog, joined by skill.WhenToUseJoin, within the
// same cap; a change of when_to_use alone is a change of the entry.
func TestCatalogDescriptionJoinsWhenToUse(t *testing.T) {
	t.Parallel()
	a := summary("a-skill", "Reviews pull requests.")
	a.WhenToUse = "Use when the user asks\nfor a review."
	b := summary("b-skill", "Plain.")
	b.WhenToUse = "  "
	v := Build([]skill.Summary{a, b}, 100, nil)
	if got, _ := v.CatalogDescription("a-skill"); got != "Reviews pull requests. - Use when the user asks for a review." {
		t.Errorf("joined: %q", got)
	}
	if got, _ := v.CatalogDescription("b-skill"); got != "Plain." {
		t.Errorf("blank when_to_use: %q", got)
	}
	capped := Build([]skill.Summary{a}, 30, nil)
	if got, _ := capped.CatalogDescription("a-skill"); got != render.NormalizeDescription("Reviews pull requests. - Use when", 30) {
		t.Errorf("capped: %q", got)
	}
	a2 := a
	a2.WhenToUse = "Use for audits."
	next := Build([]skill.Summary{a2, b}, 100, v)
	if got, _ := next.CatalogDescription("a-skill"); got != "Reviews pull requests. - Use for audits." {
		t.Errorf("after a change of when_to_use alone: %q", got)
	}
}
