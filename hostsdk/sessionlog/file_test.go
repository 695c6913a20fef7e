package sessionlog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

var ctx = context.Background()

func message(i int) sessionlog.Record {
	return sessionlog.Record{
		Type:   "message",
		Source: []byte(fmt.Sprintf(`{"kind":"test","n":%d}`, i)),
		Body:   []byte(fmt.Sprintf(`{"content":"message %d"}`, i)),
	}
}

func mustOpen(t *testing.T, path string) (*sessionlog.FileLog, sessionlog.Recovery) {
	t.Helper()
	l, rec, err := sessionlog.OpenFile(path)
	if err != nil {
		t.Fatalf("OpenFile: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l, rec
}

func mustAppend(t *testing.T, l sessionlog.Log, recs ...sessionlog.Record) sessionlog.Head {
	t.Helper()
	h, err := l.Append(ctx, recs...)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return h
}

func readAll(t *testing.T, l sessionlog.Log) []sessionlog.Event {
	t.Helper()
	p, err := l.ReadBackward(ctx, 0, 0, 1<<20)
	if err != nil {
		t.Fatalf("ReadBackward: %v", err)
	}
	if p.More {
		t.Fatal("More set on a read of everything")
	}
	for i, e := range p.Events {
		if want := p.Head.Seq - uint64(i); e.Seq != want {
			t.Fatalf("event %d has seq %d, want %d", i, e.Seq, want)
		}
	}
	return p.Events
}

func appendBytes(t *testing.T, path string, b string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestFileFormat pins the bytes on disk: other tools read these files.
func TestFileFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _ := mustOpen(t, path)
	mustAppend(t, l,
		sessionlog.Record{Type: "message", Source: []byte(`{"kind":"skill-catalog","form":"catalog","entries":[]}`), Body: []byte(`{"role":"user","content":"<system-reminder>"}`)},
		sessionlog.Record{Type: "message", Source: []byte(`not "json"`), Body: []byte("{\n  \"pretty\": 1\n}")},
		sessionlog.Record{Type: "message", Source: []byte("\xff\x00")},
	)
	mustAppend(t, l, sessionlog.Record{Type: "compaction", Body: []byte(`{"summary":"s"}`), Hide: &sessionlog.Range{From: 1, To: 2}})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":1,"type":"message","source":{"kind":"skill-catalog","form":"catalog","entries":[]},"body":{"role":"user","content":"<system-reminder>"},"more":true}
{"seq":2,"type":"message","sourceText":"not \"json\"","bodyText":"{\n  \"pretty\": 1\n}","more":true}
{"seq":3,"type":"message","sourceB64":"/wA="}
{"seq":4,"type":"compaction","body":{"summary":"s"},"hide":{"from":1,"to":2}}
`
	if string(got) != want {
		t.Fatalf("file contents:\n%s\nwant:\n%s", got, want)
	}
}

// TestTornTail simulates a write cut short: the file ends in half a line.
func TestTornTail(t *testing.T) {
	for _, tail := range []string{
		`{"seq":4,"type":"mess`,
		`{"seq":4,"type":"message","body":{}}`, // complete JSON, but no newline: the write was still cut short
		`{`,
		"\x00\x00\x00",
	} {
		t.Run(fmt.Sprintf("%q", tail), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			l, _ := mustOpen(t, path)
			mustAppend(t, l, message(1), message(2))
			mustAppend(t, l, message(3))
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			good := fileSize(t, path)
			appendBytes(t, path, tail)

			l, rec := mustOpen(t, path)
			if want := (sessionlog.Recovery{TornTailBytes: len(tail)}); rec != want {
				t.Fatalf("Recovery = %+v, want %+v", rec, want)
			}
			if got := fileSize(t, path); got != good {
				t.Fatalf("file is %d bytes after open, want the torn tail truncated to %d", got, good)
			}
			if h, _ := l.Head(ctx); h.Seq != 3 {
				t.Fatalf("head after open = %+v, want seq 3", h)
			}
			// Appends continue cleanly where the torn line was.
			mustAppend(t, l, message(4), message(5))
			checkMessages(t, l, 5)
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			l, rec = mustOpen(t, path)
			if rec != (sessionlog.Recovery{}) {
				t.Fatalf("second open reported %+v", rec)
			}
			checkMessages(t, l, 5)
		})
	}
}

// checkMessages checks that the log holds exactly message(1..n).
func checkMessages(t *testing.T, l sessionlog.Log, n int) {
	t.Helper()
	evs := readAll(t, l)
	if len(evs) != n {
		t.Fatalf("log holds %d events, want %d", len(evs), n)
	}
	for _, e := range evs {
		want := message(int(e.Seq))
		if e.Type != want.Type || !bytes.Equal(e.Source, want.Source) || !bytes.Equal(e.Body, want.Body) || e.Raw != nil {
			t.Fatalf("event %d = %+v, want %+v", e.Seq, e, want)
		}
	}
}

func TestTornTailOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendBytes(t, path, `{"seq":1,"ty`)
	l, rec := mustOpen(t, path)
	if rec.TornTailBytes != 12 {
		t.Fatalf("Recovery = %+v, want 12 torn bytes", rec)
	}
	mustAppend(t, l, message(1))
	checkMessages(t, l, 1)
}

