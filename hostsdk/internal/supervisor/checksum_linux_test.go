package supervisor

import (
	"crypto/sha256"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/swaptest"
)

// markerProgram records that it ran, by appending its name to the file
// $MARKER, and exits without the go-plugin handshake.
const markerProgram = `package main

import "os"

func main() {
	f, err := os.OpenFile(os.Getenv("MARKER"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		f.WriteString("good\n")
		f.Close()
	}
}
`

// buildMarker builds markerProgram into dir and returns its path.
func buildMarker(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(markerProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module marker\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "good")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the marker program: %v\n%s", err, out)
	}
	return bin
}

// TestChecksumHoldsWhileTheBinaryIsSwapped: a binary exchanged for another
// (renameat2 RENAME_EXCHANGE) while plugins are started with the first
// one's checksum never runs. Every start either runs the verified program
// or is refused with ErrChecksumMismatch, however the exchanges fall
// between reading the binary and executing it.
func TestChecksumHoldsWhileTheBinaryIsSwapped(t *testing.T) {
	dir := t.TempDir()
	good := buildMarker(t, dir)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho other >>\"$MARKER\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "marker")

	// A pause between exchanges leaves each start an even chance of finding
	// either binary at any moment.
	stop := swaptest.Exchange(t, good, other, 20*time.Microsecond)

	const loads = 150
	refused := 0
	for range loads {
		p, err := Start(Options{Path: good, Checksum: sum[:], Env: []string{"MARKER=" + marker}, Logger: slog.New(slog.DiscardHandler)})
		switch {
		case err == nil:
			p.Stop()
			t.Fatal("the marker program completed the plugin handshake")
		case errors.Is(err, ErrChecksumMismatch):
			refused++
		}
	}
	stop()

	out, err := os.ReadFile(marker)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	ran := strings.Fields(string(out))
	others, goods := 0, 0
	for _, r := range ran {
		if r == "good" {
			goods++
		} else {
			others++
		}
	}
	if others > 0 {
		t.Errorf("the binary whose checksum differs ran %d times in %d starts", others, loads)
	}
	if goods+refused != loads {
		t.Errorf("%d starts ran the verified program and %d were refused for the checksum; want %d in all", goods, refused, loads)
	}
	t.Logf("%d starts: %d ran the verified program, %d refused, %d ran the other binary", loads, goods, refused, others)
}

// TestStartRunsAVerifiedBinary: the plugin binary started with its own
// checksum runs and answers, and the verified copy it ran from is not left
// open in the host.
func TestStartRunsAVerifiedBinary(t *testing.T) {
	data, err := os.ReadFile(pluginPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	p, err := Start(Options{Path: pluginPath, Checksum: sum[:], Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("Start with the binary's checksum: %v", err)
	}
	if err := p.Ping(t.Context()); err != nil {
		t.Errorf("Ping: %v", err)
	}
	p.Stop()
	// The verified copy is a memory file; counting every descriptor would
	// also count the connections go-plugin closes on its own time.
	if open := verifiedCopies(t); len(open) > 0 {
		t.Errorf("the verified copy is still open after the plugin stopped: %v", open)
	}
}

// verifiedCopies lists the test process's descriptors open on a memory
// file of the verified binary's name.
func verifiedCopies(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var open []string
	for _, e := range entries {
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err == nil && strings.HasPrefix(target, "/memfd:skillcatalog-plugin") {
			open = append(open, e.Name()+" -> "+target)
		}
	}
	return open
}
