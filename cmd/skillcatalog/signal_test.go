//go:build unix

package main

import (
	"bufio"
	"errors"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitExit waits for cmd and fails unless it exits with status 0. The
// bound only keeps a hung server from hanging the test run.
func waitExit(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve-mcp after SIGTERM: %v, want exit status 0", err)
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("serve-mcp did not exit after SIGTERM")
	}
}

// SIGTERM stops serve-mcp gracefully, over HTTP and over stdio.
func TestServeMCPStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCommand(t)

	t.Run("http", func(t *testing.T) {
		cmd := exec.Command(bin, "serve-mcp", "-skills", filepath.Join("..", "..", "testdata", "skills"), "-http", "127.0.0.1:0")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			_ = cmd.Process.Kill()
			t.Fatalf("reading the address: %v", err)
		}
		url, ok := strings.CutPrefix(strings.TrimSpace(line), "serving skills over MCP at ")
		if !ok {
			_ = cmd.Process.Kill()
			t.Fatalf("first line = %q", line)
		}
		// The server answers before the signal...
		resp, err := http.Get(url)
		if err != nil {
			_ = cmd.Process.Kill()
			t.Fatalf("GET %s: %v", url, err)
		}
		resp.Body.Close()
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		waitExit(t, cmd)
		// ...and its port is closed after it.
		if _, err := http.Get(url); err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("GET %s after shutdown: %v, want connection refused", url, err)
		}
	})

	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(bin, "serve-mcp")
		stdin, err := cmd.StdinPipe() // held open: only the signal can end it
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// An answered initialize request shows the server is serving, so
		// its signal handler is in place.
		const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}` + "\n"
		if _, err := stdin.Write([]byte(initialize)); err != nil {
			_ = cmd.Process.Kill()
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"result"`) {
			_ = cmd.Process.Kill()
			t.Fatalf("initialize answer = %q, %v", line, err)
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		waitExit(t, cmd)
	})
}
