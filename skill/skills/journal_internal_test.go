package skills

import (
	"context"
	"fmt"
	"testing"
)

// TestJournalIsBounded: a scope records no changes while no snapshot of it
// was handed out, and no more than a delta could use once one was.
func TestJournalIsBounded(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	const size = 100
	for i := range size {
		if err := r.Register("g", RuntimeSkill{Name: fmt.Sprintf("s%03d", i), Description: "d"}); err != nil {
			t.Fatal(err)
		}
	}
	src := r.scopes["g"]
	if n := len(src.journal.changes); n != 0 {
		t.Fatalf("%d changes recorded before any snapshot was handed out", n)
	}
	q := Query{Chain: []string{"g"}}
	for round := range 50 {
		if _, err := r.SharedSnapshot(ctx, q); err != nil {
			t.Fatal(err)
		}
		for i := range 7 {
			if err := r.Register("g", RuntimeSkill{Name: fmt.Sprintf("s%03d", (round*7+i)%size), Description: fmt.Sprint(round)}); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(src.journal.marks); n > maxJournalMarks {
			t.Fatalf("round %d: %d marks, want at most %d", round, n, maxJournalMarks)
		}
		if n := len(src.journal.changes); n > size/2+1 {
			t.Fatalf("round %d: %d changes kept for %d skills, want at most %d", round, n, size, size/2+1)
		}
	}
}

// newRegistry is NewRegistry with the defaults, failing t if it fails:
// skilltest.NewRegistry for this package's own tests, which cannot import
// skilltest (it imports this package).
func newRegistry(t testing.TB) *Registry {
	t.Helper()
	r, err := NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
