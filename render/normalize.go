package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// DefaultDescriptionMaxLength is the default cap, in Unicode code
	// points, on a catalog description.
	DefaultDescriptionMaxLength = 500
	// MinDescriptionMaxLength is the smallest meaningful cap: it leaves room
	// for the truncation ellipsis.
	MinDescriptionMaxLength = 3
)

const ellipsis = "..."

// isSpace reports whether r belongs to JavaScript's \s class, which the
// reference runtime uses to normalize descriptions. It differs from
// unicode.IsSpace: it includes U+FEFF and excludes U+0085 (NEL).
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ',
		'\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// isInvisible reports control and format characters (Unicode categories Cc
// and Cf): C0 and C1 controls, DEL, bidirectional embeddings, overrides and
// isolates, zero-width spaces, joiners and marks, the soft hyphen, tag
// characters. Some of them are whitespace (tab, newline, U+FEFF); isSpace
// decides those first.
func isInvisible(r rune) bool {
	switch {
	case r < 0xa0:
		return r < 0x20 || r >= 0x7f
	case r < 0x600 && r != 0xad,
		r >= 0x2010 && r <= 0x2029, r >= 0x202f && r <= 0x205f,
		r >= 0x2070 && r < 0xfeff:
		// Ranges without a format character, among them Latin, Greek,
		// Cyrillic, the common punctuation and CJK, skip the table.
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// csiLen returns the length of an ANSI control sequence's body at the start
// of s, the part after ESC [ or U+009B: parameter bytes 0x30-0x3F,
// intermediate bytes 0x20-0x2F and one final byte 0x40-0x7E. It is 0 when s
// does not start with a complete body. The three byte ranges are disjoint,
// so the longest runs are the only possible match.
func csiLen(s string) int {
	i := 0
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		return i + 1
	}
	return 0
}

// NormalizeDescription returns s as a catalog shows it. Each invalid UTF-8
// byte becomes U+FFFD; control and format characters that are not
// whitespace are removed, and so are whole ANSI control sequences (ESC [ or
// U+009B, parameters, a final byte; other escapes lose their ESC); every run
// of whitespace (JavaScript's \s set) becomes a single space, and the result
// is trimmed. A removed character leaves no trace: it neither becomes a
// space nor keeps spaces apart, so "a\u200bb" is "ab" and "a \u200b b" is
// "a b", and it does not count toward the cap. If the result is longer than
// maxLen code points, it keeps the first maxLen-3 code points and appends
// "...", so the result is exactly maxLen code points long. A maxLen below
// MinDescriptionMaxLength is treated as MinDescriptionMaxLength; rejecting
// such a configuration is the caller's job.
//
// Removed characters are those of Unicode categories Cc and Cf other than
// whitespace: C0 and C1 controls, DEL, bidirectional embeddings, overrides
// and isolates (U+202A-U+202E, U+2066-U+2069), zero-width characters
// (U+200B-U+200F, U+2060), the soft hyphen, tag characters and the other
// format characters. They are invisible or act on the display, so a
// description could otherwise say something other than what it shows. The
// whitespace rule is the behaviour contract's and is unchanged: tab,
// newline, carriage return and U+FEFF are whitespace.
//
// A description that is already normalized and short enough is returned
// as is, without allocating.
func NormalizeDescription(s string, maxLen int) string {
	maxLen = max(maxLen, MinDescriptionMaxLength)
	end, n, ok := normalizedPrefix(s, maxLen)
	if ok {
		return s
	}
	return normalizeSlow(s, maxLen, end, n)
}

// normalizedPrefix reports whether NormalizeDescription(s, maxLen) == s.
// When it is not, s[:end] (endN code points) is a prefix that the slow path
// can copy as is: it is normalized, ends in a non-space, and fits in front
// of a truncation ellipsis.
func normalizedPrefix(s string, maxLen int) (end, endN int, ok bool) {
	keep := maxLen - len(ellipsis)
	n := 0
	// Starting as if after a space makes a leading space fail the check.
	afterSpace := true
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case c == ' ':
				if afterSpace {
					return end, endN, false
				}
				afterSpace = true
			case c < ' ' || c == 0x7f: // whitespace or a control
				return end, endN, false
			default:
				afterSpace = false
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || isSpace(r) || isInvisible(r) {
				return end, endN, false
			}
			afterSpace = false
			i += size
		}
		n++
		if n > maxLen {
			return end, endN, false
		}
		if !afterSpace && n <= keep {
			end, endN = i, n
		}
	}
	return end, endN, len(s) == 0 || !afterSpace
}

// cappedWriter accumulates normalized output up to a code point cap. The
// code points past the kept prefix (at most three) are held back in tail
// until it is known whether the text fits or gets the ellipsis instead.
type cappedWriter struct {
	b    strings.Builder
	keep int // code points kept in front of the ellipsis
	max  int // code points allowed without truncation
	n    int // code points accepted so far
	tail [len(ellipsis) * utf8.UTFMax]byte
	nt   int
}

// put accepts one code point. It reports false, accepting nothing, when r
// would exceed the cap.
func (w *cappedWriter) put(r rune) bool {
	if w.n == w.max {
		return false
	}
	switch {
	case w.n >= w.keep:
		w.nt += utf8.EncodeRune(w.tail[w.nt:], r)
	case r < utf8.RuneSelf:
		w.b.WriteByte(byte(r))
	default:
		w.b.WriteRune(r)
	}
	w.n++
	return true
}

// normalizeSlow builds the normalized text, starting with the prefix
// s[:end] of endN code points that needs no change.
func normalizeSlow(s string, maxLen, end, endN int) string {
	w := cappedWriter{keep: maxLen - len(ellipsis), max: maxLen, n: endN}
	// The output is at most as long as s unless s holds invalid bytes (one
	// byte becomes three), and never longer than the cap allows.
	hint := len(s)
	if maxLen < hint/utf8.UTFMax {
		hint = maxLen * utf8.UTFMax
	}
	w.b.Grow(hint)
	w.b.WriteString(s[:end])

	// A space is written only once a non-space follows it, which trims the
	// end and keeps w.n equal to the normalized length seen so far.
	pendingSpace := false
	for i := end; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			// An invalid byte decodes as (utf8.RuneError, 1): exactly one
			// U+FFFD per bad byte.
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case r > ' ' && r < 0x7f:
			// Printable ASCII, the common case, is neither.
		case isSpace(r):
			pendingSpace = w.n > 0
			continue
		case isInvisible(r):
			// Removed without a trace: a pending space stays pending.
			switch {
			case r == 0x1b && i < len(s) && s[i] == '[':
				if n := csiLen(s[i+1:]); n > 0 {
					i += 1 + n
				}
			case r == 0x9b:
				i += csiLen(s[i:])
			}
			continue
		}
		if pendingSpace {
			pendingSpace = false
			if !w.put(' ') {
				return w.truncated()
			}
		}
		if !w.put(r) {
			return w.truncated()
		}
	}
	w.b.Write(w.tail[:w.nt])
	return w.b.String()
}

func (w *cappedWriter) truncated() string {
	w.b.WriteString(ellipsis)
	return w.b.String()
}
