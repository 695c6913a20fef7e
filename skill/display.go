package skill

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuoteUnsafe returns s ready to be shown on one line of text: s itself,
// unless it holds a control or format character (Unicode categories Cc and
// Cf: newline, tab, ESC, DEL, C1 controls, bidirectional embeddings,
// overrides and isolates, zero-width characters, U+FEFF), a line or
// paragraph separator (U+2028, U+2029) or a byte that is not UTF-8, or
// starts with a double quote. Such a string is returned as a Go
// double-quoted string literal, as strconv.Quote writes it:
// "/skills/evil\nname", "/skills/\u202egpj.exe". strconv.Unquote gives back
// the exact string, and since a string returned as is never starts with a
// double quote, the two forms cannot be confused.
//
// Paths and URLs come from directory names and remote servers, so they are
// shown this way wherever a model or a terminal reads them: a newline could
// otherwise add lines that look like the surrounding text, and a
// bidirectional override could make a name read as something else.
//
// A string returned as is costs no allocation.
func QuoteUnsafe(s string) string {
	if needsQuoting(s) {
		return strconv.Quote(s)
	}
	return s
}

func needsQuoting(s string) bool {
	if strings.HasPrefix(s, `"`) {
		return true
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return true
		}
		i += size
	}
	return false
}
