package render

import (
	"strings"
	"testing"
	"unsafe"
)

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, text, attr string }{
		{"", "", ""},
		{"plain text", "plain text", "plain text"},
		{"a & b", "a &amp; b", "a &amp; b"},
		{"</available_skills>", "&lt;/available_skills&gt;", "&lt;/available_skills&gt;"},
		{`say "hi"`, `say "hi"`, "say &quot;hi&quot;"},
		{"&amp;", "&amp;amp;", "&amp;amp;"},
		{`<>&"`, `&lt;&gt;&amp;"`, "&lt;&gt;&amp;&quot;"},
		{"'single'", "'single'", "'single'"},
		{"é<😀>", "é&lt;😀&gt;", "é&lt;😀&gt;"},
		{"\xff<", "\xff&lt;", "\xff&lt;"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.text {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.text)
		}
		if got := EscapeAttr(tt.in); got != tt.attr {
			t.Errorf("EscapeAttr(%q) = %q, want %q", tt.in, got, tt.attr)
		}
		if got, want := escapedLen(tt.in, textSpecials), len(tt.text); got != want {
			t.Errorf("escapedLen(%q, text) = %d, want %d", tt.in, got, want)
		}
		if got, want := escapedLen(tt.in, attrSpecials), len(tt.attr); got != want {
			t.Errorf("escapedLen(%q, attr) = %d, want %d", tt.in, got, want)
		}
	}
}

func TestEscapeReturnsCleanInputItself(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("nothing to escape here, not even a quote: ' ", 4)
	for name, f := range map[string]func(string) string{"Escape": Escape, "EscapeAttr": EscapeAttr} {
		if got := f(in); unsafe.StringData(got) != unsafe.StringData(in) {
			t.Errorf("%s copied clean input", name)
		}
	}
}
