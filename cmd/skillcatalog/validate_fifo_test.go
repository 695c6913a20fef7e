//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifoSkills is a skills directory holding a valid skill and one whose
// SKILL.md is a FIFO nobody writes to.
func fifoSkills(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{"good", "piped"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "good", "SKILL.md"), []byte("---\nname: good\ndescription: Good.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "piped", "SKILL.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// waitOrKill waits for cmd; a command still running after the bound is
// killed and the test fails: the bound only keeps a hang from hanging the
// test run.
func waitOrKill(t *testing.T, cmd *exec.Cmd, what string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not exit", what)
		return nil
	}
}

// TestValidateSkipsAFIFO: validate reads SKILL.md through the provider's
// loader, which refuses anything but a regular file without opening a
// FIFO for reading: the command does not hang, and reports the skill as
// explain does, as one the provider does not load.
func TestValidateSkipsAFIFO(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	root := fifoSkills(t)
	cmd := exec.Command(buildCommand(t), "validate", "-json", root)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := waitOrKill(t, cmd, "validate of a FIFO named SKILL.md")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("validate: %v, want exit status 1\n%s", err, stderr.String())
	}
	var rep validateReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("output: %v\n%s", err, stdout.String())
	}
	got := map[string]validatedSkill{}
	for _, s := range rep.Skills {
		got[filepath.Base(s.Path)] = s
	}
	if g := got["good"]; len(rep.Skills) != 2 || !g.Valid || !g.Loads {
		t.Errorf("skills %+v, want good valid and piped reported", rep.Skills)
	}
	if p := got["piped"]; p.Valid || p.Loads || len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Message, "not a regular file") {
		t.Errorf("piped: %+v, want invalid, not loaded, because SKILL.md is not a regular file", p)
	}
}
