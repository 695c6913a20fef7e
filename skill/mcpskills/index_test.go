package mcpskills

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

var testLimits = indexLimits{MaxEntries: 1000, MaxDescriptionBytes: 1024, MaxIndexBytes: 1 << 20}

func TestParseIndexMalformed(t *testing.T) {
	for name, doc := range map[string]string{
		"empty":          ``,
		"not json":       `{not json`,
		"array":          `[]`,
		"string":         `"skills"`,
		"null":           `null`,
		"no skills":      `{"$schema": "x"}`,
		"skills null":    `{"skills": null}`,
		"skills object":  `{"skills": {}}`,
		"skills string":  `{"skills": "a"}`,
		"skills number":  `{"skills": 3}`,
		"trailing junk":  `{"skills": []} x`,
		"truncated":      `{"skills": [{"name": "a"`,
		"over the bound": `{"skills": [], "pad": "` + strings.Repeat("x", 2000) + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			lim := testLimits
			lim.MaxIndexBytes = 1024
			_, err := parseIndex([]byte(doc), lim)
			if !errors.Is(err, errMalformedIndex) {
				t.Fatalf("parseIndex = %v, want errMalformedIndex", err)
			}
		})
	}
}

func entryJSON(name, typ, desc, url string, extra string) string {
	return fmt.Sprintf(`{"name": %q, "type": %q, "description": %q, "url": %q%s}`, name, typ, desc, url, extra)
}

