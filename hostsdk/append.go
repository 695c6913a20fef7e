package hostsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"unsafe"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// messageRecords turns messages into the session-log records that hold
// them, every body encoded once into one buffer and marked compact JSON,
// so that no store scans it again. A message's source is handed to the
// store as it is when the host owns it (the plugin's, decoded from its
// answer); sources the runtime passed in (those of runtime) are copied, so
// that the runtime may keep changing its own slices.
//
// A message of runtime whose text is not valid UTF-8 is refused (see
// checkMessagesUTF8): encoding would silently turn its bad bytes into
// U+FFFD.
func messageRecords(msgs, runtime []Message) ([]sessionlog.Record, error) {
	for i := range runtime {
		if err := runtime[i].CheckUTF8(); err != nil {
			return nil, err
		}
	}
	n := 0
	for i := range msgs {
		n += messageJSONSize(&msgs[i])
	}
	buf := make([]byte, 0, n)
	recs := make([]sessionlog.Record, len(msgs))
	for i := range msgs {
		start := len(buf)
		var err error
		if buf, err = appendMessageJSON(buf, &msgs[i]); err != nil {
			return nil, fmt.Errorf("encode message %q: %w", msgs[i].ID, err)
		}
		src := msgs[i].Source
		if sharesSource(src, runtime) {
			src = bytes.Clone(src)
		}
		recs[i] = sessionlog.Record{Type: sessionlog.TypeMessage, Source: src, Body: buf[start:len(buf):len(buf)], BodyCompactJSON: true}
	}
	return recs, nil
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
		n += 24 + len(c.Type) + len(c.Text) + len(c.Text)/16 + len(c.Raw)
	}
	return n
}

// appendMessageJSON appends m's JSON body, byte for byte what
// encoding/json.Marshal writes for it (a test holds the two together), as
// compact JSON, without reflection. A block that keeps its own JSON (Raw)
// is written as encoding/json writes a json.Marshaler's output: checked,
// compacted and HTML-escaped; JSON that does not parse is an error, as it
// is for json.Marshal.
func appendMessageJSON(b []byte, m *Message) ([]byte, error) {
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
			if c.Raw != nil {
				var err error
				if b, err = appendRawJSON(b, c.Raw); err != nil {
					return nil, fmt.Errorf("content block %d of type %q: %w", i, c.Type, err)
				}
				continue
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
	return append(b, '}'), nil
}

// appendRawJSON appends raw compacted and HTML-escaped, as encoding/json
// writes what a json.Marshaler returns. Blocks built with the contract's
// constructors are canonical already, and come out unchanged.
func appendRawJSON(b, raw []byte) ([]byte, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, err
	}
	out := bytes.NewBuffer(b)
	json.HTMLEscape(out, compact.Bytes())
	return out.Bytes(), nil
}

// minDigestedSource is the size from which a source the plugin produced is
// sent back by its digest: smaller ones cost less to send than to look up.
const minDigestedSource = 1 << 10

// ownSources returns, by sequence number, the digests of the sources of
// msgs (appended at seqs) that the plugin produced, not the runtime
// (runtime are the messages the runtime proposed), from minDigestedSource
// bytes on; nil when there are none.
func ownSources(msgs, runtime []Message, seqs []uint64) map[uint64][]byte {
	var own map[uint64][]byte
	for i := range msgs {
		src := msgs[i].Source
		if len(src) < minDigestedSource || i >= len(seqs) || sharesSource(src, runtime) {
			continue
		}
		if own == nil {
			own = make(map[uint64][]byte, 1)
		}
		own[seqs[i]] = contract.SourceDigestOf(src)
	}
	return own
}

// appendedSeqs returns the sequence numbers of the last n records of head.
func appendedSeqs(head sessionlog.Head, n int) []uint64 {
	seqs := make([]uint64, n)
	for i := range seqs {
		seqs[i] = head.Seq - uint64(n-1-i)
	}
	return seqs
}

// isPluginSource reports whether a message source is one the plugin writes:
// a catalog record (readable or not), a user invocation, a relevant-skills
// message, or a message of preloaded or re-attached skills. A `skill` tool
// result's load record is not: that message is the runtime's.
func isPluginSource(src []byte) bool {
	return len(src) > 0 && (events.IsCatalogKind(src) || events.IsInvocationKind(src) || events.IsRelevantKind(src) || events.IsAttachKind(src))
}

// appendMessages appends messages outside a step, unconditionally. runtime
// are the messages the runtime passed in, whose sources are its own (see
// messageRecords). It returns the messages' sequence numbers.
func appendMessages(ctx context.Context, log sessionlog.Log, msgs, runtime []Message) ([]uint64, error) {
	recs, err := messageRecords(msgs, runtime)
	if err != nil {
		return nil, err
	}
	head, err := log.Append(ctx, recs...)
	if err != nil {
		return nil, err
	}
	return appendedSeqs(head, len(recs)), nil
}

// contractEvent is a session-log event as the protocol carries it.
func contractEvent(ev sessionlog.Event) contract.SessionEvent {
	return contract.SessionEvent{Seq: ev.Seq, Type: ev.Type, Source: ev.Source, Visible: ev.Visible}
}
