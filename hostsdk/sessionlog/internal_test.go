package sessionlog

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBackwardMatchesFile builds files of lines of very different sizes,
// foreign lines included, and checks every read against the file split
// naively, with chunk and index sizes small enough to put boundaries
// everywhere.
func TestReadBackwardMatchesFile(t *testing.T) {
	for _, o := range []fileOptions{{chunk: 1, every: 1}, {chunk: 7, every: 3}, {chunk: 64, every: 5}, {chunk: defaultChunk, every: defaultIndexEvery}} {
		t.Run(fmt.Sprintf("chunk=%d,every=%d", o.chunk, o.every), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(o.chunk)))
			path := filepath.Join(t.TempDir(), "s.jsonl")
			l, _, err := openFile(path, o)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			var foreign [][]byte
			for i := 1; i <= 40; i++ {
				var recs []Record
				for range 1 + rng.IntN(3) {
					r := Record{Type: "message", Body: []byte(fmt.Sprintf(`{"t":%q}`, strings.Repeat("x", rng.IntN(3)*rng.IntN(90))))}
					if rng.IntN(5) == 0 {
						r = Record{Type: "compaction", Hide: &Range{From: 1 + uint64(rng.IntN(i)), To: uint64(i)}}
						r.Hide.From = min(r.Hide.From, r.Hide.To)
					}
					recs = append(recs, r)
				}
				if _, err := l.Append(ctx, recs...); err != nil {
					t.Fatal(err)
				}
				if i%15 == 0 {
					// Foreign lines, including an empty one, between records.
					if err := l.Close(); err != nil {
						t.Fatal(err)
					}
					line := []byte(fmt.Sprintf("foreign %d", i))
					foreign = append(foreign, line, []byte{})
					f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := f.Write(append(line, '\n', '\n')); err != nil {
						t.Fatal(err)
					}
					if err := f.Close(); err != nil {
						t.Fatal(err)
					}
					if l, _, err = openFile(path, o); err != nil {
						t.Fatal(err)
					}
				}
			}
			defer l.Close()

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
			head, _ := l.Head(ctx)
			if head.Seq != uint64(len(lines)) {
				t.Fatalf("head %d, file has %d lines", head.Seq, len(lines))
			}
			var hidden hiddenSet
			for i, line := range lines {
				if p := parseLine(line, uint64(i+1)); p.ok && p.hide != nil {
					for s := p.hide.From; s <= p.hide.To; s++ {
						hidden.add(Range{s, s})
					}
				}
			}
			n := uint64(len(lines))
			for before := uint64(0); before <= n+2; before++ {
				for _, after := range []uint64{0, before / 2, before - min(before, 3), n} {
					for _, limit := range []int{1, 4, 1000} {
						p, err := l.ReadBackward(ctx, before, after, limit)
						if err != nil {
							t.Fatalf("ReadBackward(%d, %d, %d): %v", before, after, limit, err)
						}
						upper := upperBound(n, before)
						for i, e := range p.Events {
							seq := upper - uint64(i)
							want := eventFromLine(lines[seq-1], lines[seq-1], seq)
							want.Visible = !hidden.hidden(seq)
							if e.Seq != seq || e.Type != want.Type || !bytes.Equal(e.Body, want.Body) || !bytes.Equal(e.Raw, want.Raw) || e.Visible != want.Visible {
								t.Fatalf("ReadBackward(%d, %d, %d)[%d] = %+v, want %+v", before, after, limit, i, e, want)
							}
						}
						wantLen := min(uint64(limit), upper-min(upper, after))
						if uint64(len(p.Events)) != wantLen || p.More != (upper > after && wantLen < upper-after) {
							t.Fatalf("ReadBackward(%d, %d, %d): %d events More=%v", before, after, limit, len(p.Events), p.More)
						}
					}
				}
			}
			if len(foreign) == 0 {
				t.Fatal("no foreign lines were written")
			}
		})
	}
}

func TestHiddenSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 200 {
		var h, persistent hiddenSet
		var naive [64]bool
		for range rng.IntN(12) {
			from := 1 + uint64(rng.IntN(60))
			to := from + uint64(rng.IntN(4))
			h.add(Range{from, to})
			before := persistent
			snapshot := append([]Range(nil), before.r...)
			persistent = persistent.with(Range{from, to})
			if fmt.Sprint(before.r) != fmt.Sprint(snapshot) {
				t.Fatalf("with modified the original set")
			}
			for s := from; s <= to; s++ {
				naive[s] = true
			}
		}
		for s := uint64(0); s < 64; s++ {
			if h.hidden(s) != naive[s] || persistent.hidden(s) != naive[s] {
				t.Fatalf("round %d: hidden(%d) = %v/%v, want %v (set %v)", round, s, h.hidden(s), persistent.hidden(s), naive[s], h.r)
			}
		}
		for i := 1; i < len(h.r); i++ {
			if h.r[i].From <= h.r[i-1].To+1 {
				t.Fatalf("ranges not merged: %v", h.r)
			}
		}
	}
}

func TestSessionFileNameInjective(t *testing.T) {
	ids := []string{"a", "A", "%41", "%2541", "a~b", ".", "..", "/", "\\", "a.b", "a%2Eb", "é", "\x00"}
	for n := 150; n < 260; n++ {
		ids = append(ids, strings.Repeat("a", n), strings.Repeat("A", n/3), strings.Repeat("a", n-1)+"/")
	}
	seen := make(map[string]string)
	for _, id := range ids {
		name := SessionFileName(id)
		if prev, dup := seen[name]; dup && prev != id {
			t.Fatalf("ids %q and %q share file %q", prev, id, name)
		}
		seen[name] = id
		if len(name) > 255 || strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") {
			t.Fatalf("unsafe file name %q for id %q", name, id)
		}
	}
}

// TestAppendAfterWriteFailure: when a write fails and the file cannot be
// truncated back, the log refuses appends but still serves reads.
func TestAppendAfterWriteFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := l.Append(ctx, Record{Type: "message", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	// Swap in a read-only descriptor: writes and truncation now fail.
	ro, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rw := l.f
	l.f = ro
	defer rw.Close()
	defer l.Close()

	if _, err := l.Append(ctx, Record{Type: "message"}); err == nil {
		t.Fatal("Append through a read-only descriptor succeeded")
	}
	_, err = l.Append(ctx, Record{Type: "message"})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("Append after a failed write: %v, want a refusal", err)
	}
	p, err := l.ReadBackward(ctx, 0, 0, 10)
	if err != nil || len(p.Events) != 1 || p.Head.Seq != 1 {
		t.Fatalf("read after a failed write: %+v, %v", p, err)
	}
}
