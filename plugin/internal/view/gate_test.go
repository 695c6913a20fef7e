package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/skill"
)

func scopedSummary(name, desc string, patterns ...string) skill.Summary {
	s := summary(name, desc)
	s.Paths = skill.JoinPaths(patterns)
	return s
}

func entryNames(v *View) []string {
	var out []string
	for _, e := range v.catalogEntries() {
		out = append(out, e.Name)
	}
	return out
}

func TestGate(t *testing.T) {
	skills := []skill.Summary{summary("alpha", "A."), scopedSummary("go", "Go.", "*.go"), scopedSummary("sql", "SQL.", "*.sql")}
	full := Build(skills, 1024, nil)
	if got := full.Gated(); len(got) != 2 || got[0].Name != "go" || got[1].Name != "sql" {
		t.Fatalf("gated %+v", got)
	}
	for _, tc := range []struct {
		activated []string
		want      []string
	}{
		{nil, []string{"alpha"}},
		{[]string{"go"}, []string{"alpha", "go"}},
		{[]string{"gone", "sql"}, []string{"alpha", "sql"}},
		{[]string{"go", "sql"}, []string{"alpha", "go", "sql"}},
	} {
		g := Gate(full, tc.activated, 1024)
		if got := entryNames(g); !slices.Equal(got, tc.want) {
			t.Errorf("activated %q: entries %q, want %q", tc.activated, got, tc.want)
		}
		var entries []digest.Entry
		for _, e := range g.catalogEntries() {
			entries = append(entries, e)
		}
		if want := digest.WithActivated(digest.Of(entries), tc.activated); g.Digest() != want || !slices.Equal(g.Activated(), tc.activated) {
			t.Errorf("activated %q: digest or activated not the record's", tc.activated)
		}
		if _, listed := g.Lookup("alpha"); !listed {
			t.Error("alpha not listed")
		}
	}
	if Gate(Build([]skill.Summary{summary("alpha", "A.")}, 1024, nil), nil, 1024).Gated() != nil {
		t.Error("a view without scoped skills has gated entries")
	}
	// Remembered per budget and activations.
	a, b := GateFit(full, []string{"go"}, 1024, 0), GateFit(full, []string{"go"}, 1024, 0)
	if a != b || GateFit(full, []string{"go"}, 1024, 50) == a {
		t.Error("GateFit does not remember by budget and activations")
	}
	long := []skill.Summary{summary("alpha", strings.Repeat("A long description. ", 20)), scopedSummary("go", strings.Repeat("Go rules. ", 40), "*.go")}
	fitted := GateFit(Build(long, 1024, nil), []string{"go"}, 1024, 200)
	if fitted.Unfitted() == fitted || !slices.Equal(fitted.Activated(), []string{"go"}) ||
		fitted.Digest() != digest.WithActivated(digest.OfOmitting(fitted.catalogEntries(), fitted.Omitted()), []string{"go"}) {
		t.Error("a fitted gated catalog lost its activated skills")
	}
}

func TestGatedThroughDeltas(t *testing.T) {
	prev := Build([]skill.Summary{summary("alpha", "A."), scopedSummary("go", "Go.", "*.go")}, 1024, nil)
	next, err := ApplyDelta(prev, []skill.Summary{summary("go", "Go."), scopedSummary("sql", "SQL.", "*.sql")}, []string{"alpha"}, 1024)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range next.Gated() {
		got = append(got, g.Name)
	}
	if !slices.Equal(got, []string{"sql"}) {
		t.Errorf("gated after the delta %q, want [sql]", got)
	}
}
