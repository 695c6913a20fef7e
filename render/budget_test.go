package render

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillcatalog/skillcatalog/digest"
)

// cutTo is the reference for one description at a water level: kept when
// it fits, else its first level-3 characters and "...", or nothing below
// MinDescriptionMaxLength.
func cutTo(d string, level int) string {
	if utf8.RuneCountInString(d) <= level {
		return d
	}
	if level < MinDescriptionMaxLength {
		return ""
	}
	return firstChars(d, level-len(ellipsis)) + ellipsis
}

// firstChars is the reference prefix of k characters: the ones range
// yields, an invalid byte counting as one.
func firstChars(s string, k int) string {
	for i := range s {
		if k == 0 {
			return s[:i]
		}
		k--
	}
	return s
}

// renderedSize is the reference size: the characters of the rendered lines.
func renderedSize(entries []digest.Entry) int {
	var b []byte
	for _, e := range entries {
		b = AppendEntryLine(b, e)
	}
	return utf8.RuneCount(b)
}

func cutAll(entries []digest.Entry, level int) []digest.Entry {
	out := make([]digest.Entry, len(entries))
	for i, e := range entries {
		out[i] = digest.Entry{Name: e.Name, Description: cutTo(e.Description, level), Origin: e.Origin, OriginKind: e.OriginKind}
	}
	return out
}

