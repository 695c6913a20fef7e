package sessionlog_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// holderEnv, when set, makes the test binary act as the process that
// TestOpenFileLockedByAnotherProcess locks out: it opens the log named by the
// variable and holds it until its standard input closes.
const holderEnv = "SESSIONLOG_TEST_LOCK_HOLDER"

func runHolder(path string) error {
	l, _, err := sessionlog.OpenFile(path)
	if err != nil {
		return err
	}
	if _, err := fmt.Println("open"); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	return l.Close()
}

// startHolder starts a holder of path and returns once it has the log open,
// with the pipe that makes it close the log and exit.
func startHolder(t *testing.T, path string) (*exec.Cmd, io.WriteCloser, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), holderEnv+"="+path)
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "open\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("holder did not open the log (%q, %v): %s", line, err, stderr.String())
	}
	return cmd, stdin, &stderr
}

// TestOpenFileLockedByAnotherProcess: another process's open log is
// ErrLocked, and the log opens again once that process closes it or dies.
func TestOpenFileLockedByAnotherProcess(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(cmd *exec.Cmd, stdin io.WriteCloser) error
	}{
		{"closed", func(_ *exec.Cmd, stdin io.WriteCloser) error { return stdin.Close() }},
		{"killed", func(cmd *exec.Cmd, _ io.WriteCloser) error { return cmd.Process.Kill() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			cmd, stdin, stderr := startHolder(t, path)
			if _, _, err := sessionlog.OpenFile(path); !errors.Is(err, sessionlog.ErrLocked) {
				t.Fatalf("OpenFile while another process holds the log: error %v, want ErrLocked", err)
			}
			if err := tc.end(cmd, stdin); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if tc.name == "closed" && err != nil {
				t.Fatalf("holder failed: %v: %s", err, stderr.String())
			}
			l, _ := mustOpen(t, path)
			mustAppend(t, l, message(1))
		})
	}
}

// TestCloseRemovesLockFile: a closed log leaves only its own file, even when
// the lock file was left behind by a holder that died.
func TestCloseRemovesLockFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path+".lock", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l, _ := mustOpen(t, path)
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Fatalf("no lock file while the log is open: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "s.jsonl" {
		t.Fatalf("directory after Close holds %v, want only s.jsonl", entries)
	}
}
