package webskills

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestEvictedSessionUsesTheNewestListing: within PinnedMaxBytes a session
// keeps the listing its catalog came from after the site changed; once
// other sessions' listings push it past the bound, the least recently used
// session loses its pin and resolves names in the newest listing, until it
// lists again.
func TestEvictedSessionUsesTheNewestListing(t *testing.T) {
	site := &changingSite{n: 1000}
	p := newTestProvider(t, site.serve(t).URL, func(c *Options) { c.MaxIndexBytes, c.PinnedMaxBytes = 4<<20, 2<<20 })
	pinnedTo := func(session string) *index {
		t.Helper()
		l, err := p.sessionListing(t.Context(), session)
		if err != nil {
			t.Fatal(err)
		}
		return l.ix
	}
	listChanged(t, p, "s1")
	first := pinnedTo("s1")
	p.mu.Lock()
	cost := p.cur.cost
	p.mu.Unlock()
	if cost < 1<<20 || cost > 2<<20 {
		t.Fatalf("a listing of 1,000 skills is accounted at %d bytes; the test wants between 1 and 2 MiB", cost)
	}
	listChanged(t, p, "s2")
	second := pinnedTo("s2")
	// s1's listing is no longer the newest, and alone within the bound.
	if pinnedTo("s1") != first {
		t.Fatal("s1 lost its listing within the bound")
	}
	// s1 and s2 pin a listing each besides the newest: past the bound,
	// and s2 was used least recently. (The newest stays fresh: the site
	// says nothing of its freshness, so it is used for DefaultMaxAge.)
	if _, err := p.List(t.Context(), skills.ListRequest{SessionID: "s3"}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	newest := p.cur.ix
	p.mu.Unlock()
	if got := pinnedTo("s2"); got == second || got != newest {
		t.Errorf("the evicted session resolves in index %d, want the newest, %d", got.gen, newest.gen)
	}
	if pinnedTo("s1") != first {
		t.Errorf("s1, used since, lost its listing")
	}
	if _, err := p.List(t.Context(), skills.ListRequest{SessionID: "s2"}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessions["s2"] == nil {
		t.Error("s2 listed again, yet pins nothing")
	}
}
