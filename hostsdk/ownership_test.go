package hostsdk_test

import (
	"context"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestTheRuntimesSourcesStayItsOwn: a memory store keeps the slices it is
// handed, so the host copies the sources the runtime passes in (a proposed
// message, an appended one, a compaction summary): the runtime changing
// its slices afterwards does not rewrite the session's history.
func TestTheRuntimesSourcesStayItsOwn(t *testing.T) {
	ctx := context.Background()
	store := sessionlog.NewMemoryStore()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg := skilltest.NewRegistry(t)
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "First.", Content: "Alpha."}); err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	proposed, appended, summary := []byte(`{"kind":"a"}`), []byte(`{"kind":"b"}`), []byte(`{"kind":"c"}`)
	if _, err := host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{
		Messages: []hostsdk.Message{{ID: "u1", Role: hostsdk.RoleUser, Source: proposed}}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := host.Session("s1", nil).Append(ctx, hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Source: appended}); err != nil {
		t.Fatal(err)
	}
	if _, err := host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: 1},
		Summary: &hostsdk.Message{ID: "c1", Role: hostsdk.RoleSystem, Source: summary}}); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{proposed, appended, summary} {
		copy(b, `{"KIND"`)
	}
	log := openLogT(t, store, "s1")
	page, err := log.ReadBackward(ctx, 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64]string{1: `{"kind":"a"}`, 3: `{"kind":"b"}`, 4: `{"kind":"c"}`}
	for _, ev := range page.Events {
		if w, ok := want[ev.Seq]; ok && string(ev.Source) != w {
			t.Errorf("event %d: source %s, want %s", ev.Seq, ev.Source, w)
		}
	}
	if len(page.Events) != 4 {
		t.Errorf("%d events, want 4 (the proposal, the catalog, the reply, the compaction)", len(page.Events))
	}
}

// openLogT opens a session's log for the test's lifetime.
func openLogT(t *testing.T, store sessionlog.Store, session string) sessionlog.Log {
	t.Helper()
	l, err := store.Open(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}
