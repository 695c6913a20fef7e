package hostsdk

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestRecentEventsSendThePluginsOwnSourcesByDigest: after a step that
// published a catalog of several KiB, the next step sends that event by
// its source's digest and every other event (the runtime's, small ones)
// by its source.
func TestRecentEventsSendThePluginsOwnSourcesByDigest(t *testing.T) {
	ctx := context.Background()
	reg := skilltest.NewRegistry(t)
	for i := range 40 {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: fmt.Sprintf("skill-%02d", i), Description: strings.Repeat("d", 80), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	store := sessionlog.NewMemoryStore()
	h, err := New(&Options{Tools: tools.NewTree(), Skills: reg, Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	p, err := h.Load(ctx, &LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Mount(ctx, tools.GlobalScope, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !m.acceptsSourceDigests() {
		t.Fatal("the engine does not say it accepts source digests")
	}
	user := Message{ID: "u1", Role: RoleUser, Source: []byte(`{"kind":"runtime-note","pad":"` + strings.Repeat("p", 2000) + `"}`), Content: []ContentBlock{TextBlock("hi")}}
	res, err := h.Session("s1", &SessionOptions{Cwd: "/w"}).Step(ctx, Decision{Messages: []Message{user}}, nil)
	if err != nil || res.Outcome != OutcomeInitial || len(res.Appended) != 2 {
		t.Fatalf("step 1: %s, %v, appended %v", res.Outcome, err, res.Appended)
	}
	log, err := h.sessionLog(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	// A plugin that does not accept digests gets every source as it is.
	st := h.sessions.get("s1")
	run := &stepRun{h: h, s: st, step: Step{SessionID: "s1"}, callerCtx: ctx, ctx: ctx, log: log}
	sent, _ := st.sentHead()
	_, plain, err := run.sessionHead(false)
	if err != nil {
		t.Fatal(err)
	}
	if plain == nil || len(plain.Events) != 2 || plain.Events[0].SourceDigest != nil || !bytes.Equal(plain.Events[0].Source, res.Decision.Messages[1].Source) {
		t.Fatalf("without digests: %+v, want both events with their sources", plain)
	}
	st.setSentHead(sent)
	head, recent, err := run.sessionHead(true)
	if err != nil {
		t.Fatal(err)
	}
	if head == nil || recent == nil || len(recent.Events) != 2 {
		t.Fatalf("head %v, recent %+v: want both events of step 1 inlined", head, recent)
	}
	catalog, runtime := recent.Events[0], recent.Events[1] // newest first
	if catalog.Source != nil || !bytes.Equal(catalog.SourceDigest, contract.SourceDigestOf(res.Decision.Messages[1].Source)) {
		t.Errorf("the plugin's catalog went as %d source bytes and digest %x, want its digest alone", len(catalog.Source), catalog.SourceDigest)
	}
	if !bytes.Equal(runtime.Source, user.Source) || runtime.SourceDigest != nil {
		t.Errorf("the runtime's own source went as %d bytes and digest %x, want its bytes", len(runtime.Source), runtime.SourceDigest)
	}
}
