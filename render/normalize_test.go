package render

import (
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// jsWhitespace lists JavaScript's \s class, written out independently of
// isSpace so that the two check each other.
var jsWhitespace = []rune{
	'\t', '\n', '\v', '\f', '\r', ' ',
	'\u00a0', '\u1680',
	'\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200a',
	'\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff',
}

// referenceNormalize is a deliberately naive NormalizeDescription: decode
// into code points, collapse, trim, cap.
func referenceNormalize(s string, maxLen int) string {
	maxLen = max(maxLen, 3)
	var out []rune
	inSpace := false
	for _, r := range s { // range yields U+FFFD for each invalid byte
		isWS := false
		for _, w := range jsWhitespace {
			if r == w {
				isWS = true
			}
		}
		if isWS {
			inSpace = true
			continue
		}
		if inSpace && len(out) > 0 {
			out = append(out, ' ')
		}
		inSpace = false
		out = append(out, r)
	}
	if len(out) > maxLen {
		out = append(out[:maxLen-3:maxLen-3], '.', '.', '.')
	}
	return string(out)
}

func TestIsSpaceMatchesJavaScript(t *testing.T) {
	t.Parallel()
	want := make(map[rune]bool)
	for _, r := range jsWhitespace {
		want[r] = true
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if got := isSpace(r); got != want[r] {
			t.Errorf("isSpace(%U) = %v, want %v", r, got, want[r])
		}
	}
}

func TestNormalizeDescriptionEachSpace(t *testing.T) {
	t.Parallel()
	for _, w := range jsWhitespace {
		sp := string(w)
		tests := []struct{ in, want string }{
			{"a" + sp + "b", "a b"},
			{"a" + sp + sp + " \t" + sp + "b", "a b"},
			{sp + "a" + sp, "a"},
			{sp + sp, ""},
		}
		for _, tt := range tests {
			if got := NormalizeDescription(tt.in, DefaultDescriptionMaxLength); got != tt.want {
				t.Errorf("space %U: NormalizeDescription(%q) = %q, want %q", w, tt.in, got, tt.want)
			}
		}
	}
}

func TestNormalizeDescription(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		maxLen int
		want   string
	}{
		{"empty", "", 500, ""},
		{"only whitespace", " \t\r\n ", 500, ""},
		{"single space", " ", 500, ""},
		{"single trailing space", "abc ", 500, "abc"},
		{"single leading space", " abc", 500, "abc"},
		{"double inner space", "a  b", 500, "a b"},
		{"clean", "Extract text from PDFs.", 500, "Extract text from PDFs."},
		{"newlines and tabs", "Line one.\n\n\tLine two.\r\n", 500, "Line one. Line two."},
		{"NEL is not whitespace", "a\u0085b \u0085 c", 500, "a\u0085b \u0085 c"},
		{"U+180E is not whitespace", "a\u180eb", 500, "a\u180eb"},
		{"zero width space is not whitespace", "a\u200bb", 500, "a\u200bb"},
		{"invalid byte", "a\xffb", 500, "a\ufffdb"},
		{"one U+FFFD per bad byte", "\xff\xfe", 500, "\ufffd\ufffd"},
		{"truncated sequence", "x\xe2\x82", 500, "x\ufffd\ufffd"},
		{"encoded surrogate", "\xed\xa0\x80", 500, "\ufffd\ufffd\ufffd"},
		{"overlong encoding", "\xc0\xaf", 500, "\ufffd\ufffd"},
		{"literal U+FFFD kept", "a\ufffdb", 500, "a\ufffdb"},
		{"invalid bytes count toward cap", "\xff\xff\xff\xff", 3, "..."},
		{"invalid bytes fit cap", "\xff\xff\xff\xff", 4, "\ufffd\ufffd\ufffd\ufffd"},
		{"exactly maxLen", "0123456789", 10, "0123456789"},
		{"maxLen plus one", "0123456789a", 10, "0123456..."},
		{"trim before cap", "  0123456789 \n ", 10, "0123456789"},
		{"collapse before cap", "01234 \t\n 56789", 11, "01234 56789"},
		{"space at the cut is kept", "0123 56789abc", 8, "0123 ..."},
		{"space right after the cut", "01234 6789abc", 8, "01234..."},
		{"two-byte at the cut", "ééééééééééé", 10, "ééééééé..."},
		{"two-byte exactly maxLen", "éééééééééé", 10, "éééééééééé"},
		{"three-byte at the cut", "日本語のテキストです", 6, "日本語..."},
		{"four-byte at the cut", "😀😀😀😀😀", 4, "😀..."},
		{"four-byte exactly maxLen", "😀😀😀😀", 4, "😀😀😀😀"},
		{"multi-byte tail kept when it fits", "abc😀é日", 6, "abc😀é日"},
		{"multi-byte tail cut", "abc😀é日x", 6, "abc..."},
		{"maxLen 3 fits", "abc", 3, "abc"},
		{"maxLen 3 cut", "abcd", 3, "..."},
		{"maxLen 4 cut", "abcde", 4, "a..."},
		{"maxLen 0 treated as 3", "abcd", 0, "..."},
		{"negative maxLen treated as 3", "ab", -7, "ab"},
		{"clean but too long", strings.Repeat("x", 600), 500, strings.Repeat("x", 497) + "..."},
		{"dirty and too long", strings.Repeat("x \n", 300), 500, strings.Repeat("x ", 248) + "x..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := NormalizeDescription(tt.in, tt.maxLen)
			if got != tt.want {
				t.Errorf("NormalizeDescription(%q, %d) = %q, want %q", tt.in, tt.maxLen, got, tt.want)
			}
			if ref := referenceNormalize(tt.in, tt.maxLen); ref != tt.want {
				t.Errorf("reference gives %q, want %q (the table is wrong)", ref, tt.want)
			}
		})
	}
}

