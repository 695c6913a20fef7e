package skills_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

func bodyDigest(body string) string {
	return skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(body)}})
}

func lockOf(t *testing.T, entries ...skilllock.Entry) *skilllock.Lock {
	t.Helper()
	l, err := skilllock.New(entries)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// swapping is a provider of one skill whose content changes without
// telling the registry: what a directory edited between a listing and a
// load looks like.
type swapping struct {
	mu      sync.Mutex
	content string
}

func (p *swapping) List(context.Context, skills.ListRequest) (skills.Observation, error) {
	return skills.Observation{Complete: true, Skills: []skill.Summary{{Name: "alpha", Description: "A.", Invocation: skill.DefaultPolicy()}}}, nil
}

func (p *swapping) Load(context.Context, skills.LoadRequest) (skill.Definition, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return skill.Definition{Summary: skill.Summary{Name: "alpha"}, Content: p.content}, true, nil
}

func (p *swapping) SetInvalidate(func()) {}

func (p *swapping) set(content string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.content = content
}

// TestLockChecksTheLoadAgain: a skill listed at its locked version whose
// content changes before it is loaded is refused at the load, with a
// lock-mismatch error, never returned changed; the listing names the
// locked version's digest, and so does the definition loaded before.
func TestLockChecksTheLoadAgain(t *testing.T) {
	ctx := context.Background()
	reg, err := skills.NewRegistry(&skills.RegistryOptions{Lock: lockOf(t, skilllock.Entry{Kind: skilllock.KindLocal, Name: "alpha", Digest: bodyDigest("v1")})})
	if err != nil {
		t.Fatal(err)
	}
	p := &swapping{content: "v1"}
	reg.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s", Chain: []string{"global"}}
	snap, err := reg.Snapshot(ctx, q)
	if err != nil || len(snap.Skills) != 1 || snap.Skills[0].ContentDigest != bodyDigest("v1") {
		t.Fatalf("snapshot %+v, %v", snap.Skills, err)
	}
	def, found, err := reg.Get(ctx, q, "alpha")
	if err != nil || !found || def.Content != "v1" || def.ContentDigest != bodyDigest("v1") {
		t.Fatalf("Get before the change: %+v, %v, %v", def, found, err)
	}
	p.set("v2")
	def, found, err = reg.Get(ctx, q, "alpha")
	var le *skills.LoadError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "lock-mismatch") || def.Content == "v2" {
		t.Fatalf("Get after the change: %+v, %v, %v; want a lock-mismatch LoadError", def, found, err)
	}
}

// TestLockRuntimeSkills: the host's own skills are locked by their
// instructions; one registered anew with others is left out, LockedOut
// saying why, until registered at the locked version again.
func TestLockRuntimeSkills(t *testing.T) {
	ctx := context.Background()
	reg, err := skills.NewRegistry(&skills.RegistryOptions{Lock: lockOf(t,
		skilllock.Entry{Kind: skilllock.KindLocal, Name: "alpha", Digest: bodyDigest("v1")},
		skilllock.Entry{Kind: skilllock.KindLocal, Name: "beta", Digest: bodyDigest("b")})})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []skills.RuntimeSkill{{Name: "alpha", Description: "A.", Content: "v2"}, {Name: "beta", Description: "B.", Content: "b"}} {
		if err := reg.Register("global", s); err != nil {
			t.Fatal(err)
		}
	}
	q := skills.Query{SessionID: "s", Chain: []string{"global"}}
	snap, err := reg.Snapshot(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Skills) != 1 || snap.Skills[0].Name != "beta" || len(snap.LockedOut) != 1 ||
		snap.LockedOut[0].Reason != skills.ReasonLockMismatch || snap.LockedOut[0].Name != "alpha" ||
		snap.LockedOut[0].Detail != "its content is "+bodyDigest("v2")+", the lock has "+bodyDigest("v1") {
		t.Fatalf("snapshot %+v, locked out %+v", snap.Skills, snap.LockedOut)
	}
	if _, ok := reg.CachedToken(q); ok {
		t.Error("a snapshot the lock left a skill out of is cached; the next step would not say so")
	}
	if _, found, _ := reg.Get(ctx, q, "alpha"); found {
		t.Error("the changed alpha loads")
	}
	if err := reg.Register("global", skills.RuntimeSkill{Name: "alpha", Description: "A.", Content: "v1"}); err != nil {
		t.Fatal(err)
	}
	if snap, err = reg.Snapshot(ctx, q); err != nil || len(snap.Skills) != 2 || len(snap.LockedOut) != 0 {
		t.Fatalf("after alpha was restored: %+v, %+v, %v", snap.Skills, snap.LockedOut, err)
	}
}

