package sessionlog_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// childEnv, when set, makes the test binary act as the writer that
// TestKillMidAppend kills: it appends to the file named by the variable
// until it is killed.
const childEnv = "SESSIONLOG_TEST_KILL_CHILD"

func TestMain(m *testing.M) {
	for env, child := range childModes() {
		if path := os.Getenv(env); path != "" {
			if err := child(path); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// killRecord is the record stored at seq. It depends only on seq, so the
// parent can check any event whichever child wrote it, and it mixes what a
// session holds: compactions, invalid JSON sources, and large bodies whose
// writes are likely to be cut by the kill.
func killRecord(seq uint64) sessionlog.Record {
	if seq%7 == 0 {
		return sessionlog.Record{
			Type: "compaction",
			Body: []byte(fmt.Sprintf(`{"summary":"compaction at %d"}`, seq)),
			Hide: &sessionlog.Range{From: seq - 5, To: seq - 3},
		}
	}
	source := []byte(fmt.Sprintf(`{"kind":"test","seq":%d}`, seq))
	if seq%5 == 0 {
		source = []byte(fmt.Sprintf("not json %d\n", seq))
	}
	pad := 16
	if seq%4 == 0 {
		pad = 32<<10 + int(seq*7919)%(64<<10)
	}
	return sessionlog.Record{
		Type:   "message",
		Source: source,
		Body:   []byte(fmt.Sprintf(`{"seq":%d,"pad":%q}`, seq, strings.Repeat("p", pad))),
	}
}

// batchLen is how many records the child appends in the call whose first
// record is seq.
func batchLen(seq uint64) uint64 { return 1 + seq%3 }

// bigBatch reports whether the call starting at seq writes a large record.
func bigBatch(seq uint64) bool {
	for s := seq; s < seq+batchLen(seq); s++ {
		if s%4 == 0 {
			return true
		}
	}
	return false
}

// runChild appends batches of one to three records and prints each
// acknowledged head seq once Append has returned.
func runChild(path string) error {
	l, _, err := sessionlog.OpenFile(path)
	if err != nil {
		return err
	}
	h, err := l.Head(ctx)
	if err != nil {
		return err
	}
	for next := h.Seq + 1; next < h.Seq+100000; {
		n := batchLen(next)
		recs := make([]sessionlog.Record, 0, n)
		for i := range n {
			recs = append(recs, killRecord(next+i))
		}
		h, err := l.Append(ctx, recs...)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(os.Stdout, "%d\n", h.Seq); err != nil {
			return err
		}
		next = h.Seq + 1
	}
	return errors.New("child was never killed")
}

// TestKillMidAppend repeatedly kills (SIGKILL) a child process in the middle
// of appending, reopens the file, and checks that every acknowledged event
// is there with its exact content and that the log is well-formed.
func TestKillMidAppend(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "killed.jsonl")
	const rounds = 24
	var acked, verified uint64
	var stats sessionlog.Recovery
	repaired := 0
	for round := range rounds {
		var stderr bytes.Buffer
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killAfter := 1 + (round*7)%12
		sc := bufio.NewScanner(out)
		n, killed := 0, false
		for sc.Scan() {
			seq, err := strconv.ParseUint(sc.Text(), 10, 64)
			if err != nil || seq <= acked {
				_ = cmd.Process.Kill()
				t.Fatalf("round %d: bad acknowledgement %q after %d", round, sc.Text(), acked)
			}
			acked = seq
			n++
			if n == killAfter || n > killAfter && !killed {
				if round%2 == 0 {
					// Vary where in the next append the kill lands.
					time.Sleep(time.Duration(round%6) * 150 * time.Microsecond)
				} else if bigBatch(acked + 1) {
					// Aim for the middle of a large write: kill as soon as
					// the file starts to grow.
					waitForGrowth(t, path)
				} else {
					continue
				}
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
			// Acknowledgements already printed when the kill lands still
			// count: keep reading until the pipe closes.
		}
		if err := cmd.Wait(); n < killAfter || err == nil {
			t.Fatalf("round %d: child exited on its own after %d acknowledgements (%v): %s", round, n, err, stderr.String())
		}

		rec := verifyKilledLog(t, path, acked, verified)
		verified = acked
		stats.TornTailBytes += rec.TornTailBytes
		stats.IncompleteAppendLines += rec.IncompleteAppendLines
		if rec.Repaired() {
			repaired++
		}
	}
	t.Logf("%d rounds, %d events acknowledged; %d rounds repaired a torn tail (%d bytes, %d incomplete-append lines dropped)",
		rounds, acked, repaired, stats.TornTailBytes, stats.IncompleteAppendLines)
	// Each round checked the events after the previous round's
	// acknowledgements; finally check the whole log once more.
	verifyKilledLog(t, path, acked, 0)
}

// waitForGrowth returns once the file is larger than when it was called,
// or after a bounded number of looks.
func waitForGrowth(t *testing.T, path string) {
	start := fileSize(t, path)
	for range 1_000_000 {
		if fileSize(t, path) > start {
			return
		}
	}
}

// verifyKilledLog reopens the log after a kill and checks it: the head, the
// surface revision, the file's shape, and the content and visibility of
// every event after seq from.
func verifyKilledLog(t *testing.T, path string, acked, from uint64) sessionlog.Recovery {
	t.Helper()
	l, rec, err := sessionlog.OpenFile(path)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer l.Close()
	if rec.UnparsedLines != 0 {
		t.Fatalf("reopen after kill: %d unparseable lines", rec.UnparsedLines)
	}
	h, err := l.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h.Seq < acked {
		t.Fatalf("head %d after kill, but %d was acknowledged", h.Seq, acked)
	}
	var hides []sessionlog.Range
	for seq := uint64(1); seq <= h.Seq; seq++ {
		if r := killRecord(seq); r.Hide != nil {
			hides = append(hides, *r.Hide)
		}
	}
	if h.SurfaceRevision != uint64(len(hides)) {
		t.Fatalf("SurfaceRevision %d, want %d", h.SurfaceRevision, len(hides))
	}
	// Read the whole log back in pages and compare every event.
	next, before := h.Seq, uint64(0)
	for {
		p, err := l.ReadBackward(ctx, before, from, 64)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Events {
			want := killRecord(next)
			visible := true
			for _, r := range hides {
				if r.From <= next && next <= r.To {
					visible = false
				}
			}
			if e.Seq != next || e.Type != want.Type || !bytes.Equal(e.Source, want.Source) || !bytes.Equal(e.Body, want.Body) || e.Raw != nil || e.Visible != visible {
				t.Fatalf("after kill, event %d differs: got seq %d type %q visible %v raw %q", next, e.Seq, e.Type, e.Visible, e.Raw)
			}
			next--
		}
		if !p.More {
			break
		}
		before = p.Events[len(p.Events)-1].Seq
	}
	if next != from {
		t.Fatalf("events %d..%d missing", from+1, next)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Fatal("file does not end with a complete line after reopen")
	}
	if c := bytes.Count(data, []byte("\n")); uint64(c) != h.Seq {
		t.Fatalf("file has %d lines, head is %d", c, h.Seq)
	}
	return rec
}
