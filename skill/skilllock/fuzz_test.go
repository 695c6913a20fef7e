package skilllock

import (
	"bytes"
	"testing"
)

// FuzzParse: Parse never panics, and what it reads encodes to a file it
// reads back to the same bytes.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version":1,"skills":[{"kind":"local","name":"a","digest":"sha256:` + string(bytes.Repeat([]byte("0"), 64)) + `"}]}`))
	f.Add([]byte(`{"version":1,"skills":[]}`))
	f.Add([]byte(`{"version":1,"skills":[{"kind":"mcp","origin":"s","name":"\u00e9","digest":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			return
		}
		enc := l.Encode()
		back, err := Parse(enc)
		if err != nil {
			t.Fatalf("Parse(Encode()) failed: %v\n%s", err, enc)
		}
		if !bytes.Equal(back.Encode(), enc) {
			t.Fatalf("not reproducible:\n%s\n%s", enc, back.Encode())
		}
	})
}

// FuzzParseSkillsCLI: ParseSkillsCLI never panics, what it reads writes
// back to a file that reads to the same, and ToLock never panics.
func FuzzParseSkillsCLI(f *testing.F) {
	f.Add([]byte(cliLock))
	f.Add([]byte(`{"version":1,"skills":{}}`))
	f.Add([]byte(`{"version":1,"skills":{"a":{"computedHash":"` + string(bytes.Repeat([]byte("f"), 64)) + `","a":1,"a":2}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseSkillsCLI(data)
		if err != nil {
			return
		}
		enc := l.Encode()
		back, err := ParseSkillsCLI(enc)
		if err != nil {
			t.Fatalf("ParseSkillsCLI(Encode()) failed: %v\n%s", err, enc)
		}
		if !bytes.Equal(back.Encode(), enc) {
			t.Fatalf("not reproducible:\n%s\n%s", enc, back.Encode())
		}
		_, _, _ = l.ToLock()
	})
}
