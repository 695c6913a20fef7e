package pluginserver_test

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/pluginserver"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

func TestMain(m *testing.M) {
	// Re-executed by the test below as its own plugin.
	pluginserver.ServeIfRequested()
	os.Exit(m.Run())
}

// TestHostBinaryServesAsItsOwnPlugin loads the running test binary as the
// plugin: ServeIfRequested makes it serve, and a step publishes the
// catalog.
func TestHostBinaryServesAsItsOwnPlugin(t *testing.T) {
	if pluginserver.Requested() {
		t.Fatal("a test process that no host started reports being requested as a plugin")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tree := tools.NewTree()
	reg := skilltest.NewRegistry(t)
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "First skill.", Content: "Body."}); err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	ctx := context.Background()
	p, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: exe}})
	if err != nil {
		t.Fatal(err)
	}
	if p.PID() == 0 || p.PID() == os.Getpid() {
		t.Fatalf("plugin pid %d: want a separate process (this one is %d)", p.PID(), os.Getpid())
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	res, err := host.Session("s1", &hostsdk.SessionOptions{AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{}, nil)
	if err != nil || res.Outcome != hostsdk.OutcomeInitial {
		t.Fatalf("step through the self-served plugin = %s, %v; want %s", res.Outcome, err, hostsdk.OutcomeInitial)
	}
}
