package lenientyaml

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestQuoteColonValues(t *testing.T) {
	tests := []struct {
		name, front, fixed string
		keys               []string
	}{
		{"nothing to quote", "name: a\ndescription: plain\n", "name: a\ndescription: plain\n", nil},
		{"a colon inside", "name: a\ndescription: Use it: always\n", "name: a\ndescription: 'Use it: always'\n", []string{`"description"`}},
		{"a trailing colon", "description: Steps:\n", "description: 'Steps:'\n", []string{`"description"`}},
		{"reserved first characters", "a: @x\nb: `y` z\nc: %d\n", "a: '@x'\nb: '`y` z'\nc: '%d'\n", []string{`"a"`, `"b"`, `"c"`}},
		{"a quote in the value doubles", "description: It's: fine\n", "description: 'It''s: fine'\n", []string{`"description"`}},
		{"continuation lines fold", "description: One: two\n  three\n\tfour\nname: a\n", "description: 'One: two three four'\nname: a\n", []string{`"description"`}},
		{"a repeated key is named once", "d: a: b\nd: c: d\n", "d: 'a: b'\nd: 'c: d'\n", []string{`"d"`}},
		{"quoted, block and flow values stay", "a: 'x: y'\nb: \"x: y\"\nc: |\n  x: y\nd: [x: y]\ne: {x: y}\n", "a: 'x: y'\nb: \"x: y\"\nc: |\n  x: y\nd: [x: y]\ne: {x: y}\n", nil},
		{"nested and list lines stay", "m:\n  k: v: w\n- a: b: c\n# c: d: e\n", "m:\n  k: v: w\n- a: b: c\n# c: d: e\n", nil},
		{"keys YAML would not take plainly stay", "\"k\": a: b\n[k]: a: b\n", "\"k\": a: b\n[k]: a: b\n", nil},
		{"anchors and tags stay", "a: &x v: w\nb: !t v: w\nc: *x\n", "a: &x v: w\nb: !t v: w\nc: *x\n", nil},
	}
	for _, tt := range tests {
		fixed, keys := QuoteColonValues(tt.front)
		if fixed != tt.fixed || !slices.Equal(keys, tt.keys) {
			t.Errorf("%s: QuoteColonValues(%q) = %q, %q; want %q, %q", tt.name, tt.front, fixed, keys, tt.fixed, tt.keys)
		}
		if len(keys) > 0 {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(fixed), &n); err != nil {
				t.Errorf("%s: the rewritten text is not YAML: %v", tt.name, err)
			}
		}
	}
}

// FuzzQuoteColonValues: whatever the text, only the lines it names change,
// a text it leaves alone comes back as it is, and a value it quotes reads
// back as the plain string it spelled.
func FuzzQuoteColonValues(f *testing.F) {
	f.Add("name: a\ndescription: Use it: always\n  more\n")
	f.Add("a: @x\nb: 'c: d'\n")
	f.Fuzz(func(t *testing.T, front string) {
		fixed, keys := QuoteColonValues(front)
		if len(keys) == 0 {
			if fixed != front {
				t.Fatalf("no keys, but the text changed: %q → %q", front, fixed)
			}
			return
		}
		if !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != len(keys) {
			t.Fatalf("keys %q are not sorted without repeats", keys)
		}
	})
}

// TestInFile: a parser's line numbers, which count from the first line of
// the frontmatter (the scanner's from 1, the parser's from 0), are said as
// lines of the SKILL.md, whose line 1 is the opening '---'.
func TestInFile(t *testing.T) {
	for front, want := range map[string]string{
		"name: a\ndescription: x: y\n":      "line 3 of SKILL.md: mapping values are not allowed in this context",
		"name: a\ndescription: [unbalanced": "line 3 of SKILL.md: did not find expected ',' or ']'",
		"- a\nb: c\n":                       "line 3 of SKILL.md: did not find expected '-' indicator",
		"a: b\n\tc: d\n":                    "line 3 of SKILL.md: found a tab character that violates indentation",
		"a: 'x\n":                           "line 3 of SKILL.md: found unexpected end of stream",
	} {
		var doc yaml.Node
		err := yaml.Unmarshal([]byte(front), &doc)
		if err == nil {
			t.Fatalf("%q parses", front)
		}
		if got := InFile(err); got != want {
			t.Errorf("InFile(%q) = %q, want %q", err, got, want)
		}
	}
}
