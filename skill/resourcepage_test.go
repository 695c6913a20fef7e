package skill

import (
	"encoding/json"
	"testing"
)

func TestIsText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"print('hé €')\n", true},
		{"\t\r\n\x1b[31m", true}, // controls other than NUL are text
		{"a\x00b", false},
		{"\x00ab", false}, // a NUL first
		{"caf\xe9", false},
		{"\xff\xfe", false},
		{"\xe2\x82", false}, // a cut character
	}
	for _, tc := range tests {
		if got := IsText([]byte(tc.in)); got != tc.want {
			t.Errorf("IsText(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestResourcePageJSON(t *testing.T) {
	t.Parallel()
	next := int64(8192)
	for _, tc := range []struct {
		p    ResourcePage
		want string
	}{
		{ResourcePage{Name: "a", Path: "s/x.py", Offset: 0, NextOffset: &next, TotalBytes: 9000, Content: "x"}, `{"name":"a","path":"s/x.py","offset":0,"nextOffset":8192,"totalBytes":9000,"content":"x"}`},
		{ResourcePage{Name: "a", Path: "s/x.py", Offset: 8192, TotalBytes: 9000, Content: "y"}, `{"name":"a","path":"s/x.py","offset":8192,"totalBytes":9000,"content":"y"}`},
	} {
		b, err := json.Marshal(tc.p)
		if err != nil || string(b) != tc.want {
			t.Errorf("%+v encodes as %s, %v; want %s", tc.p, b, err, tc.want)
		}
	}
}
