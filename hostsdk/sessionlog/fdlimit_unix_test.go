//go:build unix

package sessionlog_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// manyEnv, when set, makes the test binary the child of
// TestFileStoreManySessionsUnderALowDescriptorLimit: it keeps many sessions
// open in the directory the variable names, under manyLimit descriptors.
const manyEnv = "SESSIONLOG_TEST_MANY_SESSIONS"

const (
	manyLimit    = 256
	manySessions = 2000
	manyRounds   = 3
)

func manyRecord(session, round int) sessionlog.Record {
	return sessionlog.Record{Type: "message", Body: []byte(fmt.Sprintf(`{"session":%d,"round":%d}`, session, round))}
}

// runManySessions lowers the descriptor limit, then opens manySessions
// sessions of one FileStore, keeps every handle open as a host does until
// a session ends, and appends to them in interleaved rounds (conditional
// appends, reads between them), then checks every session's events.
func runManySessions(dir string) error {
	lim := syscall.Rlimit{Cur: manyLimit, Max: manyLimit}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("setrlimit: %w", err)
	}
	ctx := context.Background()
	st, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		return err
	}
	logs := make([]sessionlog.Log, manySessions)
	for i := range logs {
		if logs[i], err = st.Open(ctx, "session-"+strconv.Itoa(i)); err != nil {
			return fmt.Errorf("open session %d of %d: %w", i+1, manySessions, err)
		}
	}
	for r := range manyRounds {
		for i, l := range logs {
			head, err := l.Head(ctx)
			if err != nil {
				return fmt.Errorf("round %d, session %d: head: %w", r, i, err)
			}
			if _, err := l.AppendIf(ctx, head.Seq, manyRecord(i, r)); err != nil {
				return fmt.Errorf("round %d, session %d: append: %w", r, i, err)
			}
		}
	}
	for i, l := range logs {
		p, err := l.ReadBackward(ctx, 0, 0, 10)
		if err != nil {
			return fmt.Errorf("session %d: read: %w", i, err)
		}
		if p.Head.Seq != manyRounds || len(p.Events) != manyRounds {
			return fmt.Errorf("session %d: head %+v, %d events; want %d", i, p.Head, len(p.Events), manyRounds)
		}
		for k, ev := range p.Events {
			if want := manyRecord(i, manyRounds-1-k).Body; string(ev.Body) != string(want) {
				return fmt.Errorf("session %d: event %d is %s, want %s", i, ev.Seq, ev.Body, want)
			}
		}
	}
	for i, l := range logs {
		if err := l.Close(); err != nil {
			return fmt.Errorf("close session %d: %w", i, err)
		}
	}
	return nil
}

// TestFileStoreManySessionsUnderALowDescriptorLimit keeps 2,000 sessions
// open in a process allowed 256 descriptors: the store closes idle
// sessions' files and reopens them on demand, so every step succeeds and
// every session's events are intact.
func TestFileStoreManySessionsUnderALowDescriptorLimit(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := memoryDir(t)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), manyEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%d sessions under a limit of %d descriptors: %v\n%s", manySessions, manyLimit, err, strings.TrimSpace(string(out)))
	}
	// What the child wrote is on disk, readable by a new store.
	st, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, manySessions / 2, manySessions - 1} {
		l, err := st.Open(context.Background(), "session-"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		if h, _ := l.Head(context.Background()); h.Seq != manyRounds {
			t.Errorf("session %d: head %d on disk, want %d", i, h.Seq, manyRounds)
		}
		l.Close()
	}
}

// memoryDir is a temporary directory on a memory file system where the
// system has one (Linux's /dev/shm), else an ordinary one: the test is
// about descriptors, and its thousands of fsyncs would take half a minute
// on a disk.
func memoryDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		dir, err := os.MkdirTemp("/dev/shm", "sessionlog-test-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
