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
