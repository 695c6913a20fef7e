package events

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// RelevantKind is the "kind" of the source of a relevant-skills message:
// the message the plugin adds at a user's turn naming the skills that best
// match the request. Such sources are foreign to the catalog rules: they
// neither count as a published catalog nor hide one.
//
//	{"kind":"skill-relevant","names":["pdf-forms","docx"],"for":"u7"}
//
// names are the skills the message described, in its order; for is the id
// of the user message it answered.
const RelevantKind = "skill-relevant"

// Relevant is what a relevant-skills message's source records.
type Relevant struct {
	// Names are the skills the message described.
	Names []string `json:"names"`
	// For is the id of the user message the message answered.
	For string `json:"for"`
}

// Bounds on what a Baseline remembers of relevant-skills messages, newest
// first: beyond them, a skill may be described again, or a user message
// answered again, which costs some tokens and breaks nothing.
const (
	MaxShown    = 256
	MaxAnswered = 64
	// maxRelevantSource bounds a source worth decoding as a
	// relevant-skills record.
	maxRelevantSource = 64 << 10
)

// EncodeRelevant returns the durable source of a relevant-skills message.
func EncodeRelevant(r Relevant) []byte {
	if r.Names == nil {
		r.Names = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Kind string `json:"kind"`
		Relevant
	}{RelevantKind, r}); err != nil {
		panic(err) // strings and a slice of strings always encode
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// relevantLiteral must occur in every relevant-skills source.
const relevantLiteral = `"` + RelevantKind + `"`

// ParseRelevant returns the record of a relevant-skills source, and false
// for any other source, or one that is not a JSON object of that kind with
// a list of names (strings) and, if any, a string for. Names that are not
// valid UTF-8 or are empty are left out.
func ParseRelevant(source []byte) (Relevant, bool) {
	if len(source) > maxRelevantSource || !bytes.Contains(source, []byte(relevantLiteral)) {
		return Relevant{}, false
	}
	var v struct {
		Kind  string          `json:"kind"`
		Names json.RawMessage `json:"names"`
		For   json.RawMessage `json:"for"`
	}
	if json.Unmarshal(source, &v) != nil || v.Kind != RelevantKind {
		return Relevant{}, false
	}
	var r Relevant
	if json.Unmarshal(v.Names, &r.Names) != nil || r.Names == nil {
		return Relevant{}, false
	}
	if len(v.For) > 0 && json.Unmarshal(v.For, &r.For) != nil {
		return Relevant{}, false
	}
	kept := r.Names[:0]
	for _, n := range r.Names {
		if n != "" && utf8.ValidString(n) {
			kept = append(kept, n)
		}
	}
	r.Names = kept
	return r, true
}

// IsRelevantKind reports whether source is a relevant-skills record.
func IsRelevantKind(source []byte) bool {
	_, ok := ParseRelevant(source)
	return ok
}

// noteRelevant adds a visible relevant-skills record, older than those
// noted before, to b.
func (b *Baseline) noteRelevant(r Relevant) {
	for _, n := range r.Names {
		if len(b.Shown) < MaxShown {
			b.Shown = append(b.Shown, n)
		}
	}
	if r.For != "" && len(b.Answered) < MaxAnswered {
		b.Answered = append(b.Answered, r.For)
	}
}
