package skill

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestSearchTextOf(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"whitespace runs become one space", "# Title\n\nSome  text\there.\r\n", "# Title Some text here."},
		{"fenced code is left out", "Intro.\n```go\nfunc main() {}\n```\nAfter ~~~ inline.\n~~~\nhidden\n~~~\nEnd.", "Intro. After ~~~ inline. End."},
		{"an unclosed fence hides the rest", "Intro.\n```\ncode", "Intro."},
		{"control characters are spaces", "a\x00b\x1bc", "a b c"},
		{"bytes that are not UTF-8 are left out", "caf\xe9 ok", "caf ok"},
		{"leading space is dropped", "   \n  lead", "lead"},
		{"what says when to use it comes first", "# Tool\nIntro.\n## Steps\nRun it.\n## When to Use This Skill\n- a PDF form\n## More\nEnd.", "## When to Use This Skill - a PDF form # Tool Intro. ## Steps Run it. ## More End."},
		{"what says when not to use it is left out", "Intro.\n## Do not use this skill when\n- a Word file\n### Also\n- a sheet\n## Steps\nRun it.\n## When NOT to Use\nNever.", "Intro. ## Steps Run it."},
		{"a fence inside a section", "## When to use\n```\nx\n```\nForms.\n## Other\nMore.", "## When to use Forms. ## Other More."},
		{"# without a space is no heading", "#hashtag when not to use\nkept", "#hashtag when not to use kept"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SearchTextOf(tc.in); got != tc.want {
				t.Errorf("SearchTextOf(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSearchTextOfCutsOnACharacter(t *testing.T) {
	long := strings.Repeat("é", MaxSearchTextBytes) // two bytes each
	got := SearchTextOf(long)
	if len(got) != MaxSearchTextBytes || !utf8.ValidString(got) {
		t.Fatalf("len %d, valid %v; want %d valid bytes", len(got), utf8.ValidString(got), MaxSearchTextBytes)
	}
	odd := "x" + long // the bound now falls inside a character
	got = SearchTextOf(odd)
	if len(got) != MaxSearchTextBytes-1 || !utf8.ValidString(got) {
		t.Fatalf("len %d, valid %v; want %d valid bytes", len(got), utf8.ValidString(got), MaxSearchTextBytes-1)
	}
	words := strings.Repeat("word ", MaxSearchTextBytes)
	if got := SearchTextOf(words); len(got) > MaxSearchTextBytes || strings.HasSuffix(got, " ") {
		t.Fatalf("len %d, ends %q", len(got), got[len(got)-3:])
	}
}

func TestCleanKeywords(t *testing.T) {
	many := make([]string, MaxKeywords+5)
	for i := range many {
		many[i] = strings.Repeat("k", i+1)
	}
	for _, tc := range []struct {
		name string
		in   []string
		want string
	}{
		{"nil", nil, ""},
		{"trimmed; empty ones, repeats and commas left out", []string{" pdf ", "", "forms", "pdf", "  ", "a,b"}, "pdf, forms"},
		{"long ones cut", []string{strings.Repeat("é", MaxKeywordBytes)}, strings.Repeat("é", MaxKeywordBytes/2)},
		{"at most MaxKeywords", many, strings.Join(many[:MaxKeywords], ", ")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, CleanKeywords(tc.in)); diff != "" {
				t.Errorf("CleanKeywords(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestCutText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"aé", 2, "a"},
		{"a\xffb", 5, "ab"},
		{"é", 0, ""},
	} {
		if got := CutText(tc.in, tc.max); got != tc.want {
			t.Errorf("CutText(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func FuzzSearchTextOf(f *testing.F) {
	for _, s := range []string{"", "# T\n```\ncode\n```\ntext", "a\xffb", strings.Repeat("é ", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := SearchTextOf(in)
		if len(got) > MaxSearchTextBytes || !utf8.ValidString(got) {
			t.Fatalf("SearchTextOf gave %d bytes, valid %v", len(got), utf8.ValidString(got))
		}
		if strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") || strings.Contains(got, "  ") {
			t.Fatalf("SearchTextOf left stray spaces: %q", got)
		}
		if strings.ContainsAny(got, "\n\t\r") {
			t.Fatalf("SearchTextOf left a line break or tab: %q", got)
		}
	})
}
