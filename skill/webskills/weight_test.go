package webskills

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
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
// (its server, the HTTP client's buffers, the runtime's own structures).
const heapSlack = 8 << 20

// changingSite serves a v0.2.0 index of n skills, the first "stale", whose descriptions change
// at every read (each names the read); stale's SKILL.md does not match
// its digest: loading it makes the provider read the index
// again at its next listing, as a site that changed would.
type changingSite struct {
	mu    sync.Mutex
	reads int
	n     int
}

func (s *changingSite) serve(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	filler := strings.Repeat("x", 900)
	mux.HandleFunc("/.well-known/agent-skills/index.json", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reads++
		read := s.reads
		s.mu.Unlock()
		ix := skillsext.Index{Schema: skillsext.SchemaV2, Skills: []skillsext.IndexEntry{{Name: "stale", Type: skillsext.TypeSkillMD,
			URL: "stale/SKILL.md", Description: "A skill whose file changed.", Digest: skillsext.FormatDigest(sha256.Sum256([]byte("before")))}}}
		for i := range s.n - 1 {
			ix.Skills = append(ix.Skills, skillsext.IndexEntry{
				Name: fmt.Sprintf("skill-%04d", i), Type: skillsext.TypeSkillMD, URL: fmt.Sprintf("skill-%04d/SKILL.md", i),
				Description: fmt.Sprintf("Read %d, skill %d: %s", read, i, filler),
				Digest:      skillsext.FormatDigest(sha256.Sum256([]byte(fmt.Sprint(i)))),
			})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(ix)
	})
	mux.HandleFunc("/.well-known/agent-skills/stale/SKILL.md", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("after"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// listChanged lists for session, from an index read anew, and makes that
// index stale for the next session.
func listChanged(t *testing.T, p *Provider, session string) {
	t.Helper()
	if _, err := p.List(t.Context(), skills.ListRequest{SessionID: session}); err != nil {
		t.Fatal(err)
	}
	_, _, err := p.Load(t.Context(), skills.LoadRequest{SessionID: session, Name: "stale"})
	if err == nil || !strings.Contains(err.Error(), "does not match the digest") {
		t.Fatalf("Load(stale) = %v, want a digest mismatch", err)
	}
}

// TestPinnedListingsAreBounded: sessions that are never ended, each shown
// a listing of its own (a 1,000-skill index that changes between reads),
// keep no more than the provider's bound (PinnedMaxBytes) alive, however
// many there are; the sessions used last keep their listings.
func TestPinnedListingsAreBounded(t *testing.T) {
	const bound, sessions = 4 << 20, 24
	site := &changingSite{n: 1000}
	p := newTestProvider(t, site.serve(t).URL, func(c *Options) { c.MaxIndexBytes, c.PinnedMaxBytes = 4<<20, bound })
	listChanged(t, p, "warm-up")
	before := liveHeap()
	for i := range sessions {
		listChanged(t, p, fmt.Sprint("s", i))
	}
	grown := liveHeap() - before
	if max := bound + heapSlack; grown > max {
		t.Errorf("%d never-ended sessions with listings of their own grew the heap by %d MiB, more than the bound (%d MiB) and slack (%d MiB)",
			sessions, grown>>20, bound>>20, heapSlack>>20)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.pins.Bytes(); n > bound {
		t.Errorf("the pins account for %d bytes, more than the bound %d", n, bound)
	}
	last := fmt.Sprint("s", sessions-1)
	if p.sessions[last] == nil || p.sessions[fmt.Sprint("s", sessions-2)] == nil {
		t.Errorf("the sessions used last lost their listings")
	}
	if len(p.sessions) == sessions+1 {
		t.Errorf("every session kept its listing")
	}
}
