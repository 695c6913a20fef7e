package sessionlog

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
)

// appendLine encodes rec as the line for event seq. more marks that the next
// line belongs to the same Append, so that open can drop an Append that was
// only partly written.
func appendLine(dst []byte, seq uint64, rec *Record, more bool) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, `,"type":`...)
	dst = jsonstr.Append(dst, rec.Type)
	dst = appendBytesField(dst, "source", rec.Source, false)
	dst = appendBytesField(dst, "body", rec.Body, rec.BodyCompactJSON)
	if h := rec.Hide; h != nil {
		dst = append(dst, `,"hide":{"from":`...)
		dst = strconv.AppendUint(dst, h.From, 10)
		dst = append(dst, `,"to":`...)
		dst = strconv.AppendUint(dst, h.To, 10)
		dst = append(dst, '}')
	}
	if more {
		dst = append(dst, `,"more":true`...)
	}
	return append(dst, "}\n"...)
}

// appendBytesField stores b so that it reads back byte-for-byte: embedded as
// JSON when that is lossless, as a JSON string when it is UTF-8 text, and in
// base64 otherwise. compact is the writer's promise that b is compact JSON
// (Record.BodyCompactJSON): it is embedded without another scan.
func appendBytesField(dst []byte, name string, b []byte, compact bool) []byte {
	switch {
	case b == nil:
		return dst
	case compact && len(b) > 0 || embeddable(b):
		dst = append(dst, `,"`...)
		dst = append(dst, name...)
		dst = append(dst, `":`...)
		return append(dst, b...)
	case utf8.Valid(b):
		dst = append(dst, `,"`...)
		dst = append(dst, name...)
		dst = append(dst, `Text":`...)
		return jsonstr.Append(dst, string(b))
	default:
		dst = append(dst, `,"`...)
		dst = append(dst, name...)
		dst = append(dst, `B64":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, b)
		return append(dst, '"')
	}
}

// embeddable reports whether b can be written into a line as a JSON value
// and read back identically: the decoder returns a value's exact bytes, but
// not whitespace around it, and a line must not contain a newline.
func embeddable(b []byte) bool {
	if len(b) == 0 || isJSONSpace(b[0]) || isJSONSpace(b[len(b)-1]) {
		return false
	}
	if bytes.ContainsAny(b, "\n\r") || !utf8.Valid(b) {
		return false
	}
	return jsonstr.Valid(b)
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

type wireRange struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

type wireRecord struct {
	Seq        uint64          `json:"seq"`
	Type       string          `json:"type"`
	Source     json.RawMessage `json:"source"`
	SourceText *string         `json:"sourceText"`
	SourceB64  *string         `json:"sourceB64"`
	Body       json.RawMessage `json:"body"`
	BodyText   *string         `json:"bodyText"`
	BodyB64    *string         `json:"bodyB64"`
	Hide       *wireRange      `json:"hide"`
	More       bool            `json:"more"`
}

// parsedLine is a decoded line. ok is false when the line is not a record
// this package wrote; the caller then passes the line through as Raw.
type parsedLine struct {
	ok     bool
	typ    string
	source []byte
	body   []byte
	hide   *Range
	more   bool
}

// parseLine decodes one line (without its newline) found at position seq.
// The seq stored in the line is informational; the position is trusted. A
// hide range that does not fit the position makes the line unparseable
// rather than hiding events it never could have named.
func parseLine(line []byte, seq uint64) parsedLine {
	if p, ok := parseOwnLine(line, seq); ok {
		return p
	}
	return parseLineJSON(line, seq)
}

// parseLineJSON is parseLine with encoding/json, for any line.
func parseLineJSON(line []byte, seq uint64) parsedLine {
	var w wireRecord
	if err := json.Unmarshal(line, &w); err != nil || w.Type == "" {
		return parsedLine{}
	}
	p := parsedLine{typ: w.Type, more: w.More}
	var ok bool
	if p.source, ok = decodeBytes(w.Source, w.SourceText, w.SourceB64); !ok {
		return parsedLine{}
	}
	if p.body, ok = decodeBytes(w.Body, w.BodyText, w.BodyB64); !ok {
		return parsedLine{}
	}
	// An embedded body was validated with the line; only the string
	// encodings need checking.
	if p.body != nil && w.Body == nil && !json.Valid(p.body) {
		return parsedLine{}
	}
	if w.Hide != nil {
		h := Range{From: w.Hide.From, To: w.Hide.To}
		if !validHide(h, seq) {
			return parsedLine{}
		}
		p.hide = &h
	}
	p.ok = true
	return p
}

// decodeBytes returns the bytes held by whichever of the three encodings is
// present. More than one present, or bad base64, is malformed.
func decodeBytes(raw json.RawMessage, text, b64 *string) ([]byte, bool) {
	n := 0
	if raw != nil {
		n++
	}
	if text != nil {
		n++
	}
	if b64 != nil {
		n++
	}
	switch {
	case n > 1:
		return nil, false
	case raw != nil:
		return []byte(raw), true
	case text != nil:
		b := make([]byte, len(*text))
		copy(b, *text)
		return b, true
	case b64 != nil:
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return nil, false
		}
		if b == nil {
			b = []byte{}
		}
		return b, true
	}
	return nil, true
}
