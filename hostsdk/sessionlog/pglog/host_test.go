package pglog

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// newHost is a host on store with n runtime skills, each replica-to-be
// registering the same ones, and the real plugin mounted globally.
func newHost(tb testing.TB, store sessionlog.Store, n int) (*hostsdk.Host, *skills.Registry, *hostsdk.Plugin) {
	tb.Helper()
	ctx := context.Background()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		tb.Fatal(err)
	}
	reg := skilltest.NewRegistry(tb)
	for i := range n {
		registerSkill(tb, reg, i)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = host.Close() })
	p, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		tb.Fatal(err)
	}
	return host, reg, p
}

func registerSkill(tb testing.TB, reg *skills.Registry, i int) {
	tb.Helper()
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
		Name:        fmt.Sprintf("skill-%05d", i),
		Description: fmt.Sprintf("Handles task family %d: reads the inputs, checks them against the house rules and writes a short report.", i),
		Content:     "Instructions.",
	}); err != nil {
		tb.Fatal(err)
	}
}

// TestHostsShareSessions runs two hosts, each with its own plugin process
// and its own store (pool) on one schema, stepping one session in turn:
// what one publishes the other reads from the database, so each catalog
// is published once.
func TestHostsShareSessions(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	a, regA, _ := newHost(t, openStore(t, dsn, schema), 3)
	b, regB, _ := newHost(t, openStore(t, dsn, schema), 3)
	ctx := context.Background()
	shared := &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}

	for i, c := range []struct {
		host     *hostsdk.Host
		name     string
		change   bool
		outcome  hostsdk.Outcome
		appended int
	}{
		{a, "A", false, hostsdk.OutcomeInitial, 1},
		{b, "B", false, hostsdk.OutcomeUnchanged, 0},
		{a, "A", false, hostsdk.OutcomeUnchanged, 0},
		{b, "B", true, hostsdk.OutcomeReplacement, 1},
		{a, "A", false, hostsdk.OutcomeUnchanged, 0},
		{b, "B", false, hostsdk.OutcomeUnchanged, 0},
	} {
		if c.change { // the replicas' skills change alike
			registerSkill(t, regA, 100+i)
			registerSkill(t, regB, 100+i)
		}
		res, err := c.host.Session("shared", shared).Step(ctx, hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatalf("step %d on host %s: %v", i+1, c.name, err)
		}
		if res.Outcome != c.outcome || len(res.Appended) != c.appended {
			t.Fatalf("step %d on host %s: outcome %s, appended %v; want %s and %d appended", i+1, c.name, res.Outcome, res.Appended, c.outcome, c.appended)
		}
	}

	s := openStore(t, dsn, schema)
	l, err := s.Open(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.ReadBackward(ctx, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != 2 {
		t.Fatalf("the session holds %d events, want the initial catalog and its replacement", len(p.Events))
	}
	for _, e := range p.Events {
		if !strings.Contains(string(e.Source), `"kind":"skill-catalog"`) {
			t.Errorf("event %d has source %s, want a catalog record", e.Seq, e.Source)
		}
	}
}
