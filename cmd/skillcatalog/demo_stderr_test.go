package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestDemoPassesTheMCPCommandsStderrThrough: what the -mcp-command server
// writes to its stderr reaches the demo's stderr, each line prefixed.
func TestDemoPassesTheMCPCommandsStderrThrough(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the server is a shell script")
	}
	server := filepath.Join(t.TempDir(), "server")
	if err := os.WriteFile(server, []byte("#!/bin/sh\necho 'cannot open skills dir' >&2\nprintf 'second line\\n' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"demo", "-mcp-command", server}, &stdout, &stderr)
	for _, want := range []string{"mcp-command: cannot open skills dir\n", "mcp-command: second line\n"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the demo's stderr has no %q:\n%s", want, stderr.String())
		}
	}
}

func TestPrefixWriterPrefixesEveryLine(t *testing.T) {
	var out bytes.Buffer
	w := &prefixWriter{w: &out, prefix: "> "}
	for _, s := range []string{"a\nb", "c\n", "\nd\n"} {
		if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := out.String(), "> a\n> bc\n> \n> d\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
