//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// requireGone fails unless process pid has ended: it no longer exists, or
// it is a zombie (killed, and not yet reaped by the parent it was left
// to). The wait only allows for that reaping.
func requireGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			// pid (comm) state ...: the state follows the last ')'.
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHostcheckTimesOut: a host that never finishes is killed at -timeout,
// with every process of its group, and the check fails saying so.
func TestHostcheckTimesOut(t *testing.T) {
	bin := buildCommand(t)
	cmd := exec.Command(bin, "hostcheck", "-json", "-timeout", "2s", "--", "sleep", "3600")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("hostcheck -timeout 2s -- sleep 3600: %v, want exit status 1", err)
	}
	var res hostcheckResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("hostcheck -json printed %q: %v", stdout.String(), err)
	}
	if len(res.Problems) == 0 || !strings.Contains(res.Problems[0], "did not finish within -timeout 2s") {
		t.Errorf("problems %q, want first that the host did not finish within -timeout 2s", res.Problems)
	}

	// A host whose child would outlive it: the child is killed too.
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	code, res, stderr := runHostcheckArgs(t, bin, []string{"CHILD_PID_FILE=" + pidFile}, "-timeout", "2s", "--",
		"sh", "-c", `sleep 3600 & echo $! > "$CHILD_PID_FILE"; wait`)
	if code != 1 || len(res.Problems) == 0 || !strings.Contains(res.Problems[0], "its process group were killed") {
		t.Fatalf("exit %d, problems %q, want 1 and the timeout\n%s", code, res.Problems, stderr)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	requireGone(t, pid)
}