// TestIncompleteAppend simulates a multi-record Append cut exactly at a line
// boundary: its complete lines are dropped too, hides included.
func TestIncompleteAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _ := mustOpen(t, path)
	mustAppend(t, l, message(1), message(2))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	good := fileSize(t, path)
	lines := `{"seq":3,"type":"message","body":{},"more":true}
{"seq":4,"type":"compaction","hide":{"from":1,"to":2},"more":true}
`
	torn := `{"seq":5,"type":"mes`
	appendBytes(t, path, lines+torn)

	l, rec := mustOpen(t, path)
	want := sessionlog.Recovery{TornTailBytes: len(torn), IncompleteAppendLines: 2, IncompleteAppendBytes: len(lines)}
	if rec != want {
		t.Fatalf("Recovery = %+v, want %+v", rec, want)
	}
	if got := fileSize(t, path); got != good {
		t.Fatalf("file is %d bytes, want %d", got, good)
	}
	if h, _ := l.Head(ctx); h != (sessionlog.Head{Seq: 2}) {
		t.Fatalf("head = %+v: the dropped compaction must not count", h)
	}
	checkMessages(t, l, 2)
	mustAppend(t, l, message(3))
	checkMessages(t, l, 3)
}

// TestUnparsedLines: complete lines this package did not write are kept,
// numbered, and passed through as Raw.
func TestUnparsedLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	foreign := []string{
		`not json at all`,
		`{}`,
		``,
		`{"type":""}`,
		`{"type":"compaction","hide":{"from":1,"to":9}}`, // hides its own future
		`{"type":"message","source":{},"sourceText":"two encodings"}`,
		`{"type":"message","bodyText":"{not json"}`,
		`{"type":"message","sourceB64":"!!"}`,
		`[1,2,3]`,
		`{"type":"message","body":{}} trailing`,
		"\xff\xfe",
	}
	l, _ := mustOpen(t, path)
	mustAppend(t, l, message(1))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	appendBytes(t, path, strings.Join(foreign, "\n")+"\n")
	l, rec := mustOpen(t, path)
	if want := (sessionlog.Recovery{UnparsedLines: len(foreign)}); rec != want {
		t.Fatalf("Recovery = %+v, want %+v", rec, want)
	}
	// New records continue the line numbering.
	n := uint64(len(foreign)) + 2
	h := mustAppend(t, l, sessionlog.Record{Type: "compaction", Hide: &sessionlog.Range{From: 2, To: 3}})
	if h != (sessionlog.Head{Seq: n, SurfaceRevision: 1}) {
		t.Fatalf("head = %+v, want seq %d revision 1", h, n)
	}
	for round := range 2 {
		evs := readAll(t, l)
		if len(evs) != int(n) {
			t.Fatalf("round %d: %d events, want %d", round, len(evs), n)
		}
		for i, line := range foreign {
			e := evs[len(evs)-2-i]
			if e.Type != "" || e.Raw == nil || string(e.Raw) != line || e.Body != nil || e.Source != nil {
				t.Errorf("round %d: seq %d = %+v, want Raw %q", round, e.Seq, e, line)
			}
			if wantVisible := e.Seq > 3; e.Visible != wantVisible {
				t.Errorf("round %d: seq %d Visible = %v, want %v", round, e.Seq, e.Visible, wantVisible)
			}
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		l, rec = mustOpen(t, path)
		if rec.UnparsedLines != len(foreign) || rec.Repaired() {
			t.Fatalf("reopen: Recovery = %+v", rec)
		}
	}
}

func TestOpenFileLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _ := mustOpen(t, path)
	if _, _, err := sessionlog.OpenFile(path); !errors.Is(err, sessionlog.ErrLocked) {
		t.Fatalf("second OpenFile: error %v, want ErrLocked", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, path)
}

func TestOpenFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := sessionlog.OpenFile(dir); err == nil {
		t.Error("OpenFile of a directory succeeded")
	}
	if _, _, err := sessionlog.OpenFile(filepath.Join(dir, "missing", "s.jsonl")); err == nil {
		t.Error("OpenFile in a missing directory succeeded")
	}
}

func TestFileStoreLayout(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "sessions")
	s, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"abc-123_x", "../../etc/passwd", "..", ".", "A", "a", "a/b", strings.Repeat("Z", 1000)}
	for _, id := range ids {
		l, err := s.Open(ctx, id)
		if err != nil {
			t.Fatalf("Open(%q): %v", id, err)
		}
		mustAppend(t, l, message(1))
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(ids) {
		t.Fatalf("%d files for %d sessions", len(entries), len(ids))
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") || len(e.Name()) > 255 {
			t.Errorf("unexpected entry %q", e.Name())
		}
	}
	if rootEntries, _ := os.ReadDir(root); len(rootEntries) != 1 {
		t.Errorf("files escaped the store directory: %v", rootEntries)
	}
	for id, want := range map[string]string{
		"abc-123_x":        "abc-123_x.jsonl",
		"../../etc/passwd": "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.jsonl",
		"A":                "%41.jsonl",
	} {
		if got := sessionlog.SessionFileName(id); got != want {
			t.Errorf("SessionFileName(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestFileStoreRecovery: a store handle reports what opening repaired and
// where the session's file is, whichever handle opened it.
func TestFileStoreRecovery(t *testing.T) {
	dir := t.TempDir()
	st, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sessionlog.SessionFileName("s"))
	appendBytes(t, path, "{\"seq\":1")
	h, err := st.OpenHandle(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	l, err := st.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	shared, ok := l.(*sessionlog.FileHandle)
	if !ok {
		t.Fatalf("Open returned %T, want *sessionlog.FileHandle", l)
	}
	for _, h := range []*sessionlog.FileHandle{h, shared} {
		if got := h.Recovery(); got.TornTailBytes != 8 {
			t.Errorf("Recovery = %+v, want 8 torn bytes", got)
		}
		if got := h.Path(); got != path || got != st.Path("s") {
			t.Errorf("Path = %q, want %q", got, path)
		}
	}
}

// TestFileStoreOpenFailsWithNilLog: a failed Open returns a nil Log, not a
// nil handle wrapped in one.
func TestFileStoreOpenFailsWithNilLog(t *testing.T) {
	st, err := sessionlog.NewFileStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := st.Open(ctx, ""); err == nil || l != nil {
		t.Fatalf("Open of an empty id = %v, %v; want nil and an error", l, err)
	}
}

// TestFileStoreSharedClose: the file stays open until the last handle closes.
func TestFileStoreSharedClose(t *testing.T) {
	dir := t.TempDir()
	st, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sessionlog.SessionFileName("s"))
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := sessionlog.OpenFile(path); !errors.Is(err, sessionlog.ErrLocked) {
		t.Fatalf("file not held open while a handle remains: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, path)
}

// TestFileStoreConcurrentOpen: handles opened concurrently share one file.
func TestFileStoreConcurrentOpen(t *testing.T) {
	st, err := sessionlog.NewFileStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			l, err := st.Open(ctx, "shared")
			if err != nil {
				errs <- err
				return
			}
			_, err = l.Append(ctx, message(i))
			if cerr := l.Close(); err == nil {
				err = cerr
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	l, err := st.Open(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if h, _ := l.Head(ctx); h.Seq != n {
		t.Fatalf("head %+v after %d concurrent appends through separate handles", h, n)
	}
}
