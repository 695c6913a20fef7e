package jsonstr

import (
	"bytes"
	"math/bits"
)

// MaxDepth is encoding/json's nesting limit: SkipValue refuses a value
// nested deeper, as json.Valid does.
const MaxDepth = 10000

// Valid reports whether b is one JSON value with optional surrounding
// whitespace: json.Valid, in one pass and without allocating.
func Valid(b []byte) bool {
	end, ok := SkipValue(b, SkipSpace(b, 0), 0)
	return ok && SkipSpace(b, end) == len(b)
}

// SkipSpace returns the index of the first byte of b, from i on, that is
// not JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipValue returns the end of the JSON value starting at b[i] (no
// whitespace before it), checking it as json.Valid would. depth is the
// nesting the value sits in already, so a caller that walks the outer
// levels itself keeps encoding/json's limit over the whole document.
func SkipValue(b []byte, i, depth int) (end int, ok bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		end, _, ok = SkipString(b, i)
		return end, ok
	case c == '{':
		return skipObject(b, i, depth+1)
	case c == '[':
		return skipArray(b, i, depth+1)
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return skipNumber(b, i)
	}
	return 0, false
}

// skipObject skips the object whose '{' is at b[i], at nesting depth.
func skipObject(b []byte, i, depth int) (int, bool) {
	if depth > MaxDepth {
		return 0, false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, _, ok = SkipString(b, i); !ok {
			return 0, false
		}
		if i = SkipSpace(b, i); i >= len(b) || b[i] != ':' {
			return 0, false
		}
		if i, ok = SkipValue(b, SkipSpace(b, i+1), depth); !ok {
			return 0, false
		}
		if i = SkipSpace(b, i); i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// skipArray skips the array whose '[' is at b[i], at nesting depth.
func skipArray(b []byte, i, depth int) (int, bool) {
	if depth > MaxDepth {
		return 0, false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = SkipValue(b, i, depth); !ok {
			return 0, false
		}
		if i = SkipSpace(b, i); i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case ']':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

func skipLiteral(b []byte, i int, lit string) (int, bool) {
	if !bytes.HasPrefix(b[i:], []byte(lit)) {
		return 0, false
	}
	return i + len(lit), true
}

// skipNumber follows JSON's number grammar:
// -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
func skipNumber(b []byte, i int) (int, bool) {
	digits := func(i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// SkipString returns the end of the JSON string whose opening quote is at
// b[i], checking it as json.Valid would (no control characters, only
// JSON's escapes; any other byte, invalid UTF-8 included, is accepted),
// and whether it holds an escape. Runs of eight bytes holding no quote,
// backslash or control character are skipped at once.
func SkipString(b []byte, i int) (end int, escaped, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false, false
	}
	i++
	for {
		i = skipPlain(b, i)
		if i >= len(b) {
			return 0, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, true
		case c < 0x20:
			return 0, false, false
		case c == '\\':
			n := EscapeLen(b, i)
			if n == 0 {
				return 0, false, false
			}
			escaped = true
			i += n
		default:
			i++
		}
	}
}

// skipPlain returns the index of the first byte of b, from i on, that may
// end a run of plain string bytes (a quote, a backslash or a control
// character), eight bytes at a time; in the last seven bytes it stops at
// once, and the caller looks at them one by one.
func skipPlain(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := b[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		// Bytes below 0x20, and bytes equal to '"' or '\\' (zero after
		// xor), set their high bit here; borrows may flag others too, but
		// only above the lowest true one.
		m := (x-ones*0x20)&^x | zero(x^(ones*'"')) | zero(x^(ones*'\\'))
		if m &= highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return i
}

// EscapeLen returns the length of the valid escape sequence whose
// backslash is at b[i], or 0 if it is not one.
func EscapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if _, ok := Hex4(b, i+2); ok {
			return 6
		}
	}
	return 0
}

// Hex4 decodes the four hexadecimal digits at b[i:].
func Hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