// TestRecordDigestsWithoutLock: RecordDigests digests every listed skill
// and locks nothing; the token changes with a skill's content then, the
// published catalog (names and descriptions) does not.
func TestRecordDigestsWithoutLock(t *testing.T) {
	ctx := context.Background()
	reg, err := skills.NewRegistry(&skills.RegistryOptions{RecordDigests: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register("global", skills.RuntimeSkill{Name: "alpha", Description: "A.", Content: "v1"}); err != nil {
		t.Fatal(err)
	}
	q := skills.Query{SessionID: "s", Chain: []string{"global"}}
	snap, err := reg.Snapshot(ctx, q)
	if err != nil || len(snap.Skills) != 1 || snap.Skills[0].ContentDigest != bodyDigest("v1") || len(snap.LockedOut) != 0 {
		t.Fatalf("snapshot %+v, %v", snap, err)
	}
	if d, found, err := reg.ContentDigest(ctx, q, "alpha"); err != nil || !found || d != bodyDigest("v1") {
		t.Errorf("ContentDigest = %q, %v, %v", d, found, err)
	}
}

// TestUnlockedOptionBound: an Unlocked value that is not a policy is an
// error naming the option.
func TestUnlockedOptionBound(t *testing.T) {
	if _, err := skills.NewRegistry(&skills.RegistryOptions{Unlocked: 2}); err == nil || !strings.Contains(err.Error(), "RegistryOptions.Unlocked 2") {
		t.Fatalf("NewRegistry(Unlocked 2) = %v", err)
	}
}

// TestLockHoldsUnlistedLoads: while a strict provider cannot list, the
// snapshot is incomplete and a name it does not list is asked of that
// provider; under a lock, what it loads is held to the lock as a listed
// skill is: a changed one refused, one the lock does not name not found.
func TestLockHoldsUnlistedLoads(t *testing.T) {
	ctx := context.Background()
	reg, err := skills.NewRegistry(&skills.RegistryOptions{Lock: lockOf(t, skilllock.Entry{Kind: skilllock.KindLocal, Name: "alpha", Digest: bodyDigest("v1")})})
	if err != nil {
		t.Fatal(err)
	}
	p := skilltest.New(nil)
	p.SetSkills(
		skilltest.Skill{Summary: skill.Summary{Name: "alpha", Description: "A.", Invocation: skill.DefaultPolicy()}, Content: "v2"},
		skilltest.Skill{Summary: skill.Summary{Name: "beta", Description: "B.", Invocation: skill.DefaultPolicy()}, Content: "b"},
	)
	p.SetListError(errors.New("root unreadable"))
	reg.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s", Chain: []string{"global"}}
	if snap, err := reg.Snapshot(ctx, q); err != nil || snap.Complete {
		t.Fatalf("snapshot complete %v, %v; want an incomplete one", snap.Complete, err)
	}
	if def, _, err := reg.Get(ctx, q, "alpha"); err == nil || !strings.Contains(err.Error(), "lock-mismatch") || def.Content == "v2" {
		t.Errorf("Get(alpha) = %q, %v; want a lock-mismatch error", def.Content, err)
	}
	if _, found, err := reg.Get(ctx, q, "beta"); found || err != nil {
		t.Errorf("Get(beta), which the lock does not name: found %v, %v", found, err)
	}
	p.SetSkills(skilltest.Skill{Summary: skill.Summary{Name: "alpha", Description: "A.", Invocation: skill.DefaultPolicy()}, Content: "v1"})
	if def, found, err := reg.Get(ctx, q, "alpha"); err != nil || !found || def.Content != "v1" {
		t.Errorf("Get(alpha) at the locked version: %q, %v, %v", def.Content, found, err)
	}
}
