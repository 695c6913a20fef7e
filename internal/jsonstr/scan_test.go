package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`{"a":[1,-0.5e+7,true,false,null,"\u00e9\n"]}`, ` [] `, ` {} `, `{"a":01}`, `[1,]`, `"\x01"`,
		`"\ud800"`, `{"a" 1}`, `1.`, `-`, `[[[[]]]]`, "\"\xff\"", `{"a":1}x`, `"abcdefghijklmnop\"q"`,
		`"abcdefgh\\ijklmnop"`, `"abcdefgh\u00zz"`, `tru`, `nul`, `{"a":1,}`, `{,}`, `1e`, `1e+`, `0.1E-2`,
		"\"abcdefghijklmn\x1f\"", `"\q"`, ``, ` `,
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth),
		strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1),
	} {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.40q) = %v, json.Valid = %v", s, got, want)
		}
	}
}

func TestSkipValueCountsTheCallersDepth(t *testing.T) {
	t.Parallel()
	b := []byte("[[]]")
	if _, ok := SkipValue(b, 0, MaxDepth-2); !ok {
		t.Errorf("two levels below the limit: refused")
	}
	if _, ok := SkipValue(b, 0, MaxDepth-1); ok {
		t.Errorf("one level past the limit: accepted")
	}
}

func TestSkipStringReportsEscapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in          string
		end         int
		escaped, ok bool
	}{
		{`"plain" tail`, 7, false, true},
		{`"a\"b"`, 6, true, true},
		{`"long run without escapes"`, 26, false, true},
		{`"\u00e9"`, 8, true, true},
		{`"open`, 0, false, false},
		{`x"`, 0, false, false},
	} {
		end, escaped, ok := SkipString([]byte(tc.in), 0)
		if end != tc.end || escaped != tc.escaped || ok != tc.ok {
			t.Errorf("SkipString(%q) = %d, %v, %v; want %d, %v, %v", tc.in, end, escaped, ok, tc.end, tc.escaped, tc.ok)
		}
	}
}

// FuzzValidIsJSONValid: the one-pass check answers as json.Valid, and what
// SkipValue takes as one value is one.
func FuzzValidIsJSONValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,-0.5e+7,true,false,null,"\u00e9\n"]}`, ` [] `, `{"a":01}`, `[1,]`, `"\x01"`, `"\ud800"`, `{"a" 1}`, `1.`, `-`, `[[[[]]]]`, "\"\xff\"", `{"a":1}x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid = %v", b, got, want)
		}
		end, ok := SkipValue(b, 0, 0)
		if ok && !json.Valid(b[:end]) {
			t.Fatalf("SkipValue accepted %q, which is not JSON", b[:end])
		}
	})
}
