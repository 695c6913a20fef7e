package render

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

// TestCatalogLinesMatchEntries: catalogs assembled from lines rendered one
// by one are the catalogs rendered from the entries, the tombstone
// included.
func TestCatalogLinesMatchEntries(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 50} {
		entries := benchEntries(n)
		if n == 1 {
			entries[0].Description = "a & <b> \"c\""
		}
		lines := make([]string, len(entries))
		for i, e := range entries {
			lines[i] = EntryLine(e)
		}
		if got, want := InitialCatalogLines(lines), InitialCatalog(entries); got != want {
			t.Errorf("%d entries: InitialCatalogLines differs from InitialCatalog:\n%s\nwant\n%s", n, got, want)
		}
		if got, want := ReplacementCatalogLines(lines), ReplacementCatalog(entries); got != want {
			t.Errorf("%d entries: ReplacementCatalogLines differs from ReplacementCatalog:\n%s\nwant\n%s", n, got, want)
		}
	}
}

func TestEntryLineAllocatesOnce(t *testing.T) {
	e := digest.Entry{Name: "pdf", Description: "Fill <forms> & more."}
	if got := testing.AllocsPerRun(50, func() { EntryLine(e) }); got != 1 {
		t.Errorf("EntryLine: %v allocations, want 1", got)
	}
}
