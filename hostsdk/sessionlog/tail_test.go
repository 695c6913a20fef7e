package sessionlog

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTailReadsMatchTheFile: what the in-memory tail answers is what the
// file answers once reopened, for sources and bodies stored every way the
// file stores them, hidden events and every range the tail can serve.
func TestTailReadsMatchTheFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := []Record{
		{Type: "message", Source: []byte(`{"kind":"skill-catalog"}`), Body: []byte(`{"a":1}`)},
		{Type: "message", Source: []byte(" not json "), Body: []byte(`"text"`)},
		{Type: "message", Source: []byte{0xff, 0x00}, Body: nil},
		{Type: "message", Source: []byte{}, Body: []byte(`[]`)},
		{Type: "message", Body: []byte(`[{"x":"y"},{"x":"y"}]`)},
	}
	for i := 0; i < 3; i++ {
		if _, err := l.Append(ctx, recs...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Append(ctx, Record{Type: "compaction", Body: []byte(`{}`), Hide: &Range{From: 2, To: 4}}); err != nil {
		t.Fatal(err)
	}
	if len(l.tail) == 0 {
		t.Fatal("nothing was kept in the tail")
	}
	type read struct {
		before, after uint64
		limit         int
	}
	var reads []read
	for after := uint64(0); after <= 16; after += 3 {
		for _, limit := range []int{1, 2, 5, 100} {
			reads = append(reads, read{0, after, limit}, read{15, after, limit})
		}
	}
	fromTail := make([]Page, len(reads))
	for i, r := range reads {
		if fromTail[i], err = l.ReadBackward(ctx, r.before, r.after, r.limit); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l, _, err = OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(l.tail) != 0 {
		t.Fatal("a reopened log has a tail")
	}
	for i, r := range reads {
		fromFile, err := l.ReadBackward(ctx, r.before, r.after, r.limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fromFile, fromTail[i]); diff != "" {
			t.Errorf("read %+v: the tail differs from the file (-file +tail):\n%s", r, diff)
		}
	}
}

// TestTailIsBounded: the tail keeps at most its bounds, except that it
// keeps the newest append's events up to their share of the budget, until
// the next append; a suspended log keeps none beyond the bounds.
func TestTailIsBounded(t *testing.T) {
	ctx := context.Background()
	l, _, err := OpenFile(filepath.Join(t.TempDir(), "s.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := 0; i < 3*tailEvents; i++ {
		if _, err := l.Append(ctx, Record{Type: "message", Body: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if len(l.tail) != tailEvents || l.tail[len(l.tail)-1].Seq != 3*tailEvents {
		t.Fatalf("tail of %d events ending at %d", len(l.tail), l.tail[len(l.tail)-1].Seq)
	}
	big := Record{Type: "message", Body: []byte(`"` + strings.Repeat("x", tailMaxBytes) + `"`)}
	if _, err := l.Append(ctx, big); err != nil {
		t.Fatal(err)
	}
	if len(l.tail) != 1 || l.tail[0].Seq != 3*tailEvents+1 || l.tailBytes != len(big.Type)+len(big.Body) {
		t.Fatalf("after an event beyond the bound the tail holds %d events, %d bytes; want just that event", len(l.tail), l.tailBytes)
	}
	page, err := l.ReadBackward(ctx, 0, 3*tailEvents, 1)
	if err != nil || len(page.Events) != 1 || &page.Events[0].Body[0] != &big.Body[0] {
		t.Fatalf("the newest event was not read from the tail: %d events, err %v", len(page.Events), err)
	}
	if _, err := l.Append(ctx, Record{Type: "message", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if len(l.tail) != 1 || l.tail[0].Seq != 3*tailEvents+2 || l.tailBytes > tailMaxBytes {
		t.Fatalf("after the next append the tail holds %d events, %d bytes; want only the new one", len(l.tail), l.tailBytes)
	}
	page, err = l.ReadBackward(ctx, 0, 0, 3)
	if err != nil || len(page.Events) != 3 || page.Events[1].Seq != 3*tailEvents+1 || len(page.Events[1].Body) != tailMaxBytes+2 {
		t.Fatalf("read across the emptied tail: %d events, err %v", len(page.Events), err)
	}

	if _, err := l.Append(ctx, big); err != nil {
		t.Fatal(err)
	}
	if err := l.suspend(); err != nil {
		t.Fatal(err)
	}
	if len(l.tail) != 0 || l.tailBytes != 0 {
		t.Fatalf("a suspended log's tail holds %d events, %d bytes", len(l.tail), l.tailBytes)
	}
	if err := l.resume(); err != nil {
		t.Fatal(err)
	}
	page, err = l.ReadBackward(ctx, 0, 0, 1)
	if err != nil || len(page.Events) != 1 || len(page.Events[0].Body) != tailMaxBytes+2 {
		t.Fatalf("read after resuming: %d events, err %v", len(page.Events), err)
	}
}
