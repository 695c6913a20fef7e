package hostsdk_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/metadata"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// TestOversizedMetadataIsTheHostsError: a step whose context carries more
// gRPC metadata than the plugin accepts (64 KiB, as gRPC counts a header
// list) is not sent, and fails with a *HostError naming the bound, not a
// *PluginError: the plugin never saw the call, keeps running and answers
// the next step.
func TestOversizedMetadataIsTheHostsError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "Does alpha.")
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-runtime-context", strings.Repeat("v", 100<<10))
	res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
	var herr *hostsdk.HostError
	var perr *hostsdk.PluginError
	if !errors.As(err, &herr) || errors.As(err, &perr) || !strings.Contains(err.Error(), "65536 bytes") || !strings.Contains(err.Error(), "metadata") {
		t.Fatalf("a step with 100 KiB of metadata: %v (%T); want a *HostError naming the metadata bound of 65536 bytes", err, err)
	}
	if res.Outcome != hostsdk.OutcomePluginError {
		t.Errorf("outcome %s, want %s (the step proceeds without the plugin)", res.Outcome, hostsdk.OutcomePluginError)
	}
	if got := e.plugin.PID(); got != pid {
		t.Errorf("the host's oversized metadata replaced the plugin process (pid %d → %d)", pid, got)
	}
	e.step("s1", "agent:a")
}