// checkFit verifies every promise FitCatalog makes against reference
// computations, and returns what was wrong.
func checkFit(entries []digest.Entry, budget int) error {
	fit, err := FitCatalog(entries, budget)
	if budget < 1 {
		if !errors.Is(err, ErrBudget) {
			return fmt.Errorf("budget %d: error %v, want ErrBudget", budget, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("budget %d: %v", budget, err)
	}
	kept := len(fit.Entries)
	if kept+fit.Omitted != len(entries) || len(fit.Shortened) != kept {
		return fmt.Errorf("%d kept + %d omitted (%d flags) of %d entries", kept, fit.Omitted, len(fit.Shortened), len(entries))
	}
	if got := renderedSize(fit.Entries); got != fit.Size || got > budget {
		return fmt.Errorf("rendered size %d, reported %d, budget %d", got, fit.Size, budget)
	}
	// Names: a prefix is kept, and the next name would not have fitted.
	namesOnly := cutAll(entries, 0)
	if fit.Omitted > 0 && renderedSize(namesOnly[:kept+1]) <= budget {
		return fmt.Errorf("left out %d entries although %d names fit", fit.Omitted, kept+1)
	}
	level := fit.DescriptionLength
	if level < 0 {
		// Nothing shortened: everything kept as given.
		if diff := cmp.Diff(entries[:kept], fit.Entries, cmpopts.EquateEmpty()); diff != "" {
			return fmt.Errorf("nothing reported shortened, but entries differ (-given +fit):\n%s", diff)
		}
		if fit.NumShortened != 0 {
			return fmt.Errorf("%d shortened with no level", fit.NumShortened)
		}
		return nil
	}
	if diff := cmp.Diff(cutAll(entries[:kept], level), fit.Entries); diff != "" {
		return fmt.Errorf("entries at level %d differ from the reference cut (-want +got):\n%s", level, diff)
	}
	n := 0
	for i, e := range fit.Entries {
		given := entries[i].Description
		if fit.Shortened[i] != (e.Description != given) {
			return fmt.Errorf("entry %d: shortened flag %v, description %q from %q", i, fit.Shortened[i], e.Description, given)
		}
		if !fit.Shortened[i] {
			continue
		}
		n++
		if e.Description == "" {
			continue
		}
		// Cut on a character boundary, before escaping: the escaped kept
		// part is a prefix of the escaped description.
		kept := strings.TrimSuffix(e.Description, ellipsis)
		if firstChars(given, utf8.RuneCountInString(kept)) != kept {
			return fmt.Errorf("entry %d: %q is not %q cut on a character boundary", i, e.Description, given)
		}
		if !strings.HasPrefix(Escape(given), Escape(kept)) {
			return fmt.Errorf("entry %d: the escaped cut %q is not a prefix of %q", i, Escape(kept), Escape(given))
		}
	}
	if n != fit.NumShortened || n == 0 {
		return fmt.Errorf("%d shortened, reported %d", n, fit.NumShortened)
	}
	// The largest level: one more would not fit.
	if renderedSize(cutAll(entries[:kept], level+1)) <= budget {
		return fmt.Errorf("level %d, but level %d fits the budget %d too", level, level+1, budget)
	}
	return nil
}

var budgetEntries = []digest.Entry{
	{Name: "alpha", Description: "Short."},
	{Name: "beta", Description: strings.Repeat("b", 40)},
	{Name: "gamma", Description: strings.Repeat("g", 60)},
}

func TestFitCatalog(t *testing.T) {
	// Lines: "-`alpha`: Short.\n" is 17 characters, the names alone 11, 10
	// and 11.
	lineA, namesOnly := 17, 11+10+11
	tests := []struct {
		name      string
		entries   []digest.Entry
		budget    int
		want      []digest.Entry
		level     int
		omitted   int
		shortened int
	}{
		{
			name: "everything fits", entries: budgetEntries, budget: 1000,
			want: budgetEntries, level: -1,
		},
		{
			name: "exactly fits", entries: budgetEntries, budget: lineA + 10 + 40 + 11 + 60,
			want: budgetEntries, level: -1,
		},
		{
			name: "the longest is shortened first", entries: budgetEntries, budget: lineA + 10 + 40 + 11 + 59,
			want:  []digest.Entry{budgetEntries[0], budgetEntries[1], {Name: "gamma", Description: strings.Repeat("g", 56) + "..."}},
			level: 59, shortened: 1,
		},
		{
			name: "both long ones down to one length", entries: budgetEntries, budget: lineA + 10 + 11 + 2*30,
			want: []digest.Entry{budgetEntries[0],
				{Name: "beta", Description: strings.Repeat("b", 27) + "..."},
				{Name: "gamma", Description: strings.Repeat("g", 27) + "..."}},
			level: 30, shortened: 2,
		},
		{
			name: "a level that does not divide evenly rounds down", entries: budgetEntries, budget: lineA + 10 + 11 + 2*30 + 1,
			want: []digest.Entry{budgetEntries[0],
				{Name: "beta", Description: strings.Repeat("b", 27) + "..."},
				{Name: "gamma", Description: strings.Repeat("g", 27) + "..."}},
			level: 30, shortened: 2,
		},
		{
			name: "every description shortened", entries: budgetEntries, budget: namesOnly + 3*4,
			want:  []digest.Entry{{Name: "alpha", Description: "S..."}, {Name: "beta", Description: "b..."}, {Name: "gamma", Description: "g..."}},
			level: 4, shortened: 3,
		},
		{
			name: "below the ellipsis, descriptions go whole", entries: budgetEntries, budget: namesOnly + 2,
			want:  cutAll(budgetEntries, 0),
			level: 2, shortened: 3,
		},
		{
			name: "names alone fit exactly", entries: budgetEntries, budget: namesOnly,
			want:  cutAll(budgetEntries, 0),
			level: 2, shortened: 3, // levels 0 to 2 remove the same descriptions

		},
		{
			name: "names alone do not fit: the last are left out", entries: budgetEntries, budget: namesOnly - 1,
			want:  []digest.Entry{{Name: "alpha", Description: "Sh..."}, {Name: "beta", Description: "bb..."}},
			level: 5, shortened: 2, omitted: 1,
		},
		{
			name: "not even the first name fits", entries: budgetEntries, budget: 10,
			want: []digest.Entry{}, level: -1, omitted: 3,
		},
		{
			name: "escapes count as rendered, cuts never split them", budget: 7 + 10,
			entries: []digest.Entry{{Name: "a", Description: "x&y&z and more"}},
			// Level 6 keeps "x&y" and "...", rendered "x&amp;y..." (10
			// characters); level 7 would need "x&amp;y&amp;..." (14).
			want:  []digest.Entry{{Name: "a", Description: "x&y..."}},
			level: 6, shortened: 1,
		},
		{
			name: "multi-byte characters count once", budget: 7 + 5,
			entries: []digest.Entry{{Name: "a", Description: "日本語のスキルです"}},
			want:    []digest.Entry{{Name: "a", Description: "日本..."}},
			level:   5, shortened: 1,
		},
		{name: "no entries", entries: nil, budget: 1, want: []digest.Entry{}, level: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fit, err := FitCatalog(tc.entries, tc.budget)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, fit.Entries); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			if fit.DescriptionLength != tc.level || fit.Omitted != tc.omitted || fit.NumShortened != tc.shortened {
				t.Errorf("level %d, omitted %d, shortened %d; want %d, %d, %d", fit.DescriptionLength, fit.Omitted, fit.NumShortened, tc.level, tc.omitted, tc.shortened)
			}
			if err := checkFit(tc.entries, tc.budget); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFitCatalogRefusesBudgetsBelowOne(t *testing.T) {
	for _, b := range []int{0, -1} {
		if _, err := FitCatalog(budgetEntries, b); !errors.Is(err, ErrBudget) {
			t.Errorf("budget %d: error %v, want ErrBudget", b, err)
		}
	}
}

// TestFitCatalogEveryBudget sweeps every budget from nothing to everything
// over entries with escapes, multi-byte characters and empty descriptions.
func TestFitCatalogEveryBudget(t *testing.T) {
	entries := []digest.Entry{
		{Name: "a", Description: ""},
		{Name: "b-b", Description: "<tag> & more <tags>"},
		{Name: "c", Description: "Ünïcödé — 図表を作成します & so on"},
		{Name: "d", Description: strings.Repeat("word ", 20)},
		{Name: "e&", Description: "ok"},
		{Name: "f", Description: "A remote skill's description.", Origin: "docs"},
		{Name: "docs:acme/g", Description: "Qualified & remote.", Origin: "d<o>cs"},
		// A website's mark is shorter than an MCP server's.
		{Name: "h", Description: "A website's description.", Origin: "docs", OriginKind: digest.OriginWebsite},
		{Name: "web:i", Description: "Qualified & <from a site>.", Origin: "w&b", OriginKind: digest.OriginWebsite},
	}
	all := renderedSize(entries)
	for b := 0; b <= all+1; b++ {
		if err := checkFit(entries, b); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFitCatalogSharesUnchangedEntries: an entry that keeps its description
// is the given one, not a copy.
func TestFitCatalogSharesUnchangedEntries(t *testing.T) {
	fit, err := FitCatalog(budgetEntries, 17+10+40+11+30)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Shortened[0] || unsafeData(fit.Entries[0].Description) != unsafeData(budgetEntries[0].Description) {
		t.Errorf("an unchanged description was copied")
	}
}

func TestOmittingRenders(t *testing.T) {
	lines := [][]byte{AppendEntryLine(nil, budgetEntries[0])}
	for _, omitted := range []int{0, -1} {
		if got, want := assembleCatalog(lines, false, omitted), InitialCatalog(budgetEntries[:1]); got != want {
			t.Errorf("%d omitted: AssembleCatalog of an initial catalog differs from InitialCatalog:\n%s", omitted, got)
		}
		if got, want := assembleCatalog(lines, true, omitted), ReplacementCatalog(budgetEntries[:1]); got != want {
			t.Errorf("%d omitted: AssembleCatalog of a replacement differs from ReplacementCatalog:\n%s", omitted, got)
		}
	}
	if got := assembleCatalog(nil, true, 0); got != Tombstone() {
		t.Errorf("no lines, nothing omitted: %q, want the tombstone", got)
	}
	got := assembleCatalog(nil, true, 4)
	if got == Tombstone() || !strings.Contains(got, "<available_skills>\n</available_skills>\n\n4 more skills are available but not listed") {
		t.Errorf("everything omitted renders %q, want an empty list that says 4 skills are left out", got)
	}
	if !strings.HasPrefix(catalogFooter, listClose) {
		t.Fatalf("the catalog footer does not start with %q", listClose)
	}
}

func TestBudgetGolden(t *testing.T) {
	lines := func(entries []digest.Entry) [][]byte {
		var out [][]byte
		for _, e := range entries {
			out = append(out, AppendEntryLine(nil, e))
		}
		return out
	}
	// threeEntries render to 99 + 91 + 98 characters; 200 shortens the two
	// longest evenly.
	shortened, err := FitCatalog(threeEntries, 200)
	if err != nil {
		t.Fatal(err)
	}
	if shortened.Omitted != 0 || shortened.NumShortened == 0 {
		t.Fatalf("budget 200: %+v, want shortened descriptions and nothing left out", shortened)
	}
	checkGolden(t, "catalog_budget_shortened", assembleCatalog(lines(shortened.Entries), false, shortened.Omitted))

	omitted, err := FitCatalog(threeEntries, 35)
	if err != nil {
		t.Fatal(err)
	}
	if omitted.Omitted != 1 {
		t.Fatalf("budget 35: %+v, want one entry left out", omitted)
	}
	checkGolden(t, "catalog_budget_omitted_one", assembleCatalog(lines(omitted.Entries), true, omitted.Omitted))

	omitted, err = FitCatalog(threeEntries, 20)
	if err != nil {
		t.Fatal(err)
	}
	if omitted.Omitted != 2 {
		t.Fatalf("budget 20: %+v, want two entries left out", omitted)
	}
	checkGolden(t, "catalog_budget_omitted", assembleCatalog(lines(omitted.Entries), false, omitted.Omitted))
}

func FuzzFitCatalog(f *testing.F) {
	f.Add("alpha\tShort.\nbeta\tA longer description & more.\ngamma\t<x> y z", 40)
	f.Add("a\t日本語のスキルです\nb\tÜnïcödé", 12)
	f.Add("a\t\nb\t\nc\t", 3)
	f.Add("x&y\t&&&&&&&&&&&&\nlong-name-that-does-not-fit\tz", 17)
	f.Add("a\t\xff\xfe\xfd invalid bytes", 9)
	f.Add("", 0)
	f.Add("a\tLocal.\nb\tRemote & more.\tdocs\nmcp:x/c\tQualified.\tm&p", 30)
	f.Add("a\tLocal.\nb\tFrom a site & more.\tdocs\tw\nc\tFrom a server.\tdocs", 40)
	f.Fuzz(func(t *testing.T, data string, budget int) {
		var entries []digest.Entry
		if data != "" {
			// One entry a line: name, tab, description, and an optional tab
			// and origin, and after another tab "w" for a website's.
			for _, line := range strings.Split(data, "\n") {
				name, rest, _ := strings.Cut(line, "\t")
				desc, rest, _ := strings.Cut(rest, "\t")
				origin, kind, _ := strings.Cut(rest, "\t")
				e := digest.Entry{Name: name, Description: desc, Origin: origin}
				if kind == "w" {
					e.OriginKind = digest.OriginWebsite
				}
				entries = append(entries, e)
			}
		}
		budget %= 1 << 16
		if err := checkFit(entries, budget); err != nil {
			t.Fatal(err)
		}
		a, errA := FitCatalog(entries, budget)
		b, errB := FitCatalog(entries, budget)
		if diff := cmp.Diff(a, b); diff != "" || (errA == nil) != (errB == nil) {
			t.Fatalf("two fits of the same input differ:\n%s", diff)
		}
	})
}

func BenchmarkFitCatalog(b *testing.B) {
	entries := benchEntries(10000)
	all := renderedSize(entries)
	for _, c := range []struct {
		name   string
		budget int
	}{
		{"fits", all},
		{"shortened-to-half", all / 2},
		{"names-only-some-omitted", 10000 * 10},
	} {
		b.Run(fmt.Sprintf("skills=10000/%s", c.name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FitCatalog(entries, c.budget); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }

// TestPrefixBytes: the byte length of a string's first k characters, each
// invalid byte one character, and the whole string when it has fewer.
func TestPrefixBytes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s    string
		k    int
		want int
	}{
		{"", 0, 0},
		{"", 3, 0},
		{"abc", 0, 0},
		{"abc", 2, 2},
		{"abc", 3, 3},
		{"abc", 4, 3},
		{"abc", 100, 3},
		{"é日😀x", 1, 2},
		{"é日😀x", 2, 5},
		{"é日😀x", 3, 9},
		{"é日😀x", 5, 10},
		{"\x80\xffa", 1, 1},
		{"\x80\xffa", 2, 2},
		{"a\xc3", 2, 2},
		{"\xe6\x97a", 1, 1},
	} {
		if got := prefixBytes(tt.s, tt.k); got != tt.want {
			t.Errorf("prefixBytes(%q, %d) = %d, want %d", tt.s, tt.k, got, tt.want)
		}
		if got := len(firstChars(tt.s, tt.k)); got != tt.want {
			t.Errorf("reference firstChars(%q, %d) has %d bytes, want %d", tt.s, tt.k, got, tt.want)
		}
	}
}

// TestFitCatalogCutsIntoOneBuffer: however many descriptions a fit
// shortens, at any level from MinDescriptionMaxLength up, their cuts share
// one buffer sized up front. A fit allocates what one that shortens nothing
// does, that buffer, and the growth of the list of cuts. Not parallel:
// AllocsPerRun counts the allocations of every goroutine.
func TestFitCatalogCutsIntoOneBuffer(t *testing.T) {
	const n = 100
	entries := make([]digest.Entry, n)
	for i := range entries {
		entries[i] = digest.Entry{Name: fmt.Sprintf("skill-%03d", i), Description: strings.Repeat("d", 40+i%7) + "é"}
	}
	whole, err := FitCatalog(entries, renderedSize(entries))
	if err != nil || whole.NumShortened != 0 {
		t.Fatalf("budget of the whole catalog: %+v, %v", whole, err)
	}
	base := testing.AllocsPerRun(10, func() { FitCatalog(entries, whole.Size) })
	// The list of cuts grows by doubling while it is short.
	cutsGrowth := float64(bits.Len(n) + 1)
	names := renderedSize(cutAll(entries, 0))
	for _, level := range []int{MinDescriptionMaxLength, MinDescriptionMaxLength + 1, 20} {
		budget := renderedSize(cutAll(entries, level))
		fit, err := FitCatalog(entries, budget)
		if err != nil || fit.DescriptionLength != level || fit.NumShortened != n {
			t.Fatalf("budget %d (names %d): level %d, %d shortened, %v; want level %d, all shortened", budget, names, fit.DescriptionLength, fit.NumShortened, err, level)
		}
		if got := testing.AllocsPerRun(10, func() { FitCatalog(entries, budget) }); got > base+1+cutsGrowth {
			t.Errorf("level %d: %v allocations, want at most %v (%v without shortening)", level, got, base+1+cutsGrowth, base)
		}
	}
}
