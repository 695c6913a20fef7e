package contracttest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

// brokenEnv names the broken service TestBrokenService runs the kit
// against, in a child process.
const brokenEnv = "CONTRACTTEST_BROKEN_SERVICE"

// unmarked reports the host's failures as its own: the mark is lost.
type unmarked struct{ *plugin.Core }

func strip(err error) error {
	switch {
	case err == nil || !errors.Is(err, contract.ErrHostFailed):
		return err
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s: %w", err, context.Canceled)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", err, context.DeadlineExceeded)
	}
	return errors.New(err.Error())
}

func (u unmarked) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	resp, err := u.Core.PreStep(ctx, req)
	return resp, strip(err)
}

func (u unmarked) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	res, err := u.Core.ExecuteSkillTool(ctx, call)
	return res, strip(err)
}

// chatty ignores a step's hints, so every step calls the host back.
type chatty struct{ *plugin.Core }

func (c chatty) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	req.Head, req.Recent, req.SnapshotToken = nil, nil, ""
	return c.Core.PreStep(ctx, req)
}

// unheeding says it takes snapshots computed ahead of a step, and calls
// back anyway.
type unheeding struct{ *plugin.Core }

func (u unheeding) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	req.Snapshot = nil
	return u.Core.PreStep(ctx, req)
}

// immortal never forgets a mount.
type immortal struct{ *plugin.Core }

func (immortal) Unmount(context.Context, string) error { return nil }

// silent answers every step without its reasons.
type silent struct{ *plugin.Core }

func (s silent) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	resp, err := s.Core.PreStep(ctx, req)
	resp.Reasons = nil
	return resp, err
}

// brokenServices are services the kit must fail, with the subtests that
// must catch each.
func brokenServices() map[string]struct {
	service  func() contract.Service
	catchers []string
} {
	return map[string]struct {
		service  func() contract.Service
		catchers []string
	}{
		"unmarked":  {func() contract.Service { return unmarked{plugin.New(nil)} }, []string{"HostFailures", "Deadline"}},
		"chatty":    {func() contract.Service { return chatty{plugin.New(nil)} }, []string{"OneRoundTrip"}},
		"immortal":  {func() contract.Service { return immortal{plugin.New(nil)} }, []string{"Mounts"}},
		"silent":    {func() contract.Service { return silent{plugin.New(nil)} }, []string{"Reasons"}},
		"unheeding": {func() contract.Service { return unheeding{plugin.New(nil)} }, []string{"StepSnapshot"}},
	}
}

// TestBrokenService runs the kit against the broken service named by
// brokenEnv. It is meant to fail; TestKitCatchesBrokenServices runs it in a
// child process.
func TestBrokenService(t *testing.T) {
	name := os.Getenv(brokenEnv)
	if name == "" {
		t.Skip("run by TestKitCatchesBrokenServices")
	}
	b := brokenServices()[name]
	contracttest.RunService(t, func(*testing.T) contract.Service { return b.service() })
}

// TestKitCatchesBrokenServices: the kit fails each broken service, in the
// subtests that check what it breaks and in no other.
func TestKitCatchesBrokenServices(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process per broken service")
	}
	subtests := []string{"Configure", "Mounts", "Catalog", "Visibility", "Incomplete", "Reasons", "SkillTool", "OneRoundTrip",
		"StepSnapshot", "HostFailures", "Cancellation", "Deadline", "Resources", "EndSessionAndPing", "Concurrent"}
	for name, b := range brokenServices() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestBrokenService$", "-test.v")
			cmd.Env = append(os.Environ(), brokenEnv+"="+name)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the kit passed (or did not run: %v) a service it must fail:\n%s", err, out)
			}
			for _, sub := range subtests {
				failed := strings.Contains(string(out), "--- FAIL: TestBrokenService/"+sub+" ")
				passed := strings.Contains(string(out), "--- PASS: TestBrokenService/"+sub+" ")
				if want := slices.Contains(b.catchers, sub); failed != want || passed == want {
					t.Errorf("subtest %s failed: %v, want %v; output:\n%s", sub, failed, want, out)
				}
			}
		})
	}
}
