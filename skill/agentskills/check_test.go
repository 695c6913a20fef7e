package agentskills

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCheckSkillFile(t *testing.T) {
	for _, tc := range []struct {
		name, dir, data string
		fields          []string // the fields of the errors, in order; nil: valid
		loads           string   // the name it loads as; "" when it does not load
	}{
		{"valid", "pdf-forms", "---\nname: pdf-forms\ndescription: Fill in forms.\nlicense: MIT\ncompatibility: any\nallowed-tools: Read\nmetadata:\n  a: b\n---\nBody\n", nil, "pdf-forms"},
		{"no name", "pdf-forms", "---\ndescription: d\n---\n", []string{"name"}, "pdf-forms"},
		{"name not a string", "pdf-forms", "---\nname: [a]\ndescription: d\n---\n", []string{"name"}, "pdf-forms"},
		{"mismatch", "pdf-forms", "---\nname: pdf\ndescription: d\n---\n", []string{"name"}, "pdf"},
		{"grammar and mismatch", "x", "---\nname: A_b\ndescription: d\n---\n", []string{"name", "name"}, ""},
		{"too long", strings.Repeat("a", 65), "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", []string{"name"}, strings.Repeat("a", 65)},
		{"description too long", "d", "---\nname: d\ndescription: " + strings.Repeat("é", 1025) + "\n---\n", []string{"description"}, "d"},
		{"description at the limit", "d", "---\nname: d\ndescription: " + strings.Repeat("é", 1024) + "\n---\n", nil, "d"},
		{"compatibility", "d", "---\nname: d\ndescription: d\ncompatibility: " + strings.Repeat("c", 501) + "\n---\n", []string{"compatibility"}, "d"},
		{"extra fields sorted", "d", "---\nname: d\nzeta: 1\ndescription: d\nalpha: 2\n---\n", []string{"alpha", "zeta"}, "d"},
		{"colon retry", "d", "---\nname: d\ndescription: a: b\n---\n", []string{""}, "d"},
		{"not utf-8", "d", "---\nname: d\ndescription: x\n---\n\xff", []string{""}, "d"},
		{"empty frontmatter", "d", "---\n---\n", []string{"name", "description"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := CheckSkillFile(tc.dir, []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			var fields []string
			for _, e := range c.Errors {
				fields = append(fields, e.Field)
			}
			if !slices.Equal(fields, tc.fields) {
				t.Errorf("error fields %q, want %q: %+v", fields, tc.fields, c.Errors)
			}
			if c.Valid() != (tc.fields == nil) {
				t.Errorf("Valid() = %v", c.Valid())
			}
			if c.Loads != (tc.loads != "") || c.Name != tc.loads {
				t.Errorf("loads %v as %q, want %q (%s)", c.Loads, c.Name, tc.loads, c.NotLoaded)
			}
		})
	}
	if _, err := CheckSkillFile("d", nil, "nope"); err == nil {
		t.Error("an unknown preset is accepted")
	}
}

// FuzzCheckSkillFile checks that checking never panics, that a valid file
// is one the provider loads under its directory's name, and that a file
// the provider loads without a leniency other than the parser's warnings
// has the name it declares.
func FuzzCheckSkillFile(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "validate", "*", "*", "*"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(filepath.Base(filepath.Dir(s)), data, false)
		}
	}
	f.Add("d", []byte("---\nname: d\ndescription: x\n---\n"), true)
	f.Add("d", []byte("# d\n\nA paragraph.\n"), true)
	f.Fuzz(func(t *testing.T, dir string, data []byte, claude bool) {
		var presets []Preset
		if claude {
			presets = append(presets, PresetClaudeCode)
		}
		c, err := CheckSkillFile(dir, data, presets...)
		if err != nil {
			t.Fatal(err)
		}
		if c.Valid() && (!c.Loads || c.Name != dir) {
			t.Errorf("valid, but loads %v as %q (%s)", c.Loads, c.Name, c.NotLoaded)
		}
		if c.Loads == (c.NotLoaded != "") {
			t.Errorf("loads %v with NotLoaded %q", c.Loads, c.NotLoaded)
		}
	})
}
