package skill

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestQuoteUnsafe(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"/home/dev/skills/pdf-tools", "/home/dev/skills/pdf-tools"},
		{`C:\Users\dev\my "skills"`, `C:\Users\dev\my "skills"`},
		{"/home/dévé/技能 😀\u00a0\u3000<&>", "/home/dévé/技能 😀\u00a0\u3000<&>"},
		{"skill://release-notes/", "skill://release-notes/"},
		{"/s/evil\nname", `"/s/evil\nname"`},
		{"/s/a\tb\rc\x00d\x7fe", `"/s/a\tb\rc\x00d\x7fe"`},
		{"/s/\x1b[31mred", `"/s/\x1b[31mred"`},
		{"/s/a\u0085b", `"/s/a\u0085b"`},
		{"/s/\u202egpj.exe", `"/s/\u202egpj.exe"`},
		{"/s/a\u2066b\u2069", `"/s/a\u2066b\u2069"`},
		{"/s/a\u200bb\u200d\u2060", `"/s/a\u200bb\u200d\u2060"`},
		{"/s/\ufeffa", `"/s/\ufeffa"`},
		{"/s/a\u2028b\u2029", `"/s/a\u2028b\u2029"`},
		{"/s/\U000e0041", `"/s/\U000e0041"`},
		{"/s/a\xffb", `"/s/a\xffb"`},
		{"/s/a\x80b", `"/s/a\x80b"`}, // a stray continuation byte, the lowest non-ASCII one
		{`"/s/quoted"`, `"\"/s/quoted\""`},
		{"\"", `"\""`},
		{"C:\\s\\\"x\"\n", `"C:\\s\\\"x\"\n"`},
	}
	for _, tt := range tests {
		if got := QuoteUnsafe(tt.in); got != tt.want {
			t.Errorf("QuoteUnsafe(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestQuoteUnsafeDoesNotAllocateForSafeText(t *testing.T) {
	safe := "/home/dev/R&D/.agents/skills/pdf-tools/技能"
	if n := testing.AllocsPerRun(50, func() { QuoteUnsafe(safe) }); n != 0 {
		t.Errorf("%v allocations for a string shown as is, want 0", n)
	}
}

// unsafeRune reports what must never be shown raw.
func unsafeRune(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

func FuzzQuoteUnsafe(f *testing.F) {
	f.Add("/home/dev/skills/pdf-tools")
	f.Add("/s/evil\nname\x1b[31m\u202e\u2028\xff")
	f.Add(`"starts with a quote`)
	f.Add(`C:\Users\dev\"x"`)
	f.Fuzz(func(t *testing.T, s string) {
		out := QuoteUnsafe(s)
		if !utf8.ValidString(out) {
			t.Fatalf("not valid UTF-8: %q", out)
		}
		if strings.ContainsFunc(out, unsafeRune) {
			t.Fatalf("unsafe character in %q", out)
		}
		if len(out) > 4*len(s)+2 {
			t.Fatalf("%d bytes for %d", len(out), len(s))
		}
		safe := !strings.HasPrefix(s, `"`) && utf8.ValidString(s) && !strings.ContainsFunc(s, unsafeRune)
		if safe {
			if out != s {
				t.Fatalf("safe %q changed to %q", s, out)
			}
			return
		}
		if got, err := strconv.Unquote(out); err != nil || got != s {
			t.Fatalf("%s does not give back %q: %q, %v", out, s, got, err)
		}
	})
}
