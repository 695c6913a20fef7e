package discovery

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestSnapshotIsNotModifiedForTheCurrentToken: a Snapshot request naming
// the token of the registry's current complete snapshot is answered not
// modified; one naming no token or another gets the whole snapshot.
func TestSnapshotIsNotModifiedForTheCurrentToken(t *testing.T) {
	t.Parallel()
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(Scope, skills.RuntimeSkill{Name: "pdf-forms", Description: "Fill forms."}); err != nil {
		t.Fatal(err)
	}
	h, ctx := newLocalHost(nil, reg, slog.New(slog.DiscardHandler), 0), context.Background()
	whole, err := h.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s1", Cwd: "/work"})
	if err != nil || whole.NotModified || !whole.Complete || whole.Token == "" || len(whole.Skills) != 1 {
		t.Fatalf("Snapshot = %+v, %v; want the whole complete snapshot", whole, err)
	}
	for _, tt := range []struct {
		ifNoneMatch string
		want        contract.Snapshot
	}{
		{whole.Token, contract.Snapshot{NotModified: true, Token: whole.Token, Complete: true}},
		{"another token", whole},
		{"", whole},
	} {
		got, err := h.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s1", Cwd: "/work", IfNoneMatch: tt.ifNoneMatch})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Snapshot(IfNoneMatch %q) (-want +got):\n%s", tt.ifNoneMatch, diff)
		}
	}
}

// TestSessionNotesAreKeptUntilTaken: what a snapshot said beside its
// skills (names shared across origins, why it was incomplete, which
// providers were degraded, in any mix) is kept for its session until the
// step takes it, once; a snapshot that said nothing forgets what an
// earlier one said.
func TestSessionNotesAreKeptUntilTaken(t *testing.T) {
	t.Parallel()
	shared, incomplete, degraded := []string{"shared"}, []string{"incomplete"}, []string{"degraded"}
	for _, n := range []hostanswer.Notes{
		{Shared: shared},
		{Incomplete: incomplete},
		{Degraded: degraded},
		{Shared: shared, Incomplete: incomplete},
		{Incomplete: incomplete, Degraded: degraded},
		{Shared: shared, Degraded: degraded},
		{Shared: shared, Incomplete: incomplete, Degraded: degraded},
	} {
		h := newLocalHost(nil, nil, nil, 0)
		h.setNotes("s1", n)
		h.setNotes("s2", n)
		if got := h.takeNotes("s1"); !cmp.Equal(got, n) {
			t.Errorf("notes %+v taken as %+v", n, got)
		}
		if got := h.takeNotes("s1"); !cmp.Equal(got, hostanswer.Notes{}) {
			t.Errorf("notes %+v taken twice: %+v", n, got)
		}
		h.setNotes("s2", hostanswer.Notes{})
		if got := h.takeNotes("s2"); !cmp.Equal(got, hostanswer.Notes{}) {
			t.Errorf("notes %+v outlived a snapshot that said nothing: %+v", n, got)
		}
	}
}

// TestNotedSessionsAreBounded: a mount keeps the notes of at most
// maxNotedSessions sessions; one more session's notes take the place of
// another's, and a session already noted is noted again in place.
func TestNotedSessionsAreBounded(t *testing.T) {
	t.Parallel()
	h := newLocalHost(nil, nil, nil, 0)
	n := hostanswer.Notes{Shared: []string{"shared"}}
	for i := range maxNotedSessions {
		h.setNotes(fmt.Sprintf("s%d", i), n)
	}
	if len(h.notes) != maxNotedSessions {
		t.Fatalf("%d sessions noted, want %d", len(h.notes), maxNotedSessions)
	}
	h.setNotes("s0", n)
	if len(h.notes) != maxNotedSessions || !cmp.Equal(h.takeNotes("s0"), n) {
		t.Errorf("noting a session again: %d sessions noted, want %d with its notes kept", len(h.notes), maxNotedSessions)
	}
	h.setNotes("s0", n)
	h.setNotes("one-more", n)
	if len(h.notes) != maxNotedSessions || !cmp.Equal(h.takeNotes("one-more"), n) {
		t.Errorf("one more session: %d sessions noted, want %d, the newest among them", len(h.notes), maxNotedSessions)
	}
}
