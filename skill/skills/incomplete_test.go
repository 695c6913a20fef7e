package skills_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestSnapshotSaysWhyItIsIncomplete: an incomplete snapshot names each
// provider that made it so, with its scope and what it said; a complete
// one says nothing.
func TestSnapshotSaysWhyItIsIncomplete(t *testing.T) {
	r := skilltest.NewRegistry(t)
	r.AddProvider("global", newFake(true, sum("alpha", "A.", "fake")), nil)
	r.AddProvider("global", failingFake(errors.New("disk on fire")), nil)
	r.AddProvider("agent:a", newFake(false), nil)
	q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent:a", "global", "agent:a"}}
	snap, err := r.Snapshot(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`provider *skilltest.Provider in scope "agent:a" reported an incomplete observation`,
		`provider *skilltest.Provider in scope "global": disk on fire`,
	}
	if snap.Complete || len(snap.Skills) != 1 {
		t.Fatalf("complete %v with %d skills, want an incomplete snapshot listing alpha", snap.Complete, len(snap.Skills))
	}
	if diff := cmp.Diff(want, snap.Incomplete); diff != "" {
		t.Errorf("Incomplete (-want +got):\n%s", diff)
	}
	q.Chain = []string{"global"}
	r2 := skilltest.NewRegistry(t)
	r2.AddProvider("global", newFake(true, sum("alpha", "A.", "fake")), nil)
	if snap, err := r2.Snapshot(context.Background(), q); err != nil || !snap.Complete || snap.Incomplete != nil {
		t.Errorf("complete snapshot: complete %v, Incomplete %q, %v", snap.Complete, snap.Incomplete, err)
	}
}

// saysWhy is a provider whose incomplete observations say why.
type saysWhy struct{ skills.Provider }

func (p saysWhy) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	return skills.Observation{Complete: false, Incomplete: []string{"/srv/skills: gone", "/opt/skills: unreadable"}}, nil
}

// TestSnapshotRepeatsWhatTheProviderSaid: a provider's own account of an
// incomplete observation reaches the snapshot's reasons.
func TestSnapshotRepeatsWhatTheProviderSaid(t *testing.T) {
	r := skilltest.NewRegistry(t)
	r.AddProvider("global", saysWhy{newFake(true)}, nil)
	snap, err := r.Snapshot(context.Background(), skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"global"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`provider skills_test.saysWhy in scope "global" reported an incomplete observation: /srv/skills: gone; /opt/skills: unreadable`}
	if diff := cmp.Diff(want, snap.Incomplete); diff != "" {
		t.Errorf("Incomplete (-want +got):\n%s", diff)
	}
}
