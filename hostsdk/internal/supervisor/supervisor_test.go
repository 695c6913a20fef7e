package supervisor

import (
	"context"
	"errors"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/plugintest"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

var pluginPath string

func TestMain(m *testing.M) { plugintest.Main(m, &pluginPath) }

func start(t *testing.T) *Process {
	t.Helper()
	p, err := Start(Options{Path: pluginPath, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

// TestPluginBinaryKeepsTheContract runs the contract's test kit against the
// real plugin binary, started as a host starts it: the engine in its own
// process, behind both gRPC adapters and go-plugin's broker.
func TestPluginBinaryKeepsTheContract(t *testing.T) {
	contracttest.RunService(t, func(t *testing.T) contract.Service { return start(t) })
}

// TestLost: a process that answers is not lost whatever a call's error; one
// that was killed is, and is then gone.
func TestLost(t *testing.T) {
	p := start(t)
	if p.PID() == 0 || p.Exited() {
		t.Fatalf("a started process: pid %d, exited %v", p.PID(), p.Exited())
	}
	for _, err := range []error{context.DeadlineExceeded, errors.New("an answer")} {
		if p.Lost(err) {
			t.Fatalf("a process that answers Ping was lost after %v", err)
		}
	}
	if err := syscall.Kill(p.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var err error
	for err == nil && time.Now().Before(deadline) {
		err = p.Ping(context.Background())
	}
	if err == nil || !p.Lost(err) {
		t.Fatalf("a killed process: ping %v, lost %v", err, p.Lost(err))
	}
	for !p.Exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !p.Exited() || p.PID() != 0 {
		t.Errorf("a lost process: exited %v, pid %d", p.Exited(), p.PID())
	}
}

func TestStartRefusesAWrongChecksum(t *testing.T) {
	_, err := Start(Options{Path: pluginPath, Checksum: make([]byte, 32), Logger: slog.New(slog.DiscardHandler)})
	if !errors.Is(err, ErrChecksumMismatch) {
		t.Fatalf("Start with a wrong checksum: %v, want ErrChecksumMismatch", err)
	}
}
