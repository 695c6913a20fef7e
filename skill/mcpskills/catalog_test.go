package mcpskills

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

func catalogOf(entries ...string) *catalog {
	in := catalogInput{label: "docs", limits: testEntryLimits}
	for i, raw := range entries {
		in.entries = append(in.entries, rawEntry{raw: json.RawMessage(raw), from: fmt.Sprintf("entry %d", i)})
	}
	return buildCatalog(in)
}

func simpleEntry(uri, name string) string {
	return entryOf(uri, fmt.Sprintf(`{"name":%q,"description":"d"}`, name), "["+res(uri, 1)+"]")
}

// TestCatalogNames: qualified names follow the skill path (with the scheme
// for schemes other than skill://); an entry whose path cannot form one, or
// that repeats a URI or a qualified name, is not offered; names that
// several entries share resolve only qualified.
func TestCatalogNames(t *testing.T) {
	deep := "skill://" + strings.Repeat("a/", 16) + "x/SKILL.md"
	c := catalogOf(
		simpleEntry("skill://acme/billing/refunds/SKILL.md", "refunds"),
		simpleEntry("github://owner/repo/refunds/SKILL.md", "refunds"),
		simpleEntry("skill://acme%20corp/x/SKILL.md", "x"),
		simpleEntry(deep, "x"),
		simpleEntry("git+ssh://host/y/SKILL.md", "y"),
		simpleEntry("skill://acme/billing/refunds/SKILL.md", "refunds"),
		simpleEntry("skill://github/owner/repo/refunds/SKILL.md", "refunds"),
		simpleEntry("skill://solo/SKILL.md", "solo"),
	)
	var got []string
	for _, sum := range c.summaries("docs") {
		got = append(got, sum.QualifiedName)
	}
	if diff := cmp.Diff([]string{"docs:acme/billing/refunds", "docs:github/owner/repo/refunds", "docs:solo"}, got); diff != "" {
		t.Errorf("offered (-want +got):\n%s", diff)
	}
	want := []string{
		`entry 2 ("x") not offered: its skill path "acme%20corp/x" cannot form a qualified name (segments of letters, digits, '.', '_' and '-', at most 16 of them, 256 bytes in all)`,
		`entry 3 ("x") not offered: its skill path "` + strings.Repeat("a/", 16) + `x" cannot form a qualified name (segments of letters, digits, '.', '_' and '-', at most 16 of them, 256 bytes in all)`,
		`entry 4 ("y") not offered: its skill path "git+ssh/host/y" cannot form a qualified name (segments of letters, digits, '.', '_' and '-', at most 16 of them, 256 bytes in all)`,
		`entry 5 ("refunds") not offered: skill://acme/billing/refunds/SKILL.md is listed twice`,
		`entry 6 ("refunds") not offered: its qualified name "docs:github/owner/repo/refunds" is taken by an earlier entry`,
		`2 skills share the name "refunds"; each stays loadable by its qualified name: docs:acme/billing/refunds, docs:github/owner/repo/refunds`,
	}
	if diff := cmp.Diff(want, c.diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for name, uri := range map[string]string{
		"solo":                           "skill://solo/SKILL.md",
		"docs:solo":                      "skill://solo/SKILL.md",
		"docs:github/owner/repo/refunds": "github://owner/repo/refunds/SKILL.md",
		"docs:acme/billing/refunds":      "skill://acme/billing/refunds/SKILL.md",
		"refunds":                        "",
		"other:solo":                     "",
		"docs:acme/refunds":              "",
		"docs:":                          "",
	} {
		e, ok := c.resolve(name)
		if ok != (uri != "") || (ok && e.URI != uri) {
			t.Errorf("resolve(%q) = %v, %v; want %q", name, e, ok, uri)
		}
	}
}

// TestCatalogDiagnosticsBounded: a listing of many bad entries keeps a
// bounded number of diagnostic lines and says how many it left out.
func TestCatalogDiagnosticsBounded(t *testing.T) {
	var entries []string
	for range 50 {
		entries = append(entries, `null`)
	}
	c := catalogOf(entries...)
	if len(c.diagnostics) != skillsext.MaxDiagnostics+1 || c.diagnostics[skillsext.MaxDiagnostics] != "30 more diagnostics omitted" {
		t.Errorf("%d diagnostics, last %q", len(c.diagnostics), c.diagnostics[len(c.diagnostics)-1])
	}
}
