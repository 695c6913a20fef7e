package hostsdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/golden"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// Golden files of TestPublishedCatalogBytes.
const (
	catalogEventsGolden = "testdata/sessionlog/published-catalog-events.golden"
	catalogFileGolden   = "testdata/sessionlog/published-catalog.jsonl"
)

// TestPublishedCatalogBytes pins what a session's log holds, byte for
// byte, after a session that publishes the initial catalog, a
// replacement and the tombstone, with a runtime's messages around them
// (a proposed user message with a source, a reply appended between
// steps, a compaction summary): the events read back from every store,
// in both hosting modes, and the file store's file itself. Descriptions
// carry what JSON escapes (quotes, <, >, &, a line separator, non-ASCII).
func TestPublishedCatalogBytes(t *testing.T) {
	type storeCase struct {
		name string
		open func(t *testing.T) (sessionlog.Store, func() []byte)
	}
	stores := []storeCase{
		{"memory", func(*testing.T) (sessionlog.Store, func() []byte) { return sessionlog.NewMemoryStore(), nil }},
		{"file", func(t *testing.T) (sessionlog.Store, func() []byte) {
			s, err := sessionlog.NewFileStore(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			return s, func() []byte {
				b, err := os.ReadFile(s.Path("s1"))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}},
		{"postgres", func(t *testing.T) (sessionlog.Store, func() []byte) {
			s, _, _ := postgresStore(t, "catalogbytes")
			return s, nil
		}},
	}
	for _, mode := range []benchMode{
		{"process", &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}},
		{"in-process", &hostsdk.LoadOptions{InProcess: true}},
	} {
		for _, sc := range stores {
			t.Run(mode.name+"/"+sc.name, func(t *testing.T) {
				store, file := sc.open(t)
				events := publishedCatalogSession(t, mode.opts, store)
				golden.Check(t, catalogEventsGolden, events)
				if file != nil {
					golden.Check(t, catalogFileGolden, file())
				}
			})
		}
	}
}

// publishedCatalogSession runs the session of TestPublishedCatalogBytes on
// store and returns its events, oldest first, one block each.
func publishedCatalogSession(t *testing.T, opts *hostsdk.LoadOptions, store sessionlog.Store) []byte {
	t.Helper()
	ctx := context.Background()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg := skilltest.NewRegistry(t)
	register := func(name, desc string) {
		t.Helper()
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: name, Description: desc, Content: "Body of " + name + "."}); err != nil {
			t.Fatal(err)
		}
	}
	register("pdf-forms", "Fills <form> fields & checks \"quotes\" in PDFs; naïve café\u2028second line.")
	register("data-export", "Exports tables as CSV \\ TSV, 100% <= spec & more.")
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	step := func(want hostsdk.Outcome, proposed ...hostsdk.Message) {
		t.Helper()
		res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{Messages: proposed}, nil)
		if err != nil || res.Outcome != want {
			t.Fatalf("step: outcome %s, err %v; want %s", res.Outcome, err, want)
		}
	}
	step(hostsdk.OutcomeInitial, hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, UserInput: true,
		Content: []hostsdk.ContentBlock{{Type: "text", Text: "Fill <this> & \"that\"\n"}}, Source: []byte(`{"kind":"user-input","n":1}`)})
	if _, err := host.Session("s1", nil).Append(ctx, hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Done."}, {Type: "image"}}}, hostsdk.Message{ID: "t1", Role: hostsdk.RoleTool, Source: []byte("not JSON\n")}); err != nil {
		t.Fatal(err)
	}
	register("pdf-forms", "Fills PDF forms — now with <signatures>.")
	step(hostsdk.OutcomeReplacement)
	if _, err := host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: 3},
		Summary: &hostsdk.Message{ID: "c1", Role: hostsdk.RoleSystem, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Summary <of> it all."}}}}); err != nil {
		t.Fatal(err)
	}
	reg.Unregister(tools.GlobalScope, "pdf-forms")
	reg.Unregister(tools.GlobalScope, "data-export")
	step(hostsdk.OutcomeTombstone)

	log, err := store.Open(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	page, err := log.ReadBackward(ctx, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for i := len(page.Events) - 1; i >= 0; i-- {
		ev := page.Events[i]
		fmt.Fprintf(&out, "seq %d type %q visible %v\nsource %q\nbody %s\n\n", ev.Seq, ev.Type, ev.Visible, ev.Source, ev.Body)
		if ev.Body != nil && !json.Valid(ev.Body) {
			t.Errorf("event %d: body is not JSON: %s", ev.Seq, ev.Body)
		}
	}
	return out.Bytes()
}
