package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

// reattachItems renders the items of the re-attachment golden: one skill
// as loaded, one changed and cut, and one of each state that attaches
// nothing.
func reattachItems(t *testing.T) []Reattached {
	t.Helper()
	content := func(v skill.ToolValue, max int) (string, int, int) {
		cut, kept, total := CutInstructions(v.Content, max)
		v.Content = cut
		text, err := SkillContent(v, false)
		if err != nil {
			t.Fatal(err)
		}
		return text, kept, total
	}
	first, k1, t1 := content(directoryValue, 20000)
	second, k2, t2 := content(urlValue, 20)
	return []Reattached{
		{Name: directoryValue.Name, Text: first, Kept: k1, Total: t1},
		{Name: urlValue.Name, State: "changed", Text: second, Kept: k2, Total: t2},
		{Name: "old-skill", State: "gone"},
		{Name: "flaky", State: "unavailable"},
		{Name: "large", State: "left-out"},
	}
}

func TestReattachedSkillsGolden(t *testing.T) {
	checkGolden(t, "reattach_mixed", ReattachedSkills(reattachItems(t)))
	checkGolden(t, "reattach_one", ReattachedSkills(reattachItems(t)[:1]))
}

func TestPreloadedSkillsGolden(t *testing.T) {
	a, err := SkillContent(directoryValue, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SkillContent(opaqueValue, false)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "preload_two", PreloadedSkills([]string{a, b}))
}

func TestCutInstructions(t *testing.T) {
	for _, tc := range []struct {
		content     string
		max         int
		cut         string
		kept, total int
	}{
		{"abc", 5, "abc", 3, 3},
		{"abc", 3, "abc", 3, 3},
		{"abcdef", 2, "ab", 2, 6},
		{"héllo wörld", 4, "héll", 4, 11},
		{"日本語です", 2, "日本", 2, 5},
		{"", 3, "", 0, 0},
		{"abc", 0, "", 0, 3},
	} {
		cut, kept, total := CutInstructions(tc.content, tc.max)
		if cut != tc.cut || kept != tc.kept || total != tc.total {
			t.Errorf("CutInstructions(%q, %d) = %q, %d, %d; want %q, %d, %d", tc.content, tc.max, cut, kept, total, tc.cut, tc.kept, tc.total)
		}
		if !utf8.ValidString(cut) {
			t.Errorf("CutInstructions(%q, %d) cut inside a character", tc.content, tc.max)
		}
	}
}

func TestReattachedSkillsMarksOnlyCuts(t *testing.T) {
	items := reattachItems(t)
	text := ReattachedSkills(items)
	if got := strings.Count(text, "were cut here"); got != 1 {
		t.Errorf("%d cut lines, want 1 (only the cut skill):\n%s", got, text)
	}
	if !strings.Contains(text, "after 20 of their 74 characters; 54 were left out") {
		t.Errorf("the cut line does not say how much was left out:\n%s", text)
	}
	if strings.Index(text, `name="pdf-tools"`) > strings.Index(text, `name="release-notes"`) {
		t.Errorf("order not kept:\n%s", text)
	}
}
