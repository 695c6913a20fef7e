package sessionlog

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
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
		end, ok := jsonstr.SkipValue(r.b, r.i, 0)
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
