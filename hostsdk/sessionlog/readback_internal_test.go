package sessionlog

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadBackwardLongLines checks reads of lines far longer than a chunk,
// own and foreign, against the file split naively: while the log remembers
// where its lines start, once it has forgotten (lines further back), after
// reopening, and after open dropped an incomplete append. No event pins
// much more than its line.
func TestReadBackwardLongLines(t *testing.T) {
	for _, o := range []fileOptions{{chunk: defaultChunk, every: defaultIndexEvery}, {chunk: 64, every: 5}, {chunk: firstFetch + 7, every: 3}} {
		t.Run(fmt.Sprintf("chunk=%d,every=%d", o.chunk, o.every), func(t *testing.T) {
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(2, uint64(o.chunk)))
			path := filepath.Join(t.TempDir(), "s.jsonl")
			l, _, err := openFile(path, o)
			if err != nil {
				t.Fatal(err)
			}
			sizes := []int{0, 20, 20, 20, 3000, 5000, 70000, 150000}
			for i := 1; i <= 20; i++ {
				var recs []Record
				for range 1 + rng.IntN(3) {
					text := strings.Repeat("x", sizes[rng.IntN(len(sizes))])
					recs = append(recs, Record{Type: "message", Source: []byte(`{"s":"` + text[:len(text)/3] + `"}`), Body: []byte(`{"t":"` + text + `"}`)})
				}
				if _, err := l.Append(ctx, recs...); err != nil {
					t.Fatal(err)
				}
				if i%7 == 0 {
					// A long foreign line, read back as Raw.
					if err := l.Close(); err != nil {
						t.Fatal(err)
					}
					appendRaw(t, path, strings.Repeat("z", 90000)+"\n")
					if l, _, err = openFile(path, o); err != nil {
						t.Fatal(err)
					}
				}
			}
			checkReads(t, l, path)
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}

			// An append whose last line never made it: open drops it.
			appendRaw(t, path, `{"seq":999,"type":"message","body":{"t":"`+strings.Repeat("y", 80000)+`"},"more":true}`+"\n")
			l, rec, err := openFile(path, o)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if rec.IncompleteAppendLines != 1 {
				t.Fatalf("recovery %+v, want one incomplete append line dropped", rec)
			}
			checkReads(t, l, path)
		})
	}
}

func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// checkReads compares reads of l ending at every event with the lines of
// the file at path.
func checkReads(t *testing.T, l *FileLog, path string) {
	t.Helper()
	ctx := context.Background()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	n := uint64(len(lines))
	check := func(before, after uint64, limit int) {
		p, err := l.ReadBackward(ctx, before, after, limit)
		if err != nil {
			t.Fatalf("ReadBackward(%d, %d, %d): %v", before, after, limit, err)
		}
		upper := upperBound(n, before)
		if want := min(uint64(limit), upper-min(upper, after)); uint64(len(p.Events)) != want {
			t.Fatalf("ReadBackward(%d, %d, %d): %d events, want %d", before, after, limit, len(p.Events), want)
		}
		for i, e := range p.Events {
			seq := upper - uint64(i)
			line := lines[seq-1]
			want := eventFromLine(line, line, seq)
			if e.Seq != seq || e.Type != want.Type || !bytes.Equal(e.Source, want.Source) || !bytes.Equal(e.Body, want.Body) || !bytes.Equal(e.Raw, want.Raw) {
				t.Fatalf("ReadBackward(%d, %d, %d)[%d]: seq %d, %d+%d+%d bytes, want seq %d, %d+%d+%d", before, after, limit, i,
					e.Seq, len(e.Source), len(e.Body), len(e.Raw), seq, len(want.Source), len(want.Body), len(want.Raw))
			}
			for _, b := range [][]byte{e.Source, e.Body, e.Raw} {
				if cap(b) > 2*len(line)+64 {
					t.Fatalf("ReadBackward(%d, %d, %d)[%d]: a slice of a %d-byte line holds %d bytes", before, after, limit, i, len(line), cap(b))
				}
			}
		}
	}
	for before := uint64(0); before <= n+1; before++ {
		check(before, before-min(before, 3), 2)
		check(before, 0, 3)
	}
	check(0, 0, 1000)
}

// TestReadBackLongLineAllocatesItOnce: reading back a line much longer
// than a chunk allocates about its size, not a series of ever larger
// buffers, whether the log remembers where the line starts or not.
func TestReadBackLongLineAllocatesItOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	small := Record{Type: "message", Body: []byte(`{"t":"small"}`)}
	for range 10 {
		if _, err := l.Append(ctx, small); err != nil {
			t.Fatal(err)
		}
	}
	big := Record{Type: "message", Body: []byte(`{"t":"` + strings.Repeat("x", 1<<20) + `"}`)}
	h, err := l.Append(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	seq := h.Seq
	allocated := func(before, after uint64) uint64 {
		t.Helper()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		p, err := l.ReadBackward(ctx, before, after, 64)
		runtime.ReadMemStats(&m1)
		if err != nil || len(p.Events) == 0 || !bytes.Equal(p.Events[len(p.Events)-1].Body, big.Body) {
			t.Fatalf("ReadBackward(%d, %d): %d events, %v", before, after, len(p.Events), err)
		}
		return m1.TotalAlloc - m0.TotalAlloc
	}
	line := uint64(len(big.Body)) + 64
	// Scratch chunks (a new log's, or ones the race detector kept from
	// being reused) and small first fetches.
	slack := uint64(2*defaultChunk + 4*firstFetch)

	if _, err := l.Append(ctx, small); err != nil { // the tail no longer holds it
		t.Fatal(err)
	}
	if a := allocated(0, seq-1); a > line+slack {
		t.Errorf("a remembered line of %d bytes: %d bytes allocated", line, a)
	}
	for range 2 * tailEvents {
		if _, err := l.Append(ctx, small); err != nil {
			t.Fatal(err)
		}
	}
	if a := allocated(seq+1, seq-1); a > line+slack {
		t.Errorf("a forgotten line of %d bytes: %d bytes allocated", line, a)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if l, _, err = OpenFile(path); err != nil {
		t.Fatal(err)
	}
	if a := allocated(seq+1, seq-1); a > line+slack {
		t.Errorf("a forgotten line of %d bytes after reopening: %d bytes allocated", line, a)
	}
}
