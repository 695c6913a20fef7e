package render

import (
	"strings"
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

// NormalizeDescription returns s as a catalog shows it. Each invalid UTF-8
// byte becomes U+FFFD, every run of whitespace (JavaScript's \s set) becomes
// a single space, and the result is trimmed. If it is then longer than
// maxLen code points, it keeps the first maxLen-3 code points and appends
// "...", so the result is exactly maxLen code points long. A maxLen below
// MinDescriptionMaxLength is treated as MinDescriptionMaxLength; rejecting
// such a configuration is the caller's job.
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
			case c >= '\t' && c <= '\r':
				return end, endN, false
			default:
				afterSpace = false
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || isSpace(r) {
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
		if isSpace(r) {
			pendingSpace = w.n > 0
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
