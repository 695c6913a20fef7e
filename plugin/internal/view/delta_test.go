package view

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// FuzzSnapshotDelta: the delta a host computes is the oracle's, or, when
// not worth sending, larger than half the snapshot.
func FuzzSnapshotDelta(f *testing.F) {
	f.Add([]byte("alpha=A;beta=B;gamma=G"), []byte("alpha=A;beta=B2;delta=D"))
	f.Add([]byte("a=1;b=2;c=3;d=4;e=5"), []byte("a=1;b=2;c=3;d=4;e=6"))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		base, cur := sortedUnique(parseListing(first)), sortedUnique(parseListing(second))
		up, rm, worth := contract.SnapshotDelta(base, cur)
		wantUp, wantRm := snapshotDelta(base, cur)
		if !worth {
			if 2*(len(wantUp)+len(wantRm)) <= len(cur)+1 {
				t.Fatalf("a delta of %d changes against %d skills was judged not worth sending", len(wantUp)+len(wantRm), len(cur))
			}
			return
		}
		if diff := cmp.Diff(wantUp, up, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("upserts (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantRm, rm, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("removed (-want +got):\n%s", diff)
		}
	})
}
