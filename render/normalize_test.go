package render

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
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

// ansiCSI matches an ANSI control sequence: ESC [ or U+009B, parameter
// bytes, intermediate bytes and a final byte.
var ansiCSI = regexp.MustCompile(`(?:\x1b\[|\x{9b})[0-?]*[ -/]*[@-~]`)

// referenceNormalize is a deliberately naive NormalizeDescription: decode
// into code points, delete control sequences and invisible characters,
// collapse, trim, cap.
func referenceNormalize(s string, maxLen int) string {
	maxLen = max(maxLen, 3)
	var valid strings.Builder
	for _, r := range s { // range yields U+FFFD for each invalid byte
		valid.WriteRune(r)
	}
	s = ansiCSI.ReplaceAllString(valid.String(), "")
	var out []rune
	inSpace := false
	for _, r := range s {
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
		if unicode.In(r, unicode.Cc, unicode.Cf) {
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
		{"NEL is removed, not whitespace", "a\u0085b \u0085 c", 500, "ab c"},
		{"U+180E is removed, not whitespace", "a\u180eb", 500, "ab"},
		{"zero width space is removed, not whitespace", "a\u200bb", 500, "ab"},
		{"BOM is whitespace, not removed", "a\ufeffb", 500, "a b"},
		{"ANSI colour", "\x1b[1;31mred\x1b[0m text", 500, "red text"},
		{"ANSI sequence with intermediate byte", "a\x1b[2 qb", 500, "ab"},
		{"ANSI sequence with the last intermediate byte", "a\x1b[1/qb", 500, "ab"},
		{"ANSI sequence ending in the first final byte", "a\x1b[2@b", 500, "ab"},
		{"ANSI sequence ending in the last final byte", "a\x1b[2~b", 500, "ab"},
		{"ANSI sequence ending past the final bytes loses its ESC", "a\x1b[2\x7fb", 500, "a[2b"},
		{"ANSI private parameters", "\x1b[?25lhidden cursor\x1b[?25h", 500, "hidden cursor"},
		{"ANSI between spaces", "a \x1b[0m b", 500, "a b"},
		{"ANSI at the edges", "\x1b[31m a \x1b[0m", 500, "a"},
		{"unfinished ANSI sequence loses its ESC", "a\x1b[12;", 500, "a[12;"},
		{"other escape loses its ESC", "a\x1b]8;;https://x.example\x1b\\b", 500, "a]8;;https://x.example\\b"},
		{"ESC before ANSI sequence", "\x1b\x1b[31mx", 500, "x"},
		{"C1 CSI sequence", "a\u009b31mb", 500, "ab"},
		{"NUL and BEL", "a\x00b\x07c", 500, "abc"},
		{"DEL", "a\x7fb", 500, "ab"},
		{"C0 separators are not whitespace", "a\x1cb\x1dc\x1ed\x1fe", 500, "abcde"},
		{"C1 controls", "a\u0080b\u009fc", 500, "abc"},
		{"right-to-left override", "invoice\u202eexe.pdf", 500, "invoiceexe.pdf"},
		{"every embedding and override", "a\u202ab\u202bc\u202cd\u202de\u202ef", 500, "abcdef"},
		{"isolates", "a\u2066b\u2067c\u2068d\u2069e", 500, "abcde"},
		{"marks and joiners", "a\u200cb\u200dc\u200ed\u200ff\u2060g", 500, "abcdfg"},
		{"soft hyphen", "co\u00adoperate", 500, "cooperate"},
		{"tag characters", "a\U000e0001\U000e0049\U000e007fb", 500, "ab"},
		{"removed characters do not count toward the cap", "\u200b\u200b\u200babc\x1b[0m", 3, "abc"},
		{"removed characters at the cut", "01234\u202e56789", 8, "01234..."},
		{"invisible only", "\u200b\x1b[0m\u202e", 500, ""},
		{"invalid byte next to ESC", "\xe2\x1b[m\x80\x80", 500, "\ufffd\ufffd\ufffd"},
		{"invalid byte", "a\xffb", 500, "a\ufffdb"},
		{"lone continuation byte", "a\x80b\xbf", 500, "a\ufffdb\ufffd"},
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

// invisibleCharacters are the characters that must never reach a catalog:
// C0 and C1 controls other than whitespace, DEL, bidirectional embeddings,
// overrides and isolates, zero-width characters and other format
// characters.
var invisibleCharacters = func() []rune {
	var rs []rune
	for r := rune(0); r < 0x20; r++ {
		if !strings.ContainsRune("\t\n\v\f\r", r) {
			rs = append(rs, r)
		}
	}
	for r := rune(0x7f); r <= 0x9f; r++ {
		rs = append(rs, r)
	}
	rs = append(rs, 0xad, 0x61c, 0x180e)
	for _, span := range [][2]rune{{0x200b, 0x200f}, {0x202a, 0x202e}, {0x2060, 0x2064}, {0x2066, 0x206f}, {0xfff9, 0xfffb}, {0xe0020, 0xe007f}} {
		for r := span[0]; r <= span[1]; r++ {
			rs = append(rs, r)
		}
	}
	return append(rs, 0xe0001)
}()

func TestNormalizeDescriptionRemovesInvisibleCharacters(t *testing.T) {
	t.Parallel()
	for _, r := range invisibleCharacters {
		// Letters outside ASCII around it: an ASCII letter after ESC [ or
		// U+009B would end a control sequence, which is removed whole.
		c := string(r)
		tests := []struct{ in, want string }{
			{"é" + c + "ü", "éü"},
			{"é " + c + " ü", "é ü"},
			{c + "é" + c, "é"},
			{c + c, ""},
			{"clean text" + c, "clean text"},
		}
		for _, tt := range tests {
			if got := NormalizeDescription(tt.in, DefaultDescriptionMaxLength); got != tt.want {
				t.Errorf("%U: NormalizeDescription(%q) = %q, want %q", r, tt.in, got, tt.want)
			}
		}
	}
}

// TestInvisibleIsControlOrFormat: isInvisible is exactly Unicode's Cc and Cf,
// whitespace among them (isSpace decides those first), whatever its fast
// paths skip.
func TestInvisibleIsControlOrFormat(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if got, want := isInvisible(r), unicode.In(r, unicode.Cc, unicode.Cf); got != want {
			t.Errorf("isInvisible(%U) = %v, want %v", r, got, want)
		}
	}
}

func TestNormalizeDescriptionReturnsCleanInputItself(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in     string
		maxLen int
	}{
		{"Already clean: one space between words, é and 😀 included.", DefaultDescriptionMaxLength},
		// Up to the cap itself.
		{"0123456789", 10},
		{"é日😀x", 4},
		{"abc", 0},
	} {
		got := NormalizeDescription(tt.in, tt.maxLen)
		if got != tt.in || unsafe.StringData(got) != unsafe.StringData(tt.in) {
			t.Errorf("NormalizeDescription(%q, %d): clean input was copied or changed: %q", tt.in, tt.maxLen, got)
		}
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
	f.Add("\x1b[1;31mred\x1b[0m \x1b[12; \u009b2J", uint16(504))
	f.Add("a\u202eb\u2066c\u200bd\u00ade\U000e0041\x00\x7f\u0085", uint16(504))
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
		if len(out) > 3*len(s) || len(out) > utf8.UTFMax*effective {
			t.Fatalf("output of %d bytes from %d input bytes, cap %d: %q", len(out), len(s), effective, out)
		}
		in := make(map[rune]bool)
		for _, r := range s {
			in[r] = true
		}
		for _, r := range out {
			if r != ' ' && isSpace(r) {
				t.Fatalf("whitespace %U left in %q", r, out)
			}
			if unicode.In(r, unicode.Cc, unicode.Cf) {
				t.Fatalf("control or format character %U left in %q", r, out)
			}
			// Nothing is made up: every character but the collapsed space,
			// the ellipsis and the replacement of bad bytes is the input's.
			if r != ' ' && r != '.' && !in[r] {
				t.Fatalf("%U in the output is not in the input %q", r, s)
			}
		}
		if ref := referenceNormalize(s, maxLen); out != ref {
			t.Fatalf("NormalizeDescription(%q, %d) = %q, reference gives %q", s, maxLen, out, ref)
		}
	})
}
