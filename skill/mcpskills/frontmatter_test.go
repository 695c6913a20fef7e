package mcpskills

import (
	"strings"
	"testing"
)

func TestStripFrontmatter(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"none", "# Title\nbody\n", "# Title\nbody"},
		{"simple", "---\nname: a\ndescription: b\n---\n# Title\n", "# Title"},
		{"blank lines around", "---\nname: a\n---\n\n\n# Title\n\nText\n\n", "# Title\n\nText"},
		{"crlf", "---\r\nname: a\r\n---\r\n\r\n# Title\r\nText\r\n", "# Title\r\nText"},
		{"bom", "\uFEFF---\nname: a\n---\nbody", "body"},
		{"bom without frontmatter", "\uFEFFbody", "body"},
		{"trailing blanks on fences", "--- \nname: a\n---\t\nbody", "body"},
		{"empty frontmatter", "---\n---\nbody", "body"},
		{"only frontmatter", "---\nname: a\n---", ""},
		{"unterminated", "---\nname: a\nbody\n", "---\nname: a\nbody"},
		{"fence not first", "\n---\nname: a\n---\nbody", "---\nname: a\n---\nbody"},
		{"dashes inside body kept", "---\na: b\n---\nx\n---\ny\n", "x\n---\ny"},
		{"four dashes is not a fence", "----\na: b\n----\nbody", "----\na: b\n----\nbody"},
		{"single line", "---", "---"},
		{"empty", "", ""},
	} {
		if got := stripFrontmatter(tc.in); got != tc.want {
			t.Errorf("%s: stripFrontmatter(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func FuzzStripFrontmatter(f *testing.F) {
	f.Add("---\nname: a\n---\nbody\n")
	f.Add("\uFEFF---\r\nname: a\r\n---\r\n\r\nbody")
	f.Add("---\nunterminated")
	f.Fuzz(func(t *testing.T, doc string) {
		got := stripFrontmatter(doc)
		if !strings.Contains(doc, got) {
			t.Fatalf("body %q is not part of the document", got)
		}
		if strings.TrimSpace(got) != got {
			t.Fatalf("body %q is not trimmed", got)
		}
	})
}
