package mcpskills

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"
)

func entryFields(t *testing.T, raw string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFrontmatterDiff: a SKILL.md's YAML frontmatter agrees with the JSON
// an entry renders it as, field by field, and any difference names the
// first differing field.
func TestFrontmatterDiff(t *testing.T) {
	for _, tc := range []struct {
		name, entry, yaml, diff string
	}{
		{"same", `{"name":"x","description":"d"}`, "name: x\ndescription: d\n", ""},
		{"order and quoting", `{"name":"x","description":"a: b"}`, "description: \"a: b\"\nname: 'x'\n", ""},
		{"typed scalars", `{"name":"x","description":"d","n":12,"f":2.5,"b":true,"z":null,"s":"12","hex":31}`, "name: x\ndescription: d\nn: 12\nf: 2.5\nb: true\nz: ~\ns: \"12\"\nhex: 0x1F\n", ""},
		{"nested", `{"name":"x","description":"d","metadata":{"team":"billing","version":"2.1"},"tags":["a","b"]}`, "name: x\ndescription: d\nmetadata:\n  team: billing\n  version: \"2.1\"\ntags:\n  - a\n  - b\n", ""},
		{"block scalar", `{"name":"x","description":"line one\nline two\n"}`, "name: x\ndescription: |\n  line one\n  line two\n", ""},
		{"folded", `{"name":"x","description":"a b"}`, "name: x\ndescription: >-\n  a\n  b\n", ""},
		{"a date stays a string", `{"name":"x","description":"d","updated":"2026-09-13"}`, "name: x\ndescription: d\nupdated: 2026-09-13\n", ""},
		{"no is a string", `{"name":"x","description":"d","flag":"no"}`, "name: x\ndescription: d\nflag: no\n", ""},
		{"CRLF", `{"name":"x","description":"d"}`, "name: x\r\ndescription: d\r\n", ""},
		{"description differs", `{"name":"x","description":"d"}`, "name: x\ndescription: e\n", "description"},
		{"extra field in the file", `{"name":"x","description":"d"}`, "name: x\ndescription: d\nallowed-tools: Bash\n", "allowed-tools"},
		{"field missing from the file", `{"name":"x","description":"d","license":"MIT"}`, "name: x\ndescription: d\n", "license"},
		{"number against string", `{"name":"x","description":"d","v":"2"}`, "name: x\ndescription: d\nv: 2\n", "v"},
		{"nested value differs", `{"name":"x","description":"d","metadata":{"team":"a"}}`, "name: x\ndescription: d\nmetadata:\n  team: b\n", "metadata"},
		{"list order", `{"name":"x","description":"d","tags":["a","b"]}`, "name: x\ndescription: d\ntags: [b, a]\n", "tags"},
		{"null against missing", `{"name":"x","description":"d","z":null}`, "name: x\ndescription: d\n", "z"},
		{"first in sorted order", `{"name":"x","description":"d","b":1,"a":1}`, "name: y\ndescription: d\nb: 2\na: 2\n", "a"},
		// Read as serve-mcp writes its entries (skillsext.FrontmatterJSON).
		{"an unquoted colon value, read leniently", `{"name":"x","description":"House style: short."}`, "name: x\ndescription: House style: short.\n", ""},
		{"YAML 1.2 integers", `{"name":"x","description":"d","a":17,"b":15}`, "name: x\ndescription: d\na: 017\nb: 0o17\n", ""},
		{"numbers by value", `{"name":"x","description":"d","v":2.0}`, "name: x\ndescription: d\nv: 2\n", ""},
		{"a repeated key keeps its last value", `{"name":"x","description":"d"}`, "name: y\nname: x\ndescription: d\n", ""},
		{"aliases expanded", `{"name":"x","description":"d","a":{"b":1},"c":{"b":1}}`, "name: x\ndescription: d\na: &r {b: 1}\nc: *r\n", ""},
	} {
		fields, err := frontmatterFields("---\n" + tc.yaml + "---\n# Body\n")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := frontmatterDiff(entryFields(t, tc.entry), fields); got != tc.diff {
			t.Errorf("%s: frontmatterDiff = %q, want %q", tc.name, got, tc.diff)
		}
	}
}

func TestFrontmatterUnreadable(t *testing.T) {
	for name, doc := range map[string]string{
		"no frontmatter": "# Just a body\n",
		"unclosed":       "---\nname: x\n",
		"not a mapping":  "---\n- a\n- b\n---\n",
		"a scalar":       "---\njust text\n---\n",
		"invalid YAML":   "---\nname: [x\n---\n",
		"non-scalar key": "---\n? [a]\n: b\n---\n",
		"infinity":       "---\nname: x\nn: .inf\n---\n",
	} {
		if _, err := frontmatterFields(doc); err == nil {
			t.Errorf("%s: frontmatterFields accepted %q", name, doc)
		}
	}
	fields, err := frontmatterFields("\uFEFF---\n---\nbody")
	if err != nil || len(fields) != 0 {
		t.Errorf("empty block = %v, %v", fields, err)
	}
}

func TestDigestOf(t *testing.T) {
	text := strings.Repeat("données ✓ ", 10000) // over the hashing buffer
	for _, c := range []*Content{{Text: text}, {Blob: []byte(text)}, {Text: ""}, {Blob: []byte{}}} {
		size, sum := digestOf(c)
		raw := []byte(c.Text)
		if c.Blob != nil {
			raw = c.Blob
		}
		if size != int64(len(raw)) || sum != sha256.Sum256(raw) {
			t.Errorf("digestOf(%d bytes) = %d, %x", len(raw), size, sum)
		}
	}
	want := &fileEntry{Size: 3, Digest: sha256.Sum256([]byte("abc"))}
	if err := checkContent(3, sha256.Sum256([]byte("abc")), want); err != nil {
		t.Error(err)
	}
	if err := checkContent(4, sha256.Sum256([]byte("abcd")), want); err == nil || err.(*contentMismatch).size != 4 {
		t.Errorf("size mismatch = %v", err)
	}
	if err := checkContent(3, sha256.Sum256([]byte("abd")), want); err == nil || err.(*contentMismatch).size != -1 {
		t.Errorf("digest mismatch = %v", err)
	}
}

func FuzzFrontmatterFields(f *testing.F) {
	f.Add("---\nname: x\ndescription: d\nmetadata: {a: 1}\n---\nbody")
	f.Add("---\na: &x [1]\nb: *x\n---\n")
	f.Add("---\n" + strings.Repeat("- ", 50) + "x\n---\n")
	f.Add("\uFEFF---\r\nname: x\r\n---\r\n")
	f.Fuzz(func(t *testing.T, doc string) {
		fields, err := frontmatterFields(doc)
		if err != nil {
			return
		}
		// What it returns is plain JSON data that compares with itself.
		data, err := json.Marshal(fields)
		if err != nil {
			// YAML numbers such as .inf have no JSON form; they can never
			// equal an entry's.
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var back map[string]any
		if err := dec.Decode(&back); err != nil {
			t.Fatalf("round trip of %s: %v", data, err)
		}
		if k := frontmatterDiff(back, fields); k != "" {
			t.Fatalf("fields differ from their own JSON in %q: %s", k, data)
		}
	})
}
