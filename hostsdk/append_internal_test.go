package hostsdk

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// TestMessageFieldsAreEncoded: appendMessageJSON writes every field
// encoding/json would. A field added to Message or ContentBlock fails here
// until the encoder writes it too.
func TestMessageFieldsAreEncoded(t *testing.T) {
	for typ, want := range map[reflect.Type][]string{
		reflect.TypeFor[Message]():      {"ID", "Role", "Content", "Source", "UserInput"},
		reflect.TypeFor[ContentBlock](): {"Type", "Text", "Raw"},
	} {
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s has fields %v; appendMessageJSON writes %v", typ, got, want)
		}
	}
}

// FuzzAppendMessageJSONMatchesMarshal: the body the host writes for a
// message is byte for byte encoding/json.Marshal's, and compact JSON as
// Record.BodyCompactJSON promises.
func FuzzAppendMessageJSONMatchesMarshal(f *testing.F) {
	f.Add("m1", "user", "text", "Hello <b> & \"you\"\n", "", false, true, 1, "")
	f.Add("", "", "", "", "image", true, false, 2, "")
	f.Add("id\xff", "tool", "text", "\u2028\u2029\x00\x1f naïve", "text", false, true, 0, "")
	f.Add("m2", "assistant", "text", "x", "y", false, false, 5, `{ "type": "tool_use", "id": "<a>", "input": {"q": "\u2028"} }`)
	f.Add("m3", "tool", "text", "x", "y", false, false, 5, `{"type":"x",}`)
	f.Fuzz(func(t *testing.T, id, role, typ1, text1, typ2 string, userInput, nilContent bool, blocks int, raw string) {
		m := Message{ID: id, Role: Role(role), UserInput: userInput, Source: []byte(`{"kind":"x"}`)}
		if !nilContent {
			m.Content = []ContentBlock{}
			for i := range blocks % 6 {
				switch i % 3 {
				case 0:
					m.Content = append(m.Content, ContentBlock{Type: typ1, Text: text1})
				case 1:
					m.Content = append(m.Content, ContentBlock{Type: typ2})
				default:
					// A block keeping JSON of its own, as the runtime may set
					// it: written as json.Marshal writes it, or refused alike.
					m.Content = append(m.Content, ContentBlock{Type: typ2, Raw: json.RawMessage(raw)})
				}
			}
		}
		want, wantErr := json.Marshal(m)
		got, err := appendMessageJSON(nil, &m)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("appendMessageJSON error %v, json.Marshal error %v", err, wantErr)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("appendMessageJSON = %s\njson.Marshal = %s", got, want)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, got); err != nil || !bytes.Equal(compact.Bytes(), got) || bytes.ContainsAny(got, "\n\r") {
			t.Fatalf("body %s is not compact JSON on one line (err %v)", got, err)
		}
	})
}

// TestMessageRecordsCopyTheRuntimesSources: the records of a step hand
// the plugin's sources to the store as they are, and copy those the
// runtime passed in, which the runtime still owns; every body is marked
// compact JSON.
func TestMessageRecordsCopyTheRuntimesSources(t *testing.T) {
	runtime := []Message{{ID: "u1", Role: RoleUser, Source: []byte(`{"kind":"user"}`)}}
	plugin := Message{ID: "c1", Role: RoleUser, Source: []byte(`{"kind":"skill-catalog"}`)}
	recs, err := messageRecords(append(runtime[:1:1], plugin), runtime)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	runtime[0].Source[2] = 'K'
	if string(recs[0].Source) != `{"kind":"user"}` {
		t.Errorf("the runtime's source changed in its record: %s", recs[0].Source)
	}
	if &recs[1].Source[0] != &plugin.Source[0] {
		t.Errorf("the plugin's source was copied")
	}
	for i, r := range recs {
		if r.Type != sessionlog.TypeMessage || !r.BodyCompactJSON || !json.Valid(r.Body) {
			t.Errorf("record %d: type %q, compact %v, body %s", i, r.Type, r.BodyCompactJSON, r.Body)
		}
	}
	// Bodies share one buffer, each capped so that none can grow into the next.
	if cap(recs[0].Body) != len(recs[0].Body) {
		t.Errorf("the first body has room to grow into the second")
	}
}
