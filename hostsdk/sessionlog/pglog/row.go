package pglog

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// rawRow is the Raw form of a stored row that breaks the record rules:
// its columns, each base64 or null, so that nothing is lost.
type rawRow struct {
	Type   []byte `json:"type"`
	Source []byte `json:"source"`
	Body   []byte `json:"body"`
}

// event turns one stored row into an Event. The store writes only rows
// that pass Record.Validate, but the table is open to other writers: a row
// whose type is empty or not UTF-8, or whose body is not JSON, reads back
// as an Event with Type "" and the row in Raw, which readers skip.
func event(seq uint64, typ, source, body []byte, visible bool) sessionlog.Event {
	if len(typ) > 0 && utf8.Valid(typ) && (body == nil || json.Valid(body)) {
		return sessionlog.Event{Seq: seq, Type: string(typ), Source: source, Body: body, Visible: visible}
	}
	// Marshalling byte slices cannot fail.
	raw, _ := json.Marshal(rawRow{Type: typ, Source: source, Body: body})
	return sessionlog.Event{Seq: seq, Visible: visible, Raw: raw}
}
