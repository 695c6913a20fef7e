package sessionlog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// FuzzOpenFile opens arbitrary file contents. Open must not fail, must keep
// every complete line except those of an incomplete Append, and the log must
// then read and append normally.
func FuzzOpenFile(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("{\"seq\":1,\"type\":\"message\",\"body\":{}}\n{\"seq\":2,\"type\":\"compaction\",\"hide\":{\"from\":1,\"to\":1}}\n"))
	f.Add([]byte("{\"seq\":1,\"type\":\"message\",\"more\":true}\n{\"seq\":2,\"ty"))
	f.Add([]byte("garbage\n\n{}\nnull\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		l, rec, err := sessionlog.OpenFile(path)
		if err != nil {
			t.Fatalf("OpenFile: %v", err)
		}
		defer func() { _ = l.Close() }()

		kept, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, kept) {
			t.Fatal("open changed bytes it kept")
		}
		if dropped := len(data) - len(kept); dropped != rec.TornTailBytes+rec.IncompleteAppendBytes {
			t.Fatalf("open dropped %d bytes, reported %+v", dropped, rec)
		}
		if len(kept) > 0 && kept[len(kept)-1] != '\n' {
			t.Fatal("kept an unterminated line")
		}
		lines := bytes.SplitAfter(kept, []byte("\n"))
		lines = lines[:len(lines)-1] // the empty remainder after the last '\n'
		h, err := l.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if h.Seq != uint64(len(lines)) {
			t.Fatalf("head %d for %d lines", h.Seq, len(lines))
		}

		// Read everything back in small pages.
		raw := 0
		next, before := h.Seq, uint64(0)
		for next > 0 {
			p, err := l.ReadBackward(ctx, before, 0, 7)
			if err != nil {
				t.Fatalf("ReadBackward: %v", err)
			}
			for _, e := range p.Events {
				if e.Seq != next {
					t.Fatalf("read seq %d, want %d", e.Seq, next)
				}
				if e.Raw != nil {
					raw++
					if want := bytes.TrimSuffix(lines[next-1], []byte("\n")); !bytes.Equal(e.Raw, want) || e.Type != "" {
						t.Fatalf("seq %d: Raw %q, want %q", next, e.Raw, want)
					}
				} else if e.Type == "" {
					t.Fatalf("seq %d: neither Type nor Raw", next)
				}
				next--
			}
			if p.More != (next > 0) {
				t.Fatalf("More = %v with %d events left", p.More, next)
			}
			if len(p.Events) > 0 {
				before = p.Events[len(p.Events)-1].Seq
			}
		}
		if raw != rec.UnparsedLines {
			t.Fatalf("read %d raw events, open reported %d unparsed lines", raw, rec.UnparsedLines)
		}

		// Appends continue after whatever was there.
		add := []sessionlog.Record{
			{Type: "message", Source: []byte("src\xff"), Body: []byte(`{"x":1}`)},
			{Type: "compaction", Hide: &sessionlog.Range{From: 1, To: h.Seq + 1}},
		}
		h2, err := l.Append(ctx, add...)
		if err != nil {
			t.Fatalf("Append: %v", err)
		}
		if h2.Seq != h.Seq+2 || h2.SurfaceRevision != h.SurfaceRevision+1 {
			t.Fatalf("head %+v after append to %+v", h2, h)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		l, rec2, err := sessionlog.OpenFile(path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		defer func() { _ = l.Close() }()
		if rec2.Repaired() || rec2.UnparsedLines != rec.UnparsedLines {
			t.Fatalf("reopen reported %+v after %+v", rec2, rec)
		}
		if h3, _ := l.Head(ctx); h3 != h2 {
			t.Fatalf("reopened head %+v, want %+v", h3, h2)
		}
		p, err := l.ReadBackward(ctx, 0, 0, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Events) < 2 || !bytes.Equal(p.Events[1].Source, add[0].Source) || p.Events[1].Visible || !p.Events[0].Visible || p.Events[0].Type != "compaction" {
			t.Fatalf("appended records read back as %+v", p.Events)
		}
		for _, e := range p.Events[1:] {
			if e.Visible {
				t.Fatalf("seq %d visible after a compaction hid it", e.Seq)
			}
		}
	})
}
