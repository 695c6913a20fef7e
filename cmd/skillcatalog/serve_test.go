//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve-mcp says at start which skills of the directory it will not serve
// and why (here a SKILL.md linked to /dev/zero), then the one line every
// command prints, and serves the others.
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
	want := "skillcatalog serve-mcp: skill zero is not served: SKILL.md is not a regular file but a device\n" +
		"skillcatalog serve-mcp: scanned 1 directory (" + dir + "): 1 skill served, 1 skipped (1 unreadable SKILL.md); the lines above say why\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), "serving skills over MCP at http://127.0.0.1:") {
		t.Errorf("stdout = %q", stdout.String())
	}
}

// serve-mcp says at start which skills exceed the MCP Skills extension's
// per-skill limits (512 files, 16 MiB) and are not served.
func TestServeMCPReportsSkillsOverTheLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good/SKILL.md", "---\nname: good\ndescription: Good.\n---\nBody.\n")
	write("team/many-files/SKILL.md", "---\nname: many-files\ndescription: Many files.\n---\nBody.\n")
	for i := range 512 {
		write(fmt.Sprintf("team/many-files/data/%03d.txt", i), "x\n")
	}
	write("large/SKILL.md", "---\nname: large\ndescription: Large.\n---\nBody.\n")
	for _, name := range []string{"a.bin", "b.bin", "c.bin"} {
		f, err := os.Create(filepath.Join(dir, "large", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(6 << 20); err != nil { // sparse: no disk used
			t.Fatal(err)
		}
		f.Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"serve-mcp", "-skills", dir, "-http", "127.0.0.1:0"}, &stdout, &stderr); code != 0 {
		t.Fatalf("serve-mcp exited %d: %s", code, stderr.String())
	}
	want := "skillcatalog serve-mcp: skill large is not served: its files hold 18874414 bytes, more than the MCP Skills extension's limit of 16777216 (16 MiB) per skill\n" +
		"skillcatalog serve-mcp: skill team/many-files is not served: it has more than 512 files, the MCP Skills extension's limit per skill\n" +
		"skillcatalog serve-mcp: scanned 1 directory (" + dir + "): 1 skill served, 2 skipped (2 over the extension's size limits); the lines above say why\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}
