package sessionlog_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// TestAppendRefusedWhenFileChangedUnderneath: the file lock is advisory, so
// something else can truncate, extend or replace an open log's file. The
// next append must fail and the log must refuse further appends, instead of
// writing at its remembered offset and acknowledging a record that a later
// open reads back fused with a cut line, or not at all.
func TestAppendRefusedWhenFileChangedUnderneath(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
	}{
		{"truncated into a line", func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()-10); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated to empty", func(t *testing.T, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"extended by another writer", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(`{"seq":3,"type":"message","body":{"by":"someone else"}}` + "\n"); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced by another file", func(t *testing.T, path string) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			other := path + ".new"
			if err := os.WriteFile(other, data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "session.jsonl")
			l, _ := mustOpen(t, path)
			mustAppend(t, l, message(1), message(2))
			tc.change(t, path)

			if h, err := l.Append(ctx, message(3)); !errors.Is(err, sessionlog.ErrFileChanged) {
				t.Fatalf("Append after the file changed = %+v, %v; want an error wrapping ErrFileChanged", h, err)
			}
			if _, err := l.Append(ctx, message(4)); !errors.Is(err, sessionlog.ErrFileChanged) {
				t.Fatalf("second Append after the file changed: %v; want the log to keep refusing", err)
			}
			if h, err := l.Head(ctx); err != nil || h.Seq != 2 {
				t.Fatalf("Head after refused appends = %+v, %v; want seq 2", h, err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			// Whatever is in the file now, no refused record is in it.
			if _, err := os.Stat(path); err != nil {
				return
			}
			l2, _ := mustOpen(t, path)
			for _, e := range readAll(t, l2) {
				if string(e.Source) == string(message(3).Source) || string(e.Source) == string(message(4).Source) {
					t.Errorf("refused record found at seq %d after reopening", e.Seq)
				}
			}
		})
	}
}
