package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A replica is one host of a fleet: its own plugin process and skill
// registry, and a session store it shares with the other replicas.
type replica struct {
	name   string
	host   *hostsdk.Host
	reg    *skills.Registry
	plugin *hostsdk.Plugin
}

func newReplica(ctx context.Context, name, pluginBinary string, store sessionlog.Store) (*replica, error) {
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		return nil, err
	}
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		return nil, err
	}
	r := &replica{name: name, reg: reg}
	r.host, err = hostsdk.New(&hostsdk.Options{Tools: tree, Skills: r.reg, Sessions: store, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	r.plugin, err = r.host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginBinary}})
	if err == nil {
		_, err = r.plugin.Mount(ctx, tools.GlobalScope, nil)
	}
	if err != nil {
		r.host.Close()
		return nil, fmt.Errorf("replica %s: %w", name, err)
	}
	return r, nil
}

// replicaRound is what every replica does in one round: learn the round's
// skill change (every replica sees the same skills, as hosts reading one
// skills directory would), then step every session stepsPerSession times
// concurrently, each step proposing a message of its own.
type replicaRound struct {
	Round           int
	Sessions        []string
	StepsPerSession int
}

// change applies the round's skill change. Every replica applies it before
// any replica steps, as hosts that watch one skills directory would.
func (r *replica) change(rd replicaRound) error {
	// Round n adds skill-n; from round 3 on it also removes the skill added
	// two rounds before, so replacements shrink as well as grow.
	if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: fmt.Sprintf("skill-%d", rd.Round),
		Description: fmt.Sprintf("Skill added in round %d.", rd.Round), Content: "Instructions."}); err != nil {
		return err
	}
	if rd.Round >= 3 {
		r.reg.Unregister(tools.GlobalScope, fmt.Sprintf("skill-%d", rd.Round-2))
	}
	return nil
}

// steps runs the round's steps, all at once.
func (r *replica) steps(ctx context.Context, rd replicaRound) error {
	var wg sync.WaitGroup
	errs := make(chan error, len(rd.Sessions)*rd.StepsPerSession)
	for _, s := range rd.Sessions {
		for k := range rd.StepsPerSession {
			wg.Add(1)
			go func() {
				defer wg.Done()
				own := hostsdk.Message{ID: stepMessageID(r.name, rd.Round, s, k), Role: hostsdk.RoleUser,
					Content: []hostsdk.ContentBlock{{Type: "text", Text: "step"}}}
				_, err := r.host.Session(s, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{own}}, nil)
				if err != nil {
					errs <- fmt.Errorf("replica %s round %d session %s: %w", r.name, rd.Round, s, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

func stepMessageID(replica string, round int, session string, k int) string {
	return fmt.Sprintf("%s/%d/%s/%d", replica, round, session, k)
}

// skillsAfterRound are the skills every replica lists after round n.
func skillsAfterRound(n int) []string {
	var names []string
	for i := 0; i <= n; i++ {
		if i < n-1 && i >= 1 {
			continue // removed in round i+2
		}
		names = append(names, fmt.Sprintf("skill-%d", i))
	}
	sort.Strings(names)
	return names
}

// checkFleetLog reads every session back and checks that each round's
// catalog was published exactly once, in round order, and that every step's
// message is there exactly once.
func checkFleetLog(t *testing.T, store sessionlog.Store, replicas []string, rounds []replicaRound) {
	t.Helper()
	ctx := context.Background()
	for _, s := range rounds[0].Sessions {
		l, err := store.Open(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		p, err := l.ReadBackward(ctx, 0, 0, 1<<20)
		l.Close()
		if err != nil {
			t.Fatal(err)
		}
		var published []string
		ids := map[string]int{}
		for i := len(p.Events) - 1; i >= 0; i-- {
			ev := p.Events[i]
			if c, ok := events.ParseCatalog(ev.Source); ok {
				var names []string
				for _, e := range c.Entries {
					names = append(names, e.Name)
				}
				published = append(published, strings.Join(names, ","))
				continue
			}
			var m hostsdk.Message
			if err := json.Unmarshal(ev.Body, &m); err != nil {
				t.Fatalf("session %s seq %d: %v", s, ev.Seq, err)
			}
			ids[m.ID]++
		}
		var want []string
		for _, rd := range rounds {
			want = append(want, strings.Join(skillsAfterRound(rd.Round), ","))
		}
		if strings.Join(published, " | ") != strings.Join(want, " | ") {
			t.Errorf("session %s published catalogs\n  %s\nwant one per change\n  %s", s, strings.Join(published, " | "), strings.Join(want, " | "))
		}
		for _, rep := range replicas {
			for _, rd := range rounds {
				for k := range rd.StepsPerSession {
					if n := ids[stepMessageID(rep, rd.Round, s, k)]; n != 1 {
						t.Errorf("session %s: message %s stored %d times, want once", s, stepMessageID(rep, rd.Round, s, k), n)
					}
				}
			}
		}
	}
}

func fleetRounds(n int, sessions []string, stepsPerSession int) []replicaRound {
	rounds := make([]replicaRound, n)
	for i := range rounds {
		rounds[i] = replicaRound{Round: i, Sessions: sessions, StepsPerSession: stepsPerSession}
	}
	return rounds
}

// TestReplicasShareAFileStore: several hosts in one process, each with its
// own plugin process, step the same sessions concurrently against one file
// store while the skills change between rounds.
func TestReplicasShareAFileStore(t *testing.T) {
	store, err := sessionlog.NewFileStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	runInProcessFleet(t, store)
}

func runInProcessFleet(t *testing.T, store sessionlog.Store) {
	t.Helper()
	ctx := context.Background()
	names := []string{"r0", "r1", "r2"}
	var fleet []*replica
	for _, name := range names {
		r, err := newReplica(ctx, name, pluginPath, store)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.host.Close() })
		fleet = append(fleet, r)
	}
	rounds := fleetRounds(5, []string{"s1", "s2", "s3"}, 3)
	for _, rd := range rounds {
		for _, r := range fleet {
			if err := r.change(rd); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for _, r := range fleet {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := r.steps(ctx, rd); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	checkFleetLog(t, store, names, rounds)
}
