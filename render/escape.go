package render

import (
	"strings"
	"unicode/utf8"
)

// Escape escapes text placed in model-facing prose: & < > become &amp; &lt;
// &gt;, so the text cannot open or close a tag such as
// </available_skills>. It returns s itself when there is nothing to escape.
func Escape(s string) string {
	return escape(s, textSpecials)
}

// EscapeAttr escapes text placed in a double-quoted attribute value: like
// Escape, and " becomes &quot;. It returns s itself when there is nothing
// to escape.
func EscapeAttr(s string) string {
	return escape(s, attrSpecials)
}

// The bytes each context escapes; entity knows their replacements.
const (
	textSpecials = "&<>"
	attrSpecials = "&<>\""
)

// hasSpecial reports whether s holds any byte of specials. Searching for
// each byte separately uses the vectorized IndexByte, which makes the common
// case, clean text, cheap.
func hasSpecial(s, specials string) bool {
	for i := 0; i < len(specials); i++ {
		if strings.IndexByte(s, specials[i]) >= 0 {
			return true
		}
	}
	return false
}

func escape(s, specials string) string {
	if !hasSpecial(s, specials) {
		return s
	}
	i := strings.IndexAny(s, specials)
	var b strings.Builder
	b.Grow(escapedLen(s, specials))
	b.WriteString(s[:i])
	writeEscaped(&b, s[i:], specials)
	return b.String()
}

// entity returns the replacement for one of the bytes in attrSpecials.
func entity(c byte) string {
	switch c {
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	default:
		return "&quot;"
	}
}

// escapedLen returns len(escape(s, specials)) without building it, so that
// callers can size their buffers exactly.
func escapedLen(s, specials string) int {
	n := len(s)
	if !hasSpecial(s, specials) {
		return n
	}
	for {
		i := strings.IndexAny(s, specials)
		if i < 0 {
			return n
		}
		n += len(entity(s[i])) - 1
		s = s[i+1:]
	}
}

// writeEscaped writes s to b, escaping the bytes in specials.
func writeEscaped(b *strings.Builder, s, specials string) {
	if !hasSpecial(s, specials) {
		b.WriteString(s)
		return
	}
	for {
		i := strings.IndexAny(s, specials)
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString(entity(s[i]))
		s = s[i+1:]
	}
}

// appendEscaped appends s to dst, escaping the bytes in specials.
func appendEscaped(dst []byte, s, specials string) []byte {
	for {
		i := strings.IndexAny(s, specials)
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(append(dst, s[:i]...), entity(s[i])...)
		s = s[i+1:]
	}
}

// FitEscaped returns the length of the longest prefix of s whose escaped
// form (Escape's) holds at most max bytes and that splits no UTF-8
// character: all of s when it fits. Bytes that are not UTF-8 are cut as they
// are; a character that s ends inside is cut before. A caller that shows
// untrusted text within a bound cuts it there before escaping it.
func FitEscaped[T string | []byte](s T, max int) int {
	n := 0
	for i := 0; i < len(s); i++ {
		w := 1
		switch s[i] {
		case '&':
			w = len("&amp;")
		case '<', '>':
			w = len("&lt;")
		}
		if n+w > max {
			// Cut before the character that would straddle the cut: the
			// one that starts at most three bytes back and reaches byte i,
			// valid UTF-8 or the start of a character that s ends inside.
			// Stray continuation bytes are no part of it.
			for j := i; j >= 0 && j > i-utf8.UTFMax; j-- {
				if utf8.RuneStart(s[j]) {
					c := string(s[j:min(j+utf8.UTFMax, len(s))])
					if _, size := utf8.DecodeRuneInString(c); size > i-j || !utf8.FullRuneInString(c) {
						return j
					}
					return i
				}
			}
			return i
		}
		n += w
	}
	return len(s)
}
