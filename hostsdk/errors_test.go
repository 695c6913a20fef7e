package hostsdk_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// TestCallerDeadlineIsTheCallersError: a step whose caller's deadline
// passes while a provider hangs fails with an error that satisfies
// errors.Is(err, context.DeadlineExceeded) and blames neither side.
func TestCallerDeadlineIsTheCallersError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.reg.AddProvider(tools.GlobalScope, newBlockingProvider(), nil)
	e.mount(tools.GlobalScope)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
	var perr *hostsdk.PluginError
	var herr *hostsdk.HostError
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &perr) || errors.As(err, &herr) {
		t.Fatalf("PreStep past the caller's deadline: %v (%T); want the caller's context.DeadlineExceeded", err, err)
	}
	if res.Outcome != hostsdk.OutcomePluginError {
		t.Errorf("outcome %s, want %s (the step proceeds without the plugin)", res.Outcome, hostsdk.OutcomePluginError)
	}
}

// TestSlowProviderIsAHostError: a provider still working when the host's
// own step deadline passes is the host's side; the plugin keeps running.
func TestSlowProviderIsAHostError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{PreStepTimeout: 300 * time.Millisecond})
	e.reg.AddProvider(tools.GlobalScope, newBlockingProvider(), nil)
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	_, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
	var herr *hostsdk.HostError
	var perr *hostsdk.PluginError
	if !errors.As(err, &herr) || errors.As(err, &perr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("PreStep with a provider past the deadline: %v (%T); want a HostError wrapping context.DeadlineExceeded", err, err)
	}
	if got := e.plugin.PID(); got != pid {
		t.Errorf("a slow provider replaced the plugin process (pid %d → %d)", pid, got)
	}
}

// TestFailedLoadLeavesNoPanic: the nil *Plugin of a failed Load answers
// every method with an error (or its zero value), never a nil-pointer panic.
func TestFailedLoadLeavesNoPanic(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	p, err := e.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: "/nonexistent/skillcatalog-plugin"}})
	if err == nil {
		t.Fatal("Load of a missing binary succeeded")
	}
	if p != nil {
		t.Fatalf("failed Load returned a plugin %v", p)
	}
	m, err := p.Mount(context.Background(), tools.GlobalScope, nil)
	if !errors.Is(err, hostsdk.ErrNotLoaded) || m != nil {
		t.Fatalf("Mount on a failed Load = %v, %v; want ErrNotLoaded", m, err)
	}
	if err := p.Ping(context.Background()); !errors.Is(err, hostsdk.ErrNotLoaded) {
		t.Errorf("Ping on a failed Load: %v, want ErrNotLoaded", err)
	}
	if pid := p.PID(); pid != 0 {
		t.Errorf("PID on a failed Load = %d", pid)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close on a failed Load: %v", err)
	}
	if err := m.Unmount(context.Background()); !errors.Is(err, hostsdk.ErrNotLoaded) {
		t.Errorf("Unmount on a failed Mount: %v, want ErrNotLoaded", err)
	}
	if m.Scope() != "" || m.ToolIdentity("skill") != "" {
		t.Errorf("a failed Mount reports scope %q, identity %q", m.Scope(), m.ToolIdentity("skill"))
	}
}
