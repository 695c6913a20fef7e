package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Run by hand (no handshake cookie), the binary explains itself and exits 1
// instead of serving.
func TestRunByHandExplainsAndFails(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "skillcatalog-plugin")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = os.Environ()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("run by hand: err = %v, want exit status 1", err)
	}
	if !strings.Contains(stderr.String(), "go-plugin handshake") || !strings.Contains(stderr.String(), "skillcatalog conform --plugin") {
		t.Errorf("usage text = %q", stderr.String())
	}
}
