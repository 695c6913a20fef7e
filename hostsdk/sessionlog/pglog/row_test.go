package pglog

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

func TestEventFromRow(t *testing.T) {
	for _, c := range []struct {
		name              string
		typ, source, body []byte
		wellFormed        bool
	}{
		{"message", []byte("message"), []byte(`{"kind":"x"}`), []byte(`{"a":1}`), true},
		{"no source, no body", []byte("note"), nil, nil, true},
		{"empty source", []byte("note"), []byte{}, []byte(`1`), true},
		{"source not JSON", []byte("message"), []byte("\xff\x00"), []byte(`"s"`), true},
		{"NUL in type", []byte("a\x00b"), nil, nil, true},
		{"empty type", []byte{}, nil, []byte(`{}`), false},
		{"type not UTF-8", []byte("bad\xff"), nil, nil, false},
		{"body not JSON", []byte("message"), []byte("s"), []byte("{bad"), false},
		{"empty body", []byte("message"), nil, []byte{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := event(7, c.typ, c.source, c.body, false)
			if e.Seq != 7 || e.Visible {
				t.Fatalf("Seq %d Visible %v, want 7 false", e.Seq, e.Visible)
			}
			if got := e.Raw == nil; got != c.wellFormed {
				t.Fatalf("event %+v: well-formed %v, want %v", e, got, c.wellFormed)
			}
			checkEvent(t, e, c.typ, c.source, c.body)
		})
	}
}

// checkEvent checks that e holds the row: in its fields when well-formed,
// otherwise in Raw, with nothing lost either way.
func checkEvent(t *testing.T, e sessionlog.Event, typ, source, body []byte) {
	t.Helper()
	gotType, gotSource, gotBody, raw := e.Type, e.Source, e.Body, e.Raw
	if raw == nil {
		if gotType != string(typ) || !sameBytes(gotSource, source) || !sameBytes(gotBody, body) {
			t.Fatalf("well-formed event (%q, %q, %q), want the row (%q, %q, %q)", gotType, gotSource, gotBody, typ, source, body)
		}
		return
	}
	if gotType != "" || gotSource != nil || gotBody != nil {
		t.Fatalf("raw event has Type %q, Source %q, Body %q; want them empty", gotType, gotSource, gotBody)
	}
	var r rawRow
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("Raw %s does not decode: %v", raw, err)
	}
	if !bytes.Equal(r.Type, typ) || !sameBytes(r.Source, source) || !sameBytes(r.Body, body) {
		t.Fatalf("Raw %s decodes to (%q, %q, %q), want the row (%q, %q, %q)", raw, r.Type, r.Source, r.Body, typ, source, body)
	}
}

// sameBytes is bytes.Equal that also tells nil from empty.
func sameBytes(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

// FuzzEventFromRow decodes arbitrary column values: a row reads back either
// as the record it holds or, when it breaks the record rules, in Raw, never
// losing a byte or the difference between NULL and empty.
func FuzzEventFromRow(f *testing.F) {
	f.Add([]byte("message"), []byte(`{"kind":"skill-catalog"}`), []byte(`{"role":"user"}`), false, false)
	f.Add([]byte(""), []byte{}, []byte{}, true, true)
	f.Add([]byte("\xff"), []byte("\x00"), []byte("{"), false, false)
	f.Add([]byte("t\x00"), []byte{}, []byte(" null "), false, true)
	f.Fuzz(func(t *testing.T, typ, source, body []byte, nilSource, nilBody bool) {
		// The fuzzer never passes nil slices; the flags make NULLs.
		if nilSource {
			source = nil
		} else if source == nil {
			source = []byte{}
		}
		if nilBody {
			body = nil
		} else if body == nil {
			body = []byte{}
		}
		e := event(3, typ, source, body, true)
		wellFormed := len(typ) > 0 && utf8.Valid(typ) && (body == nil || json.Valid(body))
		if (e.Raw == nil) != wellFormed {
			t.Fatalf("row (%q, %q, %q): Raw %q, want well-formed %v", typ, source, body, e.Raw, wellFormed)
		}
		if e.Seq != 3 || !e.Visible {
			t.Fatalf("Seq %d Visible %v, want 3 true", e.Seq, e.Visible)
		}
		checkEvent(t, e, typ, source, body)
	})
}
