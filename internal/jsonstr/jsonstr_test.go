package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

func marshal(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// FuzzAppendMatchesEncodingJSON: the output is byte for byte what
// encoding/json writes with HTML escaping off.
func FuzzAppendMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "<a & b>", "quote \" back \\ slash", "\b\f\n\r\t\x00\x1f", "\u2028\u2029", "bad \xff utf8", "日本語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(Append(nil, s)), marshal(s); got != want {
			t.Fatalf("Append(%q) = %s, want %s", s, got, want)
		}
	})
}

// FuzzAppendHTMLMatchesMarshal: the output is byte for byte what
// encoding/json.Marshal writes, HTML escaping on.
func FuzzAppendHTMLMatchesMarshal(f *testing.F) {
	for _, s := range []string{"", "plain", "<a & b>", "quote \" back \\ slash", "\b\f\n\r\t\x00\x1f", "\u2028\u2029", "bad \xff utf8", "日本語",
		"eight ok<eight ok>eight ok&eight ok", "0123456789abcdef\x7f0123456789abcdef\x80", "- pdf-forms: Fills PDF forms.\n- data-export: Exports data.\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendHTML(nil, s); string(got) != string(want) {
			t.Fatalf("AppendHTML(%q) = %s, want %s", s, got, want)
		}
	})
}

// BenchmarkAppend writes a catalog-like text of 120 KB: short lines of
// ASCII, each ended by a newline, with the markup of the catalog.
func BenchmarkAppend(b *testing.B) {
	var text bytes.Buffer
	text.WriteString("<system-reminder>\nThe following skills are available:\n")
	for i := 0; text.Len() < 120<<10; i++ {
		text.WriteString("- skill-00042: Handles task family 42: reads the inputs, checks them against the house rules and writes a short report.\n")
	}
	text.WriteString("</system-reminder>")
	s := text.String()
	buf := make([]byte, 0, 2*len(s))
	for _, bc := range []struct {
		name string
		f    func([]byte, string) []byte
	}{{"plain", Append}, {"html", AppendHTML}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for i := 0; i < b.N; i++ {
				buf = bc.f(buf[:0], s)
			}
		})
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for i := 0; i < b.N; i++ {
			if _, err := json.Marshal(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-valid", func(b *testing.B) {
		q, _ := json.Marshal(s)
		b.SetBytes(int64(len(q)))
		for i := 0; i < b.N; i++ {
			if !json.Valid(q) {
				b.Fatal("invalid")
			}
		}
	})
}
