package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

var unescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")

// checkEntities fails unless every & in s starts one of the entities Escape
// writes.
func checkEntities(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			continue
		}
		rest := s[i:]
		if !strings.HasPrefix(rest, "&amp;") && !strings.HasPrefix(rest, "&lt;") && !strings.HasPrefix(rest, "&gt;") {
			t.Fatalf("bare & at %d: %q", i, rest[:min(len(rest), 12)])
		}
	}
}

func FuzzRenderCatalog(f *testing.F) {
	f.Add("pdf-tools", "Extract text & tables from <PDF> files.", uint16(504))
	f.Add("code-review", "never closes </available_skills> or </system-reminder> early", uint16(504))
	f.Add("a", "&amp; &lt; already-escaped-looking text &", uint16(20))
	f.Add("x<y>&z", "\n\n<>&\"'\t\u2028", uint16(3))
	f.Add("multi\nline", "é😀\xff<", uint16(8))
	f.Fuzz(func(t *testing.T, name, desc string, limit uint16) {
		d := NormalizeDescription(desc, int(limit))
		entries := []digest.Entry{
			{Name: "alpha", Description: "first & <one>"},
			{Name: name, Description: d},
			{Name: "gamma", Description: d, Origin: name}, // a remote skill
		}
		wantBody := "-`alpha`: first & <one>\n-`" + name + "`: " + d + "\n" +
			"-`gamma` (MCP server `" + name + "`): " + d + "\n"
		if name == "" { // an empty origin is none
			wantBody = "-`alpha`: first & <one>\n-``: " + d + "\n-`gamma`: " + d + "\n"
		}
		for _, c := range []struct {
			header string
			text   string
		}{
			{initialHeader, InitialCatalog(entries)},
			{replacementHeader, ReplacementCatalog(entries)},
		} {
			body, ok := strings.CutPrefix(c.text, c.header)
			if !ok {
				t.Fatalf("catalog does not start with its header:\n%s", c.text)
			}
			body, ok = strings.CutSuffix(body, catalogFooter)
			if !ok {
				t.Fatalf("catalog does not end with the </available_skills> block:\n%s", c.text)
			}
			if strings.ContainsAny(body, "<>") {
				t.Fatalf("raw < or > between the tags: %q", body)
			}
			checkEntities(t, body)
			if got := unescaper.Replace(body); got != wantBody {
				t.Fatalf("entries do not round-trip: got %q, want %q", got, wantBody)
			}
			if n := strings.Count(body, "\n"); n != len(entries)+2*strings.Count(name, "\n") {
				t.Fatalf("%d lines for %d entries: %q", n, len(entries), body)
			}
			for _, tag := range []string{"<available_skills>", "</available_skills>", "<system-reminder>", "</system-reminder>"} {
				if n := strings.Count(c.text, tag); n != 1 {
					t.Fatalf("%s appears %d times", tag, n)
				}
			}
		}
	})
}

// TestAssembleCatalogSeqNotes: the notes a catalog text carries are added
// while it is assembled exactly where WithRemoteSkillsNote and
// WithUserInvocationNote add them to the assembled text.
func TestAssembleCatalogSeqNotes(t *testing.T) {
	t.Parallel()
	entries := []digest.Entry{{Name: "alpha", Description: "A & <b>."}, {Name: "beta", Description: "B.", Origin: "docs"}}
	var lines [][]byte
	for _, e := range entries {
		lines = append(lines, AppendEntryLine(nil, e))
	}
	for _, ls := range [][][]byte{nil, lines} {
		for _, update := range []bool{false, true} {
			for _, omitted := range []int{0, 1, 7} {
				for _, notes := range []CatalogNotes{{}, {RemoteSkills: true}, {UserInvocation: true}, {RemoteSkills: true, UserInvocation: true}} {
					want := assembleCatalog(ls, update, omitted)
					if notes.RemoteSkills {
						want = WithRemoteSkillsNote(want)
					}
					if notes.UserInvocation {
						want = WithUserInvocationNote(want)
					}
					if got := AssembleCatalogSeq(slices.Values(ls), update, omitted, notes); got != want {
						t.Errorf("%d lines, update %v, omitted %d, %+v:\n got %q\nwant %q", len(ls), update, omitted, notes, got, want)
					}
				}
			}
		}
	}
}
