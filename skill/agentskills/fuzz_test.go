package agentskills

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzParseSkillFile checks that parsing never panics, that the body is
// trimmed, and that listing (which parses only a prefix of the file) sees
// the same frontmatter as loading (which parses the whole file).
func FuzzParseSkillFile(f *testing.F) {
	for _, s := range []string{
		"---\nname: a\ndescription: d\n---\nbody",
		"---\nname: a\ndescription: Use when: x\n  more\n---\n",
		"\uFEFF---\r\nname: a\r\ndescription: >\r\n  x\r\n---\r\nb\r\n",
		"---\nmetadata:\n  k: v\nallowed-tools: [a, b]\nx: &a [*a]\n---\n",
		"---\n- list\n---\n",
		"---\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Add([]byte("---" + strings.Repeat(" ", MaxFrontmatterBytes) + "\nname: a\n---\n"))
	f.Add([]byte("---\nname: a\ndescription: d\n---" + strings.Repeat(" ", MaxFrontmatterBytes)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, body, _, err := ParseSkillFile(data)
		if err != nil {
			return
		}
		if body != strings.TrimSpace(body) {
			t.Errorf("body not trimmed: %q", body)
		}
		_, _ = fm.Validate("dir")

		prefix := data[:min(len(data), frontmatterPrefixBytes)]
		pr, _ := parsePrefix(prefix)
		if pr.err != nil {
			t.Fatalf("prefix parse failed where the whole file parsed: %v", pr.err)
		}
		if diff := cmp.Diff(fm, pr.fm, cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("prefix and whole-file frontmatter differ (-whole +prefix):\n%s", diff)
		}
	})
}