func TestParseIndexEntries(t *testing.T) {
	good := entryJSON("good", "skill-md", "Does good things.", "skill://good/SKILL.md", `, "capability": "skill:123", "x": {"nested": [1, 2]}`)
	doc := `{"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": [` + strings.Join([]string{
		good,
		`null`,
		`"a string"`,
		`[1]`,
		`{"type": "skill-md", "description": "d", "url": "skill://x/SKILL.md"}`,
		entryJSON("Bad-Name", "skill-md", "d", "skill://Bad-Name/SKILL.md", ""),
		entryJSON("a--b", "skill-md", "d", "skill://a--b/SKILL.md", ""),
		entryJSON(strings.Repeat("a", 65), "skill-md", "d", "skill://"+strings.Repeat("a", 65)+"/SKILL.md", ""),
		entryJSON("other-type", "archive", "d", "skill://other-type/SKILL.md", ""),
		entryJSON("wrong-url", "skill-md", "d", "skill://other/SKILL.md", ""),
		entryJSON("wrong-url-2", "skill-md", "d", "skill://wrong-url-2/skill.md", ""),
		entryJSON("wrong-url-3", "skill-md", "d", "https://example.com/wrong-url-3/SKILL.md", ""),
		entryJSON("empty-desc", "skill-md", " \t\u00a0\n", "skill://empty-desc/SKILL.md", ""),
		`{"name": 7, "type": "skill-md", "description": "d", "url": "skill://x/SKILL.md"}`,
		`{"name": "num-desc", "type": "skill-md", "description": 7, "url": "skill://num-desc/SKILL.md"}`,
		`{"name": "null-desc", "type": "skill-md", "description": null, "url": "skill://null-desc/SKILL.md"}`,
		`{"name": "no-type", "description": "d", "url": "skill://no-type/SKILL.md"}`,
		`{"Name": "case", "type": "skill-md", "description": "d", "url": "skill://case/SKILL.md"}`,
		entryJSON("good", "skill-md", "Duplicate.", "skill://good/SKILL.md", ""),
		entryJSON("spaces", "skill-md", "  many\t\tkinds\u00a0of\u2003\u3000space\ufeff and\nlines  ", "skill://spaces/SKILL.md", ""),
	}, ",") + `]}`
	ix, err := parseIndex([]byte(doc), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	want := []indexEntry{
		{Name: "good", Description: "Does good things.", URL: "skill://good/SKILL.md"},
		{Name: "spaces", Description: "many kinds of space and lines", URL: "skill://spaces/SKILL.md"},
	}
	if diff := cmp.Diff(want, ix.Entries); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if got, want := len(ix.Diagnostics), 18; got != want {
		t.Errorf("%d diagnostics, want %d:\n%s", got, want, strings.Join(ix.Diagnostics, "\n"))
	}
	for _, d := range ix.Diagnostics {
		if !strings.Contains(d, "dropped") {
			t.Errorf("diagnostic %q does not say the entry was dropped", d)
		}
	}
	if e, ok := ix.lookup("good"); !ok || e.URL != "skill://good/SKILL.md" {
		t.Errorf("lookup(good) = %v, %v", e, ok)
	}
	if _, ok := ix.lookup("empty-desc"); ok {
		t.Error("lookup found a dropped entry")
	}
}

func TestParseIndexBounds(t *testing.T) {
	var entries []string
	for i := range 30 {
		n := fmt.Sprintf("s%02d", i)
		entries = append(entries, entryJSON(n, "skill-md", "d", SkillURI(n), ""))
	}
	lim := testLimits
	lim.MaxEntries = 10
	ix, err := parseIndex([]byte(`{"skills": [`+strings.Join(entries, ",")+`]}`), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Entries) != 10 || ix.Entries[9].Name != "s09" {
		t.Errorf("got %d entries, want the first 10", len(ix.Entries))
	}
	if len(ix.Diagnostics) != 1 || !strings.Contains(ix.Diagnostics[0], "20 dropped") {
		t.Errorf("diagnostics = %q", ix.Diagnostics)
	}

	// Truncation at a character boundary: "é" is two bytes.
	lim = testLimits
	lim.MaxDescriptionBytes = 16
	desc := "abcdefghijklmnoé and more"
	ix, err = parseIndex([]byte(`{"skills": [`+entryJSON("long", "skill-md", desc, SkillURI("long"), "")+`]}`), lim)
	if err != nil {
		t.Fatal(err)
	}
	if got := ix.Entries[0].Description; got != "abcdefghijklmno" {
		t.Errorf("truncated description = %q", got)
	}
	if len(ix.Diagnostics) != 1 || !strings.Contains(ix.Diagnostics[0], "truncated") {
		t.Errorf("diagnostics = %q", ix.Diagnostics)
	}

	// Too many bad entries: diagnostics are bounded too.
	entries = entries[:0]
	for range 100 {
		entries = append(entries, `null`)
	}
	ix, err = parseIndex([]byte(`{"skills": [`+strings.Join(entries, ",")+`]}`), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Diagnostics) != skillsext.MaxDiagnostics+1 || !strings.Contains(ix.Diagnostics[skillsext.MaxDiagnostics], "80 more") {
		t.Errorf("%d diagnostics, last %q", len(ix.Diagnostics), ix.Diagnostics[len(ix.Diagnostics)-1])
	}
}

func TestParseIndexBOMAndEmpty(t *testing.T) {
	ix, err := parseIndex([]byte("\uFEFF{\"skills\": []}"), testLimits)
	if err != nil || len(ix.Entries) != 0 {
		t.Fatalf("parseIndex = %v, %v", ix, err)
	}
}

func checkIndex(t *testing.T, ix *index, lim indexLimits) {
	t.Helper()
	if len(ix.Entries) > lim.MaxEntries {
		t.Fatalf("%d entries over the bound %d", len(ix.Entries), lim.MaxEntries)
	}
	seen := map[string]bool{}
	for _, e := range ix.Entries {
		if !skill.ValidBoundedName(e.Name) || seen[e.Name] || e.URL != SkillURI(e.Name) {
			t.Fatalf("bad entry %+v", e)
		}
		seen[e.Name] = true
		d := e.Description
		if d == "" || len(d) > lim.MaxDescriptionBytes || !utf8.ValidString(d) ||
			strings.TrimSpace(d) != d || strings.Contains(d, "  ") || normalizeDescription(d) != d {
			t.Fatalf("bad description %q", d)
		}
	}
	if len(ix.Diagnostics) > skillsext.MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics", len(ix.Diagnostics))
	}
	for _, d := range ix.Diagnostics {
		if len(d) > MaxErrorBytes {
			t.Fatalf("diagnostic of %d bytes", len(d))
		}
	}
}

func FuzzParseIndex(f *testing.F) {
	f.Add([]byte(`{"skills": [` + entryJSON("a", "skill-md", "d", "skill://a/SKILL.md", `, "x": 1`) + `]}`))
	f.Add([]byte(`{"skills": [null, 1, "x", {"name": "b"}]}`))
	f.Add([]byte(`{"skills": {}}`))
	f.Add([]byte(`{"skills": [{"name": "a", "type": "skill-md", "description": "\u00a0 x \u2028", "url": "skill://a/SKILL.md"}, {"name": "a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := indexLimits{MaxEntries: 3, MaxDescriptionBytes: 16, MaxIndexBytes: 4096}
		ix, err := parseIndex(data, lim)
		if err != nil {
			if !errors.Is(err, errMalformedIndex) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		checkIndex(t, ix, lim)
	})
}
