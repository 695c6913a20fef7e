package skills_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// applyChanges is what a plugin holding base makes of ch.
func applyChanges(base []skill.Summary, ch skills.SnapshotChanges) []skill.Summary {
	byName := make(map[string]skill.Summary, len(base))
	for _, s := range base {
		byName[s.Name] = s
	}
	for _, name := range ch.Removed {
		delete(byName, name)
	}
	for _, s := range ch.Upserts {
		byName[s.Name] = s
	}
	out := make([]skill.Summary, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// TestSnapshotChangesRandomEdits: after random registrations, replacements
// and removals, the changes since any snapshot handed out recently turn it
// into the current snapshot, under its token, and name only what changed.
func TestSnapshotChangesRandomEdits(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	r := skilltest.NewRegistry(t)
	const names = 60
	name := func(i int) string { return fmt.Sprintf("skill-%02d", i) }
	for i := 0; i < names; i += 2 {
		mustRegister(t, r, "g", rt(name(i), "first"))
	}
	q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"g"}}
	var held []skills.Snapshot // snapshots handed out, oldest first
	answered := 0
	for step := range 400 {
		for range 1 + rng.IntN(3) {
			i := rng.IntN(names)
			if rng.IntN(4) == 0 {
				r.Unregister("g", name(i))
			} else {
				mustRegister(t, r, "g", rt(name(i), fmt.Sprintf("version %d", rng.IntN(3))))
			}
		}
		want := mustSnapshot(t, r, q)
		if tok, ok := r.CachedToken(q); !ok || tok != want.Token {
			t.Fatalf("step %d: CachedToken = %q, %v; want %q, true", step, tok, ok, want.Token)
		}
		for _, base := range held[max(0, len(held)-4):] {
			ch, ok, err := r.SnapshotChanges(ctx, q, base.Token)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			answered++
			if ch.Token != want.Token {
				t.Fatalf("step %d: token %q, want %q", step, ch.Token, want.Token)
			}
			if diff := cmp.Diff(want.Skills, applyChanges(base.Skills, ch)); diff != "" {
				t.Fatalf("step %d: base and changes differ from the snapshot (-want +got):\n%s", step, diff)
			}
			if !slices.IsSortedFunc(ch.Upserts, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) }) || !slices.IsSorted(ch.Removed) {
				t.Fatalf("step %d: changes not sorted: %v %v", step, ch.Upserts, ch.Removed)
			}
			for _, s := range ch.Upserts {
				if i, found := slices.BinarySearchFunc(base.Skills, s.Name, func(b skill.Summary, n string) int { return strings.Compare(b.Name, n) }); found && base.Skills[i] == s {
					t.Fatalf("step %d: %q is sent as changed but is as the base has it", step, s.Name)
				}
			}
			for _, n := range ch.Removed {
				if _, found := slices.BinarySearchFunc(base.Skills, n, func(b skill.Summary, n string) int { return strings.Compare(b.Name, n) }); !found {
					t.Fatalf("step %d: %q is removed but the base did not list it", step, n)
				}
			}
		}
		held = append(held, want)
	}
	// Up to three steps of up to three edits each, in 30 or so skills:
	// most recent bases must be answered, or the path is not exercised.
	if answered < 800 {
		t.Errorf("answered %d of 1,594 requests for changes; want most", answered)
	}
}

