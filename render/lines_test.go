package render

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

// TestCatalogOfLinesMatchesEntries: catalogs assembled from lines rendered
// one by one are the catalogs rendered from the entries, the tombstone
// included.
func TestCatalogOfLinesMatchesEntries(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 50} {
		entries := benchEntries(n)
		if n == 1 {
			entries[0].Description = "a & <b> \"c\""
		}
		// Lines in pieces of one, two and the rest, as a caller that
		// reuses rendered lines holds them.
		var lines [][]byte
		for i, e := range entries {
			if i == 0 || i == 1 || i == 3 {
				lines = append(lines, nil)
			}
			lines[len(lines)-1] = AppendEntryLine(lines[len(lines)-1], e)
		}
		if got, want := assembleCatalog(lines, false, 0), InitialCatalog(entries); got != want {
			t.Errorf("%d entries: AssembleCatalog differs from InitialCatalog:\n%s\nwant\n%s", n, got, want)
		}
		if got, want := assembleCatalog(lines, true, 0), ReplacementCatalog(entries); got != want {
			t.Errorf("%d entries: AssembleCatalog differs from ReplacementCatalog:\n%s\nwant\n%s", n, got, want)
		}
	}
}

// TestAppendEntryLineAllocations: appending into room already there
// allocates nothing.
func TestAppendEntryLineAllocations(t *testing.T) {
	e := digest.Entry{Name: "pdf", Description: "Fill <forms> & more."}
	buf := make([]byte, 0, 256)
	if got := testing.AllocsPerRun(50, func() { buf = AppendEntryLine(buf[:0], e) }); got != 0 {
		t.Errorf("AppendEntryLine: %v allocations, want 0", got)
	}
}
