package mcpskills

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// The tests of this file weigh the provider's memory: they read the live
// heap, so they do not run in parallel with others.

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() int {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int(ms.HeapAlloc)
}

// heapSlack absorbs what a test allocates besides the provider's sessions
// (the server in the same process, the HTTP client's buffers, the
// runtime's own structures).
const heapSlack = 8 << 20

// describeSkill sets skill i of s with a description of some 900 bytes
// that names round.
func describeSkill(s *mcpfake.ExtServer, i, round int) {
	filler := strings.Repeat("x", 850)
	name := fmt.Sprintf("skill-%03d", i)
	s.SetSkill(mcpfake.ExtSkill{
		URI:         "skill://acme/" + name + "/SKILL.md",
		Frontmatter: map[string]any{"name": name, "description": fmt.Sprintf("Round %d, skill %d: %s", round, i, filler)},
		Body:        "# " + name + "\n",
	})
}

// TestPinnedListingsAreBounded: sessions that are never ended, each shown
// a skills/list listing of its own (a server of 400 skills whose listing
// changes between walks), keep no more than the provider's bound alive,
// however many there are, and the sessions used last keep their listings.
func TestPinnedListingsAreBounded(t *testing.T) {
	const n, sessions, bound = 400, 24, 4 << 20
	s := mcpfake.NewExt()
	for i := range n {
		describeSkill(s, i, 0)
	}
	p, _ := newExtProvider(t, s, Options{IndexMaxAge: time.Nanosecond, PinnedMaxBytes: bound})
	list := func(session string) {
		t.Helper()
		obs, err := p.List(t.Context(), skills.ListRequest{SessionID: session})
		if err != nil || len(obs.Skills) != n {
			t.Fatalf("List(%s) = %d skills, %v", session, len(obs.Skills), err)
		}
	}
	list("warm-up")
	before := liveHeap()
	for r := range sessions {
		describeSkill(s, r%n, r+1) // the listing changes between sessions
		list(fmt.Sprint("s", r))
	}
	grown := liveHeap() - before
	if max := bound + heapSlack; grown > max {
		t.Errorf("%d never-ended sessions with listings of their own grew the heap by %d MiB, more than the bound (%d MiB) and slack (%d MiB)",
			sessions, grown>>20, bound>>20, heapSlack>>20)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range []string{fmt.Sprint("s", sessions-1), fmt.Sprint("s", sessions-2)} {
		if v := p.sessions[id]; v == nil || v.listing.cat == nil {
			t.Errorf("session %s, used last, lost its listing", id)
		}
	}
}

// TestReleasedSessionLoadsFromTheNewestListing: a session whose listing is
// pushed out by PinnedMaxBytes is released as an ended session is; its
// next load resolves in the newest listing and loads the skill as the
// server now serves it.
func TestReleasedSessionLoadsFromTheNewestListing(t *testing.T) {
	const n = 400 // some 1.6 MiB of listing, past the smallest bound
	s := mcpfake.NewExt()
	for i := range n {
		describeSkill(s, i, 0)
	}
	p, _ := newExtProvider(t, s, Options{IndexMaxAge: time.Nanosecond, PinnedMaxBytes: 1 << 20})
	for _, id := range []string{"s1", "s2"} {
		if _, err := p.List(t.Context(), skills.ListRequest{SessionID: id}); err != nil {
			t.Fatal(err)
		}
		describeSkill(s, 0, 1) // skill-000 changes after s1 listed it
	}
	p.mu.Lock()
	_, kept := p.sessions["s1"]
	p.mu.Unlock()
	if kept {
		t.Fatal("s1's listing, no longer the newest and past the bound, was kept")
	}
	def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "skill-000"})
	if err != nil || !found || !strings.HasPrefix(def.Description, "Round 1, skill 0:") {
		t.Errorf("Load(s1, skill-000) = %q, %v, %v; want the skill as the server now serves it", def.Description, found, err)
	}
}