func TestSnapshotChangesCases(t *testing.T) {
	ctx := context.Background()
	q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent", "g"}}
	setup := func(t *testing.T) (*skills.Registry, skills.Snapshot) {
		r := skilltest.NewRegistry(t)
		for i := range 10 {
			mustRegister(t, r, "g", rt(fmt.Sprintf("s%d", i), "d"))
		}
		return r, mustSnapshot(t, r, q)
	}
	t.Run("unchanged", func(t *testing.T) {
		r, base := setup(t)
		ch, ok, err := r.SnapshotChanges(ctx, q, base.Token)
		if err != nil || !ok || ch.Token != base.Token || ch.Upserts != nil || ch.Removed != nil {
			t.Fatalf("got %+v, %v, %v; want the base's token and no changes", ch, ok, err)
		}
	})
	t.Run("changed back", func(t *testing.T) {
		r, base := setup(t)
		mustRegister(t, r, "g", rt("s1", "other"))
		mustRegister(t, r, "g", rt("s1", "d"))
		ch, ok, err := r.SnapshotChanges(ctx, q, base.Token)
		if err != nil || !ok || ch.Token != base.Token || len(ch.Upserts)+len(ch.Removed) != 0 {
			t.Fatalf("got %+v, %v, %v; want the base's token and no changes", ch, ok, err)
		}
	})
	t.Run("added then removed", func(t *testing.T) {
		r, base := setup(t)
		mustRegister(t, r, "g", rt("new", "d"))
		r.Unregister("g", "new")
		mustRegister(t, r, "g", rt("s2", "changed"))
		ch, ok, err := r.SnapshotChanges(ctx, q, base.Token)
		want := skills.SnapshotChanges{Token: mustSnapshot(t, r, q).Token, Upserts: []skill.Summary{rt2sum("s2", "changed")}}
		if err != nil || !ok {
			t.Fatalf("ok %v, err %v", ok, err)
		}
		if diff := cmp.Diff(want, ch); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
	refused := map[string]func(t *testing.T, r *skills.Registry, base skills.Snapshot) string{
		"unknown base": func(*testing.T, *skills.Registry, skills.Snapshot) string { return "not-a-token" },
		"no base":      func(*testing.T, *skills.Registry, skills.Snapshot) string { return "" },
		"a provider": func(t *testing.T, r *skills.Registry, base skills.Snapshot) string {
			r.AddProvider("agent", watched(newWatched(sum("p", "d", "f"))), nil)
			return base.Token
		},
		"skills in two scopes": func(t *testing.T, r *skills.Registry, base skills.Snapshot) string {
			mustRegister(t, r, "agent", rt("a", "d"))
			return base.Token
		},
		"not worth a delta": func(t *testing.T, r *skills.Registry, base skills.Snapshot) string {
			for i := range 6 {
				mustRegister(t, r, "g", rt(fmt.Sprintf("s%d", i), "changed"))
			}
			return base.Token
		},
		"forgotten": func(t *testing.T, r *skills.Registry, base skills.Snapshot) string {
			for i := range 9 { // more snapshots handed out than a scope remembers
				mustRegister(t, r, "g", rt("s0", fmt.Sprint(i)))
				mustSnapshot(t, r, q)
			}
			return base.Token
		},
	}
	for desc, change := range refused {
		t.Run(desc, func(t *testing.T) {
			r, base := setup(t)
			token := change(t, r, base)
			if ch, ok, err := r.SnapshotChanges(ctx, q, token); err != nil || ok {
				t.Fatalf("got %+v, %v, %v; want no answer", ch, ok, err)
			}
		})
	}
	t.Run("canceled", func(t *testing.T) {
		r, base := setup(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := r.SnapshotChanges(cctx, q, base.Token); err == nil {
			t.Fatal("no error from a canceled context")
		}
	})
}

// rt2sum is the summary of rt(name, desc).
func rt2sum(name, desc string) skill.Summary {
	return skill.Summary{Name: name, Description: desc, Invocation: skill.DefaultPolicy(), Provider: skills.RuntimeProvider}
}

// TestSnapshotChangesConcurrentUse: changes, snapshots and questions about
// what changed, from many goroutines on one scope (run with -race).
func TestSnapshotChangesConcurrentUse(t *testing.T) {
	r := skilltest.NewRegistry(t)
	q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent", "g"}}
	mustRegister(t, r, "g", rt("base", "d"))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			token := ""
			for i := range 200 {
				name := fmt.Sprintf("s%d-%d", g, i%7)
				if i%5 == 4 {
					r.Unregister("g", name)
				} else if err := r.Register("g", rt(name, fmt.Sprint(i))); err != nil {
					t.Error(err)
					return
				}
				switch i % 3 {
				case 0:
					s, err := r.SharedSnapshot(t.Context(), q)
					if err != nil {
						t.Error(err)
						return
					}
					token = s.Token
				case 1:
					ch, ok, err := r.SnapshotChanges(t.Context(), q, token)
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						if ch.Token == "" || !slices.IsSorted(ch.Removed) {
							t.Errorf("changes %+v", ch)
							return
						}
						token = ch.Token
					}
				default:
					if _, ok := r.CachedToken(q); !ok {
						t.Error("no token for runtime skills")
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
