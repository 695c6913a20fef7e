package sessionlog

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// parseOwnLine decodes a line in exactly the form appendLine writes, fields
// in its order and no whitespace between them, in one pass and without
// reflection: an embedded source or body is checked as JSON while its end
// is found, and taken as it is. ok is false for any other line, valid or
// not; parseLine then decodes it with encoding/json, so the two agree on
// every line this accepts (a fuzz test holds them together). The source
// and body it returns are slices of line, not copies: the caller decides
// whether they may share its buffer.
func parseOwnLine(line []byte, seq uint64) (parsedLine, bool) {
	r := lineReader{b: line}
	if !r.lit(`{"seq":`) || !r.uint() || !r.lit(`,"type":`) {
		return parsedLine{}, false
	}
	typ, ok := r.plainString()
	if !ok || len(typ) == 0 {
		return parsedLine{}, false
	}
	p := parsedLine{typ: string(typ)}
	if p.source, _, ok = r.bytesField("source"); !ok {
		return parsedLine{}, false
	}
	var text bool
	if p.body, text, ok = r.bytesField("body"); !ok || text && !json.Valid(p.body) {
		return parsedLine{}, false
	}
	if r.lit(`,"hide":{"from":`) {
		from, ok1 := r.uintValue()
		ok2 := r.lit(`,"to":`)
		to, ok3 := r.uintValue()
		if !ok1 || !ok2 || !ok3 || !r.lit("}") {
			return parsedLine{}, false
		}
		h := Range{From: from, To: to}
		if !validHide(h, seq) {
			return parsedLine{}, false
		}
		p.hide = &h
	}
	p.more = r.lit(`,"more":true`)
	if !r.lit("}") || r.i != len(r.b) {
		return parsedLine{}, false
	}
	p.ok = true
	return p, true
}

// lineReader reads a line from position i on.
type lineReader struct {
	b []byte
	i int
}

// lit consumes s if the line continues with it.
func (r *lineReader) lit(s string) bool {
	if !bytes.HasPrefix(r.b[r.i:], []byte(s)) {
		return false
	}
	r.i += len(s)
	return true
}

// uint consumes a decimal number without sign, fraction or exponent.
func (r *lineReader) uint() bool {
	_, ok := r.uintValue()
	return ok
}

func (r *lineReader) uintValue() (uint64, bool) {
	j := r.i
	for j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
		j++
	}
	if j == r.i || r.b[r.i] == '0' && j-r.i > 1 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(r.b[r.i:j]), 10, 64)
	if err != nil {
		return 0, false
	}
	r.i = j
	return n, true
}

// plainString consumes a JSON string without escapes whose bytes are
// valid UTF-8, and returns its contents; a string that needs decoding is
// left to encoding/json.
func (r *lineReader) plainString() ([]byte, bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return nil, false
	}
	j := r.i + 1
	for j < len(r.b) && r.b[j] != '"' {
		if c := r.b[j]; c == '\\' || c < 0x20 {
			return nil, false
		}
		j++
	}
	if j == len(r.b) || !utf8.Valid(r.b[r.i+1:j]) {
		return nil, false
	}
	s := r.b[r.i+1 : j]
	r.i = j + 1
	return s, true
}

// bytesField consumes the field of name as appendBytesField writes it, if
// present: an embedded JSON value, or a plain JSON string of text (text
// set), as a slice of the line. nil means absent. Base64 is left to
// encoding/json.
func (r *lineReader) bytesField(name string) (v []byte, text, ok bool) {
	start := r.i
	if !r.lit(`,"`) || !r.lit(name) {
		r.i = start
		return nil, false, true
	}
	switch {
	case r.lit(`":`):
		end, ok := skipValue(r.b, r.i, 0)
		if !ok {
			return nil, false, false
		}
		v := r.b[r.i:end]
		r.i = end
		return v, false, true
	case r.lit(`Text":`):
		s, ok := r.plainString()
		if !ok {
			return nil, false, false
		}
		return s, true, true
	}
	return nil, false, false
}

// validJSON is json.Valid, in one pass for values of ordinary depth;
// encoding/json decides on the rest (a value too deep, or not valid).
func validJSON(b []byte) bool {
	end, ok := skipValue(b, skipSpace(b, 0), 0)
	if !ok {
		return json.Valid(b)
	}
	return skipSpace(b, end) == len(b)
}

// maxDepth bounds the nesting skipValue follows; deeper values are left to
// encoding/json.
const maxDepth = 512

// skipValue returns the end of the JSON value starting at b[i], checking
// it as JSON, with no whitespace before it.
func skipValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > maxDepth {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{':
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = skipString(b, i); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
				return 0, false
			}
			if i, ok = skipValue(b, skipSpace(b, i+1), depth+1); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i >= len(b) {
				return 0, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case '}':
				return i + 1, true
			default:
				return 0, false
			}
		}
	case c == '[':
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = skipValue(b, i, depth+1); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i >= len(b) {
				return 0, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case ']':
				return i + 1, true
			default:
				return 0, false
			}
		}
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

func skipSpace(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
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

// Bit masks over the eight bytes of a uint64.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// skipString returns the end of the JSON string starting at b[i]: no
// control characters, only JSON's escapes. Runs of eight bytes holding no
// quote, backslash or control character are skipped at once.
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	i++
	for {
		for ; i+8 <= len(b); i += 8 {
			w := b[i : i+8]
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			// Bytes below 0x20, and bytes equal to '"' or '\\' (zero after
			// xor), set their high bit here; borrows may flag others too.
			m := (x-ones*0x20)&^x | zeroByte(x^(ones*'"')) | zeroByte(x^(ones*'\\'))
			if m &= highs; m != 0 {
				// The lowest flagged byte is a true one: go straight to it.
				i += bits.TrailingZeros64(m) / 8
				break
			}
		}
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			if i+1 >= len(b) {
				return 0, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return 0, false
				}
				for _, h := range b[i+2 : i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return 0, false
					}
				}
				i += 6
			default:
				return 0, false
			}
		default:
			i++
		}
	}
}

// zeroByte has the high bit of a byte set if the byte may be zero: exact
// for the lowest zero byte, and never missing one.
func zeroByte(x uint64) uint64 { return (x - ones) &^ x }
