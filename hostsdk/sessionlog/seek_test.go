package sessionlog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestNewestOfType(t *testing.T) {
	ctx := context.Background()
	logs := map[string]func(t *testing.T) (Log, func() Log){
		"memory": func(t *testing.T) (Log, func() Log) {
			l := NewMemory()
			return l, func() Log { return l }
		},
		"file": func(t *testing.T) (Log, func() Log) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			l, _, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			return l, func() Log {
				// Reopening rebuilds the index from the file.
				if err := l.Close(); err != nil {
					t.Fatal(err)
				}
				again, _, err := OpenFile(path)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { again.Close() })
				return again
			}
		},
		"file store handle": func(t *testing.T) (Log, func() Log) {
			s, err := NewFileStore(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			l, err := s.Open(ctx, "s")
			if err != nil {
				t.Fatal(err)
			}
			return l, func() Log {
				if err := l.Close(); err != nil {
					t.Fatal(err)
				}
				again, err := s.Open(ctx, "s")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { again.Close() })
				return again
			}
		},
	}
	for name, open := range logs {
		t.Run(name, func(t *testing.T) {
			l, reopen := open(t)
			want := func(l Log, typ string, seq, head uint64, ok bool) {
				t.Helper()
				got, h, gotOK, err := l.(TypeSeeker).NewestOfType(ctx, typ)
				if err != nil || got != seq || h.Seq != head || gotOK != ok {
					t.Fatalf("NewestOfType(%q) = %d at head %d, ok %v, %v; want %d at head %d, ok %v", typ, got, h.Seq, gotOK, err, seq, head, ok)
				}
			}
			want(l, "a", 0, 0, true)
			if _, err := l.Append(ctx, Record{Type: "a"}, Record{Type: "b"}, Record{Type: "a"}); err != nil {
				t.Fatal(err)
			}
			if _, err := l.Append(ctx, Record{Type: "c", Hide: &Range{From: 1, To: 1}}); err != nil {
				t.Fatal(err)
			}
			want(l, "a", 3, 4, true)
			want(l, "b", 2, 4, true)
			want(l, "c", 4, 4, true)
			want(l, "d", 0, 4, true)
			l = reopen()
			want(l, "a", 3, 4, true)
			want(l, "c", 4, 4, true)

			// Beyond the bound, types met first are still answered, others
			// are not known.
			for i := 0; i < maxTrackedTypes; i++ {
				if _, err := l.Append(ctx, Record{Type: fmt.Sprintf("t%d", i)}); err != nil {
					t.Fatal(err)
				}
			}
			head := uint64(4 + maxTrackedTypes)
			if _, err := l.Append(ctx, Record{Type: "a"}); err != nil {
				t.Fatal(err)
			}
			head++
			want(l, "a", head, head, true)
			want(l, "t0", 5, head, true)
			want(l, fmt.Sprintf("t%d", maxTrackedTypes-1), 0, head, false)
			want(l, "never", 0, head, false)
			l.Close()
			if _, _, _, err := l.(TypeSeeker).NewestOfType(ctx, "a"); err == nil {
				t.Fatal("NewestOfType on a closed log succeeded")
			}
		})
	}
}

// TestNewestOfTypeAfterRepair: the lines of an Append cut short, which
// opening the file drops, do not count.
func TestNewestOfTypeAfterRepair(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	data := `{"seq":1,"type":"a"}` + "\n" +
		`{"seq":2,"type":"b","more":true}` + "\n" +
		`{"seq":3,"type":"a","more":true}` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	l, rec, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if rec.IncompleteAppendLines != 2 {
		t.Fatalf("recovery = %+v, want the two lines of the cut Append dropped", rec)
	}
	for typ, want := range map[string]uint64{"a": 1, "b": 0} {
		seq, head, ok, err := l.NewestOfType(context.Background(), typ)
		if err != nil || seq != want || head.Seq != 1 || !ok {
			t.Errorf("NewestOfType(%q) = %d at head %d, ok %v, %v; want %d at head 1", typ, seq, head.Seq, ok, err, want)
		}
	}
}
