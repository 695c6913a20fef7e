package events

import (
	"fmt"
	"strings"
	"testing"
)

var (
	catalogA  = EncodeCatalog(entries{en("alpha", "First.")}, false)
	catalogB  = EncodeCatalog(entries{en("alpha", "First."), en("beta", "Second.")}, true)
	tombstone = EncodeCatalog(nil, true)
	foreign   = []byte(`{"kind":"plugin-message","text":"A skill is a reusable set of instructions.\n<available_skills>\n-` + "`alpha`" + `: First.\n</available_skills>"}`)
	// foreignCatalogProse mentions the kind literally, so it passes the prefilter and must be
	// rejected by the full reader.
	foreignCatalogProse = []byte(`{"kind":"plugin-message","topic":"skill-catalog","form":"catalog","text":"<available_skills></available_skills>","entries":[]}`)
)

func mustParse(t testing.TB, src []byte) Catalog {
	t.Helper()
	c, ok := ParseCatalog(src)
	if !ok {
		t.Fatalf("unreadable: %s", src)
	}
	return c
}

func vis(seq uint64, src []byte) LogEvent    { return LogEvent{Seq: seq, Source: src, Visible: true} }
func hidden(seq uint64, src []byte) LogEvent { return LogEvent{Seq: seq, Source: src} }

func TestScanner(t *testing.T) {
	t.Parallel()
	a, b, tomb := mustParse(t, catalogA), mustParse(t, catalogB), mustParse(t, tombstone)
	tests := []struct {
		name   string
		events []LogEvent // newest first
		want   Baseline
		doneAt int // index of the event at which Feed first reports done; -1 for never
	}{
		{"no events", nil, Baseline{}, -1},
		{"no catalogs", []LogEvent{vis(3, foreign), vis(2, nil), hidden(1, []byte("plain text"))}, Baseline{}, -1},
		{
			"newest visible wins",
			[]LogEvent{vis(9, nil), vis(8, catalogB), vis(5, catalogA)},
			Baseline{Found: true, Seq: 8, Catalog: b, EverPublished: true}, 1,
		},
		{
			"tombstone is a catalog",
			[]LogEvent{vis(8, tombstone), vis(5, catalogA)},
			Baseline{Found: true, Seq: 8, Catalog: tomb, EverPublished: true}, 0,
		},
		{
			"hidden newer catalog is skipped but counts as published",
			[]LogEvent{hidden(8, catalogB), vis(5, catalogA)},
			Baseline{Found: true, Seq: 5, Catalog: a, EverPublished: true}, 1,
		},
		{
			"every catalog hidden",
			[]LogEvent{vis(9, foreign), hidden(8, catalogB), hidden(5, catalogA), vis(1, nil)},
			Baseline{EverPublished: true}, -1,
		},
		{
			"foreign records with catalog prose are ignored",
			[]LogEvent{vis(9, foreign), vis(8, foreignCatalogProse), vis(5, catalogA)},
			Baseline{Found: true, Seq: 5, Catalog: a, EverPublished: true}, 2,
		},
		{
			"foreign records alone publish nothing",
			[]LogEvent{vis(9, foreign), vis(8, foreignCatalogProse)},
			Baseline{}, -1,
		},
		{
			"hidden malformed records do not count as published",
			[]LogEvent{hidden(9, []byte(`{"kind":"skill-catalog","form":"catalog","entries":null}`))},
			Baseline{}, -1,
		},
		{
			"catalog-kind record of another form is skipped",
			[]LogEvent{vis(9, []byte(`{"kind":"skill-catalog","form":"delta","entries":[]}`)), vis(5, catalogA)},
			Baseline{Found: true, Seq: 5, Catalog: a, EverPublished: true}, 1,
		},
		{
			"events after done are ignored",
			[]LogEvent{vis(9, catalogA), vis(8, catalogB), hidden(7, tombstone)},
			Baseline{Found: true, Seq: 9, Catalog: a, EverPublished: true}, 0,
		},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name   string
			events []LogEvent
			want   Baseline
			doneAt int
		}{
			"malformed skipped: " + m.name,
			[]LogEvent{vis(9, []byte(m.source)), hidden(8, []byte(m.source)), vis(5, catalogA)},
			Baseline{Found: true, Seq: 5, Catalog: a, EverPublished: true}, 2,
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, s := range []*Scanner{new(Scanner), NewScanner(nil), NewScanner(ParseCatalog)} {
				got, doneAt := scanAll(s, tt.events)
				if !sameBaseline(got, tt.want) {
					t.Errorf("Baseline() = %+v, want %+v", got, tt.want)
				}
				if doneAt != tt.doneAt {
					t.Errorf("done first at event %d, want %d", doneAt, tt.doneAt)
				}
			}
			if ref := referenceBaseline(tt.events); !sameBaseline(ref, tt.want) {
				t.Errorf("reference baseline = %+v", ref)
			}
		})
	}
}

// scanAll feeds every event, including those after done, and reports where done first held.
func scanAll(s *Scanner, evs []LogEvent) (Baseline, int) {
	doneAt := -1
	for i, ev := range evs {
		if s.Feed(ev) && doneAt < 0 {
			doneAt = i
		}
	}
	return s.Baseline(), doneAt
}