func TestNormalizeDescriptionReturnsCleanInputItself(t *testing.T) {
	t.Parallel()
	in := "Already clean: one space between words, é and 😀 included."
	got := NormalizeDescription(in, DefaultDescriptionMaxLength)
	if got != in || unsafe.StringData(got) != unsafe.StringData(in) {
		t.Errorf("clean input was copied or changed: %q", got)
	}
}

func FuzzNormalizeDescription(f *testing.F) {
	f.Add("Extract text and tables from PDF files.", uint16(504))
	f.Add("  leading\tand\ntrailing  ", uint16(504))
	f.Add("a\u00a0b\u2028c\ufeffd\u0085e", uint16(504))
	f.Add("bad \xff\xfe bytes \xed\xa0\x80", uint16(10))
	f.Add("ééééééééééé", uint16(14))
	f.Add("😀😀😀😀😀", uint16(7))
	f.Add("0123 56789abc", uint16(12))
	f.Add("", uint16(0))
	f.Fuzz(func(t *testing.T, s string, limit uint16) {
		// Cover caps below the minimum too: they must behave as the minimum.
		maxLen := int(limit)%520 - 4
		effective := max(maxLen, MinDescriptionMaxLength)
		out := NormalizeDescription(s, maxLen)

		if !utf8.ValidString(out) {
			t.Fatalf("output is not valid UTF-8: %q", out)
		}
		if n := utf8.RuneCountInString(out); n > effective {
			t.Fatalf("output has %d code points, cap %d: %q", n, effective, out)
		}
		if again := NormalizeDescription(out, maxLen); again != out {
			t.Fatalf("not idempotent: %q -> %q", out, again)
		}
		if strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  ") {
			t.Fatalf("stray spaces in %q", out)
		}
		for _, r := range out {
			if r != ' ' && isSpace(r) {
				t.Fatalf("whitespace %U left in %q", r, out)
			}
		}
		if ref := referenceNormalize(s, maxLen); out != ref {
			t.Fatalf("NormalizeDescription(%q, %d) = %q, reference gives %q", s, maxLen, out, ref)
		}
	})
}
