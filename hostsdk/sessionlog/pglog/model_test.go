package pglog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// opsFromBytes turns fuzz input into appends. A byte of 0xf0 or more
// appends 400 messages at once (to reach several hide blocks); otherwise it
// gives the count of records (1 to 4), and each record takes two bytes and
// is a compaction over a valid range of earlier seqs, up to thousands long
// and ending anywhere (a third of the time, when there are earlier seqs),
// or a message.
func opsFromBytes(data []byte) [][]sessionlog.Record {
	var ops [][]sessionlog.Record
	seq := uint64(0) // head so far
	message := func(seq uint64, x byte) sessionlog.Record {
		return sessionlog.Record{Type: "message", Source: []byte{x}, Body: []byte(fmt.Sprintf(`{"seq":%d}`, seq))}
	}
	for len(data) > 0 {
		op := data[0]
		data = data[1:]
		var recs []sessionlog.Record
		if op >= 0xf0 {
			for range 400 {
				seq++
				recs = append(recs, message(seq, op))
			}
			ops = append(ops, recs)
			continue
		}
		for range int(op%4) + 1 {
			if len(data) < 2 {
				break
			}
			x, y := uint64(data[0]), uint64(data[1])
			data = data[2:]
			seq++
			if x%3 == 0 && seq > 1 {
				from := seq - 1 - (y*y)%(seq-1)
				to := from + (x/3)*(x/3)%(seq-from)
				recs = append(recs, sessionlog.Record{
					Type: "compaction", Body: []byte(fmt.Sprintf(`{"hides":"%d..%d"}`, from, to)),
					Hide: &sessionlog.Range{From: from, To: to},
				})
				continue
			}
			recs = append(recs, message(seq, byte(x)))
		}
		if len(recs) > 0 {
			ops = append(ops, recs)
		}
	}
	return ops
}

// checkHides checks the session's rows of hides: exactly the union of the
// hidden ranges, cut at multiples of hideBlock and nowhere else, so that a
// page's query finds every row that covers it within a bounded key range.
func checkHides(t *testing.T, s *Store, l *Log, hidden map[uint64]bool) {
	t.Helper()
	rows, err := s.pool.Query(context.Background(),
		fillSchema(`SELECT hide_from, hide_to FROM {s}.hides WHERE session = $1 ORDER BY hide_from`, s.schema), l.key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var prevTo int64 = -1
	covered := make(map[uint64]bool)
	for rows.Next() {
		var from, to int64
		if err := rows.Scan(&from, &to); err != nil {
			t.Fatal(err)
		}
		if from/hideBlock != to/hideBlock {
			t.Fatalf("hides row %d..%d crosses a multiple of %d", from, to, hideBlock)
		}
		if prevTo >= 0 && from <= prevTo {
			t.Fatalf("hides row %d..%d overlaps the one ending at %d", from, to, prevTo)
		}
		if prevTo >= 0 && from == prevTo+1 && from%hideBlock != 0 {
			t.Fatalf("hides row %d..%d touches the one ending at %d within a block", from, to, prevTo)
		}
		prevTo = to
		for seq := from; seq <= to; seq++ {
			covered[uint64(seq)] = true
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(hidden, covered); diff != "" {
		t.Fatalf("hides cover the wrong seqs (-want +got):\n%s", diff)
	}
}

// readAll reads the window before..after page by page.
func readAll(t *testing.T, l sessionlog.Log, before, after uint64, size int) []sessionlog.Page {
	t.Helper()
	var pages []sessionlog.Page
	for {
		p, err := l.ReadBackward(context.Background(), before, after, size)
		if err != nil {
			t.Fatalf("ReadBackward(%d, %d, %d): %v", before, after, size, err)
		}
		pages = append(pages, p)
		if !p.More {
			return pages
		}
		before = p.Events[len(p.Events)-1].Seq
	}
}

// FuzzMatchesMemoryLog appends the same records with hide ranges to the
// store and to the memory log, and compares every head, every page at
// several sizes and windows, and the merged hide ranges after each append.
func FuzzMatchesMemoryLog(f *testing.F) {
	f.Add([]byte{3, 1, 1, 1, 2, 1, 3, 1, 4, 0, 0, 0})
	f.Add([]byte("\x03aaaaaaaa\x00\x03\x01\x01\x06\x02\x03\x00\x00\x00\x00\x00\x0c\x05"))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 12 {
		b := make([]byte, 20+rng.IntN(120))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		f.Add(b)
	}
	// Long runs that end in ranges spanning many holes at once.
	wide := []byte{}
	for i := range 40 {
		wide = append(wide, 3, 1, byte(i), 1, byte(i), 6, byte(3*i), 1, byte(i))
	}
	f.Add(append(wide, 0, 255, 0))
	// Sessions of thousands of events with ranges across block boundaries.
	f.Add([]byte{0xf0, 0xf1, 0xf2, 3, 0, 40, 0, 30, 1, 1, 0xf3, 3, 60, 200, 0, 250, 3, 90, 100, 255, 255})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 3, 3, 32, 6, 33, 9, 32, 0xff, 3, 255, 255, 3, 0, 0xfe, 2, 0, 1, 3, 7})

	s := newTestStore(f)
	var sessions atomic.Int64
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		l, err := s.OpenLog(ctx, fmt.Sprintf("fuzz-%d", sessions.Add(1)))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		mem := sessionlog.NewMemory()
		hidden := make(map[uint64]bool)
		for _, recs := range opsFromBytes(data) {
			want, err := mem.Append(ctx, recs...)
			if err != nil {
				t.Fatalf("memory Append: %v", err)
			}
			got, err := l.Append(ctx, recs...)
			if err != nil {
				t.Fatalf("Append: %v", err)
			}
			if got != want {
				t.Fatalf("Append head %+v, want %+v", got, want)
			}
			for _, r := range recs {
				if r.Hide != nil {
					for seq := r.Hide.From; seq <= r.Hide.To; seq++ {
						hidden[seq] = true
					}
				}
			}
			checkHides(t, s, l, hidden)
		}
		h, err := mem.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		windows := [][2]uint64{{0, 0}, {h.Seq / 2, 0}, {0, h.Seq / 3}, {h.Seq, 1}, {h.Seq + 5, h.Seq / 2}}
		for _, w := range windows {
			sizes := []int{1, 3, 64}
			if h.Seq > 300 {
				sizes = []int{64, 1000} // not one round trip per event
			}
			for _, size := range sizes {
				want, got := readAll(t, mem, w[0], w[1], size), readAll(t, l, w[0], w[1], size)
				// DeepEqual tells nil from empty too, and is cheaper than
				// cmp, which explains a difference.
				if !reflect.DeepEqual(want, got) {
					t.Fatalf("ReadBackward(before=%d, after=%d) in pages of %d (-memory +store):\n%s", w[0], w[1], size, cmp.Diff(want, got))
				}
			}
		}
	})
}