func TestScannerCallsParseOnlyWhenItMatters(t *testing.T) {
	t.Parallel()
	var parsed []string
	s := NewScanner(func(src []byte) (Catalog, bool) {
		parsed = append(parsed, string(src))
		return ParseCatalog(src)
	})
	evs := []LogEvent{
		vis(10, foreign),               // no literal: never parsed
		vis(9, nil),                    // no source
		vis(8, foreignCatalogProse),    // literal present: parsed, rejected
		hidden(7, catalogB),            // parsed: sets EverPublished
		hidden(6, catalogA),            // hidden after EverPublished: cannot matter
		hidden(5, foreignCatalogProse), // likewise
		vis(4, catalogA),               // parsed: found
		vis(3, catalogB),               // after done
	}
	for _, ev := range evs {
		s.Feed(ev)
	}
	want := []string{string(foreignCatalogProse), string(catalogB), string(catalogA)}
	if strings.Join(parsed, "\n") != strings.Join(want, "\n") {
		t.Errorf("parse called for:\n%s\nwant:\n%s", strings.Join(parsed, "\n"), strings.Join(want, "\n"))
	}
	if b := s.Baseline(); !b.Found || b.Seq != 4 || !b.EverPublished {
		t.Errorf("Baseline() = %+v", b)
	}
}

func TestScannerUsesParseResult(t *testing.T) {
	t.Parallel()
	cached := mustParse(t, catalogB)
	s := NewScanner(func([]byte) (Catalog, bool) { return cached, true })
	s.Feed(vis(3, catalogA))
	if got := s.Baseline(); !got.Found || !sameCatalog(got.Catalog, cached) {
		t.Errorf("Baseline() = %+v, want the catalog from parse", got)
	}
}

func TestBaselineOver(t *testing.T) {
	t.Parallel()
	a, b := mustParse(t, catalogA), mustParse(t, catalogB)
	foundA := Baseline{Found: true, Seq: 5, Catalog: a, EverPublished: true}
	foundB := Baseline{Found: true, Seq: 8, Catalog: b, EverPublished: true}
	hiddenOnly := Baseline{EverPublished: true}
	tests := []struct {
		name         string
		newer, older Baseline
		want         Baseline
	}{
		{"nothing anywhere", Baseline{}, Baseline{}, Baseline{}},
		{"newer found wins over older found", foundB, foundA, foundB},
		{"newer found over nothing", foundB, Baseline{}, foundB},
		{"newer found over hidden only", foundB, hiddenOnly, foundB},
		{"older found stands under nothing new", Baseline{}, foundA, foundA},
		{"older found stands under newer hidden", hiddenOnly, foundA, foundA},
		{"newer hidden over nothing", hiddenOnly, Baseline{}, hiddenOnly},
		{"older hidden under nothing new", Baseline{}, hiddenOnly, hiddenOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.newer.Over(tt.older); !sameBaseline(got, tt.want) {
				t.Errorf("Over = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestIncrementalScanMatchesFullScan splits histories at every point: scanning the newer part
// and combining it with the older part's result must equal one scan over everything.
func TestIncrementalScanMatchesFullScan(t *testing.T) {
	t.Parallel()
	pool := [][]byte{nil, foreign, foreignCatalogProse, catalogA, catalogB, tombstone, []byte(malformed[3].source)}
	// Every history of length 3 over the pool with both visibilities; FuzzScanner goes longer.
	const n = 3
	choices := len(pool) * 2
	total := 1
	for range n {
		total *= choices
	}
	for code := range total {
		evs := make([]LogEvent, n)
		c := code
		for i := range evs {
			evs[i] = LogEvent{Seq: uint64(n - i), Source: pool[(c%choices)/2], Visible: c%2 == 1}
			c /= choices
		}
		want := referenceBaseline(evs)
		for k := 0; k <= n; k++ {
			newer, _ := scanAll(new(Scanner), evs[:k])
			older, _ := scanAll(new(Scanner), evs[k:])
			if got := newer.Over(older); !sameBaseline(got, want) {
				t.Fatalf("history %d split at %d: got %+v, want %+v", code, k, got, want)
			}
		}
	}
}

// history builds n events, newest first, that are mostly sourceless or foreign, with one
// catalog at index catalogAt (or none when negative) and, when hiddenEvery > 0, a hidden
// catalog every hiddenEvery events.
func history(n, catalogAt, hiddenEvery int) []LogEvent {
	toolResult := []byte(`{"kind":"tool-result","tool":"read","text":"` + strings.Repeat("line of file content ", 8) + `"}`)
	evs := make([]LogEvent, n)
	for i := range evs {
		ev := LogEvent{Seq: uint64(n - i), Visible: true}
		switch {
		case i == catalogAt:
			ev.Source = catalogB
		case hiddenEvery > 0 && i%hiddenEvery == hiddenEvery/2:
			ev.Source, ev.Visible = catalogA, false
		case i%7 == 3:
			ev.Source = foreign
		case i%7 == 5:
			ev.Source = toolResult
		}
		evs[i] = ev
	}
	return evs
}

func BenchmarkScanner(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		for _, sc := range []struct {
			name              string
			catalogAt, hidden int
		}{
			{"catalog-near-head", 5, 0},
			{"all-catalogs-hidden", -1, 1000},
			{"no-catalog", -1, 0},
		} {
			b.Run(fmt.Sprintf("%s/events=%d", sc.name, n), func(b *testing.B) {
				evs := history(n, sc.catalogAt, sc.hidden)
				b.ReportAllocs()
				for b.Loop() {
					var s Scanner
					for _, ev := range evs {
						if s.Feed(ev) {
							break
						}
					}
					if got := s.Baseline(); got.Found != (sc.catalogAt >= 0) {
						b.Fatalf("Baseline() = %+v", got)
					}
				}
			})
		}
	}
}
