package sessionlog

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzParseOwnLineAgreesWithJSON: a line the one-pass parser accepts is
// one encoding/json decodes alike; lines appendLine writes are accepted.
func FuzzParseOwnLineAgreesWithJSON(f *testing.F) {
	for _, r := range []Record{
		{Type: "message", Source: []byte(`{"kind":"skill-catalog","entries":[{"name":"a","description":"x \"q\" \\u00e9 \u00e9"}],"n":-1.5e+3,"t":true,"f":false,"z":null}`), Body: []byte(`{"id":"m","content":[]}`)},
		{Type: "message", Source: []byte("not JSON\n"), Body: []byte(" [1, 2] ")},
		{Type: "compaction", Body: []byte(`{"summary":"s"}`), Hide: &Range{From: 1, To: 2}},
		{Type: "t\u00e9\"q", Source: []byte{0xff, 0}, Body: []byte(`"\u2028"`)},
		{Type: "message", Source: []byte{}, Body: []byte(`{ "a" : [ 1 , { } , [ ] ] }`)},
	} {
		f.Add(appendLine(nil, 5, &r, false), uint64(5))
		f.Add(appendLine(nil, 5, &r, true), uint64(5))
	}
	f.Add([]byte(`{"seq":1,"type":"m","source":{"a":01}}`), uint64(1))
	f.Add([]byte(`{"seq":1,"type":"m","body":[1,]}`), uint64(1))
	f.Fuzz(func(t *testing.T, line []byte, seq uint64) {
		if bytes.ContainsAny(line, "\n") {
			return
		}
		fast, ok := parseOwnLine(line, seq)
		if !ok {
			return
		}
		if slow := parseLineJSON(line, seq); !reflect.DeepEqual(fast, slow) {
			t.Fatalf("line %q at %d:\none pass:      %+v\nencoding/json: %+v", line, seq, fast, slow)
		}
	})
}

// TestOwnLinesTakeTheOnePass: every line appendLine writes with an
// embedded or text source and body is parsed in one pass.
func TestOwnLinesTakeTheOnePass(t *testing.T) {
	for _, r := range []Record{
		{Type: "message", Source: []byte(`{"kind":"k","s":"a\"b\u00e9 é"}`), Body: []byte(`{"id":"m"}`)},
		{Type: "message", Source: []byte("plain text"), Body: []byte(" {} ")},
		{Type: "compaction", Body: []byte(`{}`), Hide: &Range{From: 1, To: 3}},
		{Type: "message"},
	} {
		for _, more := range []bool{false, true} {
			line := appendLine(nil, 4, &r, more)
			p, ok := parseOwnLine(bytes.TrimSuffix(line, []byte("\n")), 4)
			if !ok || !bytes.Equal(p.source, r.Source) || !bytes.Equal(p.body, r.Body) || p.typ != r.Type || p.more != more {
				t.Errorf("line %s: parsed %v %+v", line, ok, p)
			}
		}
	}
}
