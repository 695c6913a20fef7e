package hostsdk

import (
	"bytes"
	"unsafe"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
)

// messageRecords turns messages into the session-log records that hold
// them, every body encoded once into one buffer and marked compact JSON,
// so that no store scans it again. A message's source is handed to the
// store as it is when the host owns it (the plugin's, decoded from its
// answer); sources the runtime passed in (those of runtime) are copied, so
// that the runtime may keep changing its own slices.
func messageRecords(msgs, runtime []Message) []sessionlog.Record {
	n := 0
	for i := range msgs {
		n += messageJSONSize(&msgs[i])
	}
	buf := make([]byte, 0, n)
	recs := make([]sessionlog.Record, len(msgs))
	for i := range msgs {
		start := len(buf)
		buf = appendMessageJSON(buf, &msgs[i])
		src := msgs[i].Source
		if sharesSource(src, runtime) {
			src = bytes.Clone(src)
		}
		recs[i] = sessionlog.Record{Type: sessionlog.TypeMessage, Source: src, Body: buf[start:len(buf):len(buf)], BodyCompactJSON: true}
	}
	return recs
}

// sharesSource reports whether src is the source of one of msgs.
func sharesSource(src []byte, msgs []Message) bool {
	if len(src) == 0 {
		return false
	}
	for i := range msgs {
		if s := msgs[i].Source; len(s) > 0 && unsafe.SliceData(s) == unsafe.SliceData(src) {
			return true
		}
	}
	return false
}

// messageJSONSize is what appendMessageJSON will likely need for m: its
// text and fields, with room for some escapes.
func messageJSONSize(m *Message) int {
	n := 64 + len(m.ID) + len(m.Role)
	for _, c := range m.Content {
		n += 24 + len(c.Type) + len(c.Text) + len(c.Text)/16
	}
	return n
}

// appendMessageJSON appends m's JSON body, byte for byte what
// encoding/json.Marshal writes for it (a test holds the two together), as
// compact JSON, without reflection.
func appendMessageJSON(b []byte, m *Message) []byte {
	b = append(b, `{"id":`...)
	b = jsonstr.AppendHTML(b, m.ID)
	b = append(b, `,"role":`...)
	b = jsonstr.AppendHTML(b, string(m.Role))
	b = append(b, `,"content":`...)
	if m.Content == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range m.Content {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":`...)
			b = jsonstr.AppendHTML(b, c.Type)
			if c.Text != "" {
				b = append(b, `,"text":`...)
				b = jsonstr.AppendHTML(b, c.Text)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if m.UserInput {
		b = append(b, `,"userInput":true`...)
	}
	return append(b, '}')
}
