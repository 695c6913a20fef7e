package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// TestAClosedHostRefusesUse: after Close, every entry point of the host and
// its sessions fails with ErrClosed, rather than stepping as a host with
// nothing mounted would (no catalog, and a `skill` tool that knows no
// skill), which is what an agent whose constructor deferred Close met.
func TestAClosedHostRefusesUse(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no user-level skills of the machine's
	ctx := context.Background()
	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: []string{"../testdata/skills"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	s := host.Session("s1", &hostsdk.SessionOptions{Cwd: cwd})
	if _, err := s.Sync(ctx, []hostsdk.Message{userMsg("one")}); err != nil {
		t.Fatalf("Sync before Close: %v", err)
	}
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	skillCall := json.RawMessage(`{"name":"pdf-forms"}`)
	calls := map[string]func() error{
		"Session.Sync": func() error { _, err := s.Sync(ctx, []hostsdk.Message{userMsg("one"), userMsg("two")}); return err },
		"Session.Step": func() error { _, err := s.Step(ctx, hostsdk.Decision{}, nil); return err },
		"Session.Record": func() error {
			return s.Record(ctx, []hostsdk.Message{userMsg("one"), userMsg("three")})
		},
		"Session.CallTool": func() error {
			_, err := s.CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: skillCall})
			return err
		},
		"Session.Append":     func() error { _, err := s.Append(ctx, userMsg("four")); return err },
		"Session.Transcript": func() error { _, err := s.Transcript(ctx); return err },
		"Session.RecordCompaction": func() error {
			_, err := s.RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: 1}})
			return err
		},
		"Session.SelectSkills": func() error { return s.SelectSkills(ctx, hostsdk.Selection{ExcludeNames: []string{"pdf-forms"}}) },
		"Session.Selection":    func() error { _, err := s.Selection(ctx); return err },
		"Session.Recovery":     func() error { _, err := s.Recovery(ctx); return err },
		"Session.End":          func() error { return s.End(ctx) },
		"Session.Step of a new handle": func() error {
			_, err := host.Session("s2", &hostsdk.SessionOptions{Cwd: cwd, AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{}, nil)
			return err
		},
		"Host.Load": func() error {
			_, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, hostsdk.ErrClosed) {
			t.Errorf("%s after Close: %v; want an error matching ErrClosed", name, err)
		}
	}
	if err := host.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestMountOnAClosedHost: a plugin loaded before Close mounts nothing
// after it.
func TestMountOnAClosedHost(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	if err := e.host.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.plugin.Mount(context.Background(), tools.GlobalScope, nil); !errors.Is(err, hostsdk.ErrClosed) {
		t.Errorf("Mount after Close: %v; want an error matching ErrClosed", err)
	}
}
