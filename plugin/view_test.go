package plugin

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
)

// sameView compares everything a view publishes and checks.
func sameView(t *testing.T, got, want *view) {
	t.Helper()
	opt := cmp.AllowUnexported(view{}, listedSkill{})
	if diff := cmp.Diff(want, got, opt); diff != "" {
		t.Errorf("view built on the previous one differs from a fresh build (-fresh +incremental):\n%s", diff)
	}
}

// TestBuildViewReusesOnlyWhatDidNotChange: a view built on the previous
// view of the same place is exactly the view built from nothing, whatever
// changed in between.
func TestBuildViewReusesOnlyWhatDidNotChange(t *testing.T) {
	t.Parallel()
	base := []skill.Summary{summary("alpha", "A  one."), summary("beta", "B."), summary("delta", "D."), summary("gamma", "G <g>.")}
	userOnly := summary("omega", "O.")
	userOnly.Invocation.ModelInvocable = false
	tests := []struct {
		name   string
		change func([]skill.Summary) []skill.Summary
	}{
		{"nothing", func(s []skill.Summary) []skill.Summary { return s }},
		{"description", func(s []skill.Summary) []skill.Summary { s[1].Description = "B, now longer."; return s }},
		{"whitespace only", func(s []skill.Summary) []skill.Summary { s[0].Description = "A one."; return s }},
		{"added first", func(s []skill.Summary) []skill.Summary {
			return append([]skill.Summary{summary("aardvark", "AA.")}, s...)
		}},
		{"added last", func(s []skill.Summary) []skill.Summary { return append(s, summary("zeta", "Z.")) }},
		{"removed", func(s []skill.Summary) []skill.Summary { return slices.Delete(s, 1, 2) }},
		{"renamed, same description", func(s []skill.Summary) []skill.Summary { s[2].Name = "epsilon"; return s }},
		{"policy flipped", func(s []skill.Summary) []skill.Summary { s[3].Invocation.ModelInvocable = false; return s }},
		{"user-only added", func(s []skill.Summary) []skill.Summary { return append(s, userOnly) }},
		{"invalid name", func(s []skill.Summary) []skill.Summary { return append(s, summary("Bad Name", "X.")) }},
		{"duplicate name", func(s []skill.Summary) []skill.Summary { return slices.Insert(s, 1, summary("alpha", "Second alpha.")) }},
		{"unsorted", func(s []skill.Summary) []skill.Summary { s[0], s[3] = s[3], s[0]; return s }},
		{"everything removed", func([]skill.Summary) []skill.Summary { return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, maxLen := range []int{5, 500} {
				prev := buildView(slices.Clone(base), maxLen, nil)
				next := tt.change(slices.Clone(base))
				sameView(t, buildView(next, maxLen, prev), buildView(next, maxLen, nil))
			}
		})
	}
}

// FuzzBuildViewReuse: for any two listings, building the second on the
// view of the first gives the view of the second.
func FuzzBuildViewReuse(f *testing.F) {
	f.Add([]byte("alpha=A;beta=B"), []byte("alpha=A;beta=B2;gamma=G"), uint8(40))
	f.Add([]byte("a=x;a=y;B=z"), []byte("a=y;b=z"), uint8(3))
	parse := func(b []byte) []skill.Summary {
		var out []skill.Summary
		name, desc, inDesc := "", "", false
		flush := func() {
			s := summary(name, desc)
			if len(name)%3 == 2 {
				s.Invocation.ModelInvocable = false
			}
			out = append(out, s)
			name, desc, inDesc = "", "", false
		}
		for _, c := range string(b) {
			switch {
			case c == ';':
				flush()
			case c == '=' && !inDesc:
				inDesc = true
			case inDesc:
				desc += string(c)
			default:
				name += string(c)
			}
		}
		flush()
		return out
	}
	f.Fuzz(func(t *testing.T, first, second []byte, maxLen uint8) {
		capLen := int(maxLen%64) + 3
		prev := buildView(parse(first), capLen, nil)
		next := parse(second)
		got, want := buildView(next, capLen, prev), buildView(next, capLen, nil)
		if !cmp.Equal(got, want, cmp.AllowUnexported(view{}, listedSkill{})) {
			t.Fatalf("incremental view of %q after %q differs from a fresh one", second, first)
		}
	})
}
