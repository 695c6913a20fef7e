package discovery

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// TestNotedSessionsAreBounded: a mount keeps the mailboxes of at most
// maxNotedSessions sessions; one more session's takes the place of
// another's, a session already noted keeps its own, and an ended
// session's is forgotten.
func TestNotedSessionsAreBounded(t *testing.T) {
	t.Parallel()
	h := newLocalHost(nil, nil, nil, 0)
	first := h.mailbox("s0")
	for i := 1; i < maxNotedSessions; i++ {
		h.mailbox(fmt.Sprintf("s%d", i))
	}
	if len(h.notes) != maxNotedSessions {
		t.Fatalf("%d sessions noted, want %d", len(h.notes), maxNotedSessions)
	}
	if h.mailbox("s0") != first || len(h.notes) != maxNotedSessions {
		t.Errorf("a session noted again got another mailbox, or %d sessions noted, want %d", len(h.notes), maxNotedSessions)
	}
	h.mailbox("one-more")
	if _, ok := h.notes["one-more"]; !ok || len(h.notes) != maxNotedSessions {
		t.Errorf("one more session: %d sessions noted, want %d, the newest among them", len(h.notes), maxNotedSessions)
	}
	h.endSession("one-more")
	if _, ok := h.notes["one-more"]; ok {
		t.Errorf("an ended session's mailbox is kept")
	}
}
