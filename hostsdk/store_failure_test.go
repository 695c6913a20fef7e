package hostsdk_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// fullDiskStore opens logs whose appends fail as on a full disk: the
// records are refused and nothing is written. Reads work.
type fullDiskStore struct{ sessionlog.Store }

type fullDiskLog struct{ sessionlog.Log }

func (s fullDiskStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	return fullDiskLog{l}, nil
}

func (fullDiskLog) Append(context.Context, ...sessionlog.Record) (sessionlog.Head, error) {
	return sessionlog.Head{}, fmt.Errorf("append: write session.jsonl: %w", syscall.ENOSPC)
}

func (fullDiskLog) AppendIf(context.Context, uint64, ...sessionlog.Record) (sessionlog.Head, error) {
	return sessionlog.Head{}, fmt.Errorf("append: write session.jsonl: %w", syscall.ENOSPC)
}

// failedOpenStore cannot open any session.
type failedOpenStore struct{ sessionlog.Store }

func (failedOpenStore) Open(context.Context, string) (sessionlog.Log, error) {
	return nil, fmt.Errorf("open session file: %w", syscall.EMFILE)
}

// storeHost is a host on store with one skill and the plugin mounted in
// process.
func storeHost(t *testing.T, store sessionlog.Store, cfg hostsdk.Options) *hostsdk.Host {
	t.Helper()
	h, _ := storeHostWithRegistry(t, store, cfg)
	return h
}

// storeHostWithRegistry is storeHost, with the registry it made.
func storeHostWithRegistry(t *testing.T, store sessionlog.Store, cfg hostsdk.Options) (*hostsdk.Host, *skills.Registry) {
	t.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg := skilltest.NewRegistry(t)
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "First skill.", Content: "Do alpha."}); err != nil {
		t.Fatal(err)
	}
	cfg.Tools, cfg.Skills, cfg.Sessions, cfg.Logger = tree, reg, store, slog.New(slog.DiscardHandler)
	host, err := hostsdk.New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	return host, reg
}

// TestStoreFailureIsAHostErrorAndFailsOpen: a step whose session store
// cannot open the log or append the step's messages (a full disk, too many
// open files) fails like any host-side failure: a *HostError, and the
// downstream decision proceeds unchanged, so that a runtime failing open
// carries on.
func TestStoreFailureIsAHostErrorAndFailsOpen(t *testing.T) {
	input := []hostsdk.Message{{ID: "u1", Role: hostsdk.RoleUser, UserInput: true,
		Content: []hostsdk.ContentBlock{{Type: "text", Text: "Hello."}}}}
	for _, tc := range []struct {
		name  string
		store sessionlog.Store
		cause error
	}{
		{"append", fullDiskStore{sessionlog.NewMemoryStore()}, syscall.ENOSPC},
		{"open", failedOpenStore{sessionlog.NewMemoryStore()}, syscall.EMFILE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := storeHost(t, tc.store, hostsdk.Options{})
			res, err := host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: input}, &hostsdk.StepOptions{Turn: 1, Step: 1})
			var herr *hostsdk.HostError
			var perr *hostsdk.PluginError
			if !errors.As(err, &herr) || errors.As(err, &perr) || !errors.Is(err, tc.cause) {
				t.Fatalf("PreStep error = %v (%T), want a *hostsdk.HostError wrapping %v", err, err, tc.cause)
			}
			if res.Outcome != hostsdk.OutcomePluginError {
				t.Errorf("outcome = %q, want %q", res.Outcome, hostsdk.OutcomePluginError)
			}
			ids := []string{}
			for _, m := range res.Decision.Messages {
				ids = append(ids, m.ID)
			}
			if res.Decision.Reject != nil || !slices.Equal(ids, []string{"u1"}) {
				t.Errorf("decision = %+v (messages %v), want the downstream decision: message u1", res.Decision, ids)
			}
			if len(res.Appended) != 0 {
				t.Errorf("Appended = %v, want nothing", res.Appended)
			}

			closed := storeHost(t, tc.store, hostsdk.Options{FailClosed: true})
			res, err = closed.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: input}, &hostsdk.StepOptions{Turn: 1, Step: 1})
			if !errors.As(err, &herr) || len(res.Decision.Messages) != 0 || res.Outcome != "" {
				t.Errorf("with FailClosed: PreStep = %+v, %v; want only a *hostsdk.HostError", res, err)
			}
		})
	}
}

// stallingStore opens logs whose Head or ReadBackward stall, once its
// switch is on, until the caller's context ends: a database that stopped
// answering.
type stallingStore struct {
	sessionlog.Store
	stallHead, stallReads *atomic.Bool
}

type stallingLog struct {
	sessionlog.Log
	store stallingStore
}

func (s stallingStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	return stallingLog{l, s}, err
}

func (l stallingLog) Head(ctx context.Context) (sessionlog.Head, error) {
	if l.store.stallHead.Load() {
		<-ctx.Done()
		return sessionlog.Head{}, ctx.Err()
	}
	return l.Log.Head(ctx)
}

func (l stallingLog) ReadBackward(ctx context.Context, before, after uint64, max int) (sessionlog.Page, error) {
	if l.store.stallReads.Load() {
		<-ctx.Done()
		return sessionlog.Page{}, ctx.Err()
	}
	return l.Log.ReadBackward(ctx, before, after, max)
}

// TestStoreStallAfterASkillChangeIsTheHosts: a store that stops answering
// in the step after a skill change is blamed on the store, in words that
// say which read stalled, never on the plugin; and a step that needs no
// further read of the head (the host already read it) is not held up by a
// stalled Head at all.
func TestStoreStallAfterASkillChangeIsTheHosts(t *testing.T) {
	for _, tc := range []struct {
		name        string
		stallHead   bool
		stallReads  bool
		wantOutcome hostsdk.Outcome
		wantErr     string
	}{
		{name: "head", stallHead: true, wantOutcome: hostsdk.OutcomeReplacement},
		{name: "reads", stallReads: true, wantOutcome: hostsdk.OutcomePluginError, wantErr: "read the session log's newest events"},
		{name: "head and reads", stallHead: true, stallReads: true, wantOutcome: hostsdk.OutcomePluginError, wantErr: "read the session log's newest events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := stallingStore{Store: sessionlog.NewMemoryStore(), stallHead: new(atomic.Bool), stallReads: new(atomic.Bool)}
			h, reg := storeHostWithRegistry(t, store, hostsdk.Options{PreStepTimeout: 500 * time.Millisecond})
			step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: tools.GlobalScope}
			if res, err := runStep(context.Background(), h, step); err != nil || res.Outcome != hostsdk.OutcomeInitial {
				t.Fatalf("first step: %s, %v", res.Outcome, err)
			}
			if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "gamma", Description: "Third skill.", Content: "Do gamma."}); err != nil {
				t.Fatal(err)
			}
			store.stallHead.Store(tc.stallHead)
			store.stallReads.Store(tc.stallReads)
			res, err := runStep(context.Background(), h, step)
			var perr *hostsdk.PluginError
			var herr *hostsdk.HostError
			if errors.As(err, &perr) {
				t.Fatalf("a stalled store is blamed on the plugin: %v", err)
			}
			if res.Outcome != tc.wantOutcome {
				t.Fatalf("outcome %s (%v), want %s", res.Outcome, err, tc.wantOutcome)
			}
			if tc.wantErr != "" && (!errors.As(err, &herr) || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, context.DeadlineExceeded)) {
				t.Fatalf("err = %v, want a *HostError saying %q", err, tc.wantErr)
			}
		})
	}
}
