//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve-mcp says at start which skills of the directory it will not serve
// and why (here a SKILL.md linked to /dev/zero), and serves the others.
func TestServeMCPReportsSkillsLeftOff(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"good", "zero"} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "good", "SKILL.md"), []byte("---\nname: good\ndescription: Good.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	// Already cancelled: the server stops as soon as it has started.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"serve-mcp", "-skills", dir, "-http", "127.0.0.1:0"}, &stdout, &stderr); code != 0 {
		t.Fatalf("serve-mcp exited %d: %s", code, stderr.String())
	}
	want := "skillcatalog serve-mcp: skill zero is not served: SKILL.md is not a regular file but a device\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), "serving skills over MCP at http://127.0.0.1:") {
		t.Errorf("stdout = %q", stdout.String())
	}
}
