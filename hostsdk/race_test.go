package hostsdk_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// TestConcurrentStepsPublishEachChangeOnce races steps of one session
// (goroutines of one host, file store): each catalog change must reach the
// session log exactly once, and every step's own message exactly once.
// Without the conditional append every racer that read the old head
// publishes its own copy of the catalog.
func TestConcurrentStepsPublishEachChangeOnce(t *testing.T) {
	const racers, rounds = 8, 5
	e := newEnv(t, hostsdk.Options{})
	e.mount(tools.GlobalScope)
	ctx := context.Background()
	const session = "raced"

	for round := range rounds {
		// Each round changes the catalog; the first one publishes it.
		e.register(tools.GlobalScope, fmt.Sprintf("skill-%d", round), fmt.Sprintf("Skill of round %d.", round))
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			changed int
		)
		for r := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				own := hostsdk.Message{ID: fmt.Sprintf("user-%d-%d", round, r), Role: hostsdk.RoleUser,
					Content: []hostsdk.ContentBlock{{Type: "text", Text: "hello"}}}
				res, err := e.host.Session(session, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{own}}, nil)
				if err != nil {
					t.Errorf("round %d racer %d: PreStep: %v", round, r, err)
					return
				}
				if _, published := catalog(res); published {
					mu.Lock()
					changed++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if changed != 1 {
			t.Errorf("round %d: %d of %d racing steps published a catalog, want exactly 1", round, changed, racers)
		}
	}

	// The durable log holds one catalog per round and every step's message once.
	l, err := e.store.Open(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p, err := l.ReadBackward(ctx, 0, 0, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	catalogs, ids := 0, map[string]int{}
	for _, ev := range p.Events {
		if _, ok := events.ParseCatalog(ev.Source); ok {
			catalogs++
			continue
		}
		ids[string(ev.Body)]++
	}
	if catalogs != rounds {
		t.Errorf("session log holds %d catalogs after %d changes, want %d", catalogs, rounds, rounds)
	}
	if len(ids) != racers*rounds {
		t.Errorf("session log holds %d distinct step messages, want %d", len(ids), racers*rounds)
	}
	for body, n := range ids {
		if n != 1 {
			t.Errorf("step message %s appended %d times", body, n)
		}
	}
}

// movingStore opens logs whose head moves before every conditional append,
// as if another writer always won the race.
type movingStore struct{ sessionlog.Store }

type movingLog struct{ sessionlog.Log }

func (s movingStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	return movingLog{l}, err
}

func (l movingLog) AppendIf(ctx context.Context, expect uint64, recs ...sessionlog.Record) (sessionlog.Head, error) {
	if _, err := l.Log.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(`{"by":"another writer"}`)}); err != nil {
		return sessionlog.Head{}, err
	}
	return l.Log.AppendIf(ctx, expect, recs...)
}

// TestStepGivesUpOnAHeadThatKeepsMoving: the retries are bounded, and the
// error says why and wraps sessionlog.ErrConflict.
func TestStepGivesUpOnAHeadThatKeepsMoving(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	host, err := hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: movingStore{sessionlog.NewMemoryStore()}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	e.register(tools.GlobalScope, "alpha", "First skill.")
	_, err = host.Session("s", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
	if !errors.Is(err, sessionlog.ErrConflict) || !strings.Contains(err.Error(), "kept moving during 16 attempts") {
		t.Fatalf("PreStep on a log whose head always moves: %v; want an error wrapping ErrConflict after 16 attempts", err)
	}
	var pe *hostsdk.PluginError
	if errors.As(err, &pe) {
		t.Fatalf("a moving session log is reported as a plugin fault: %v", err)
	}
}
