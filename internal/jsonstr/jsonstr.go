// Package jsonstr writes and scans JSON without reflection, for the
// hand-written encoders and readers of the durable catalog record, the
// session log and the host's message bodies: Append writes a string as
// encoding/json does, SkipValue and Valid check a value as json.Valid does.
package jsonstr

import (
	"math/bits"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Append appends s as a JSON string with encoding/json's escaping, HTML
// escaping off: <, > and & stay readable. Invalid UTF-8 becomes U+FFFD.
func Append(b []byte, s string) []byte { return appendString(b, s, false) }

// AppendHTML appends s as a JSON string exactly as encoding/json.Marshal
// writes it, HTML escaping on: <, > and & become \u003c, \u003e and
// \u0026. Invalid UTF-8 becomes U+FFFD.
func AppendHTML(b []byte, s string) []byte { return appendString(b, s, true) }

// Bit masks over the eight bytes of a uint64.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// skipClean returns the index of the first byte of s, from i on, that needs
// escaping or a look of its own (a byte that is not ASCII, a control
// character, a quote or a backslash, and with html <, > or &), looking at
// eight bytes at a time; in the last seven bytes it stops at once, and the
// caller looks at them one by one.
func skipClean(s string, i int, html bool) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one bounds check, one load
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		// A byte below 0x20 borrows when 0x20 is subtracted; one of 0x80 or
		// above has its high bit set; one equal to c is zero after xor.
		// Pairs of bytes one bit apart are tested at once: " (0x22) and &
		// (0x26), < (0x3c) and > (0x3e).
		m := x | (x - ones*0x20) | zero(x^(ones*'\\'))
		if html {
			m |= zero((x^(ones*'"'))&^(ones*('"'^'&'))) | zero((x^(ones*'<'))&^(ones*('<'^'>')))
		} else {
			m |= zero(x ^ (ones * '"'))
		}
		if m &= highs; m != 0 {
			// The lowest flagged byte is always one that needs escaping
			// (borrows only flag bytes above it): stop right there.
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return i
}

// zero has the high bit of a byte set if the byte may be zero: exact for
// the lowest zero byte, and never missing one.
func zero(x uint64) uint64 { return (x - ones) &^ x }

func appendString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = skipClean(s, i, html); i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but line terminators in JavaScript source; encoding/json escapes them.
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
