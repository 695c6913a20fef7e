package webskills

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// legacySite is a site that publishes one skill, notes, in the v0.1.0
// layout only, and lets a test change it. Each response carries the
// Cache-Control the test sets and an ETag of its bytes, and a request
// whose If-None-Match holds that ETag is answered 304.
type legacySite struct {
	mu           sync.Mutex
	desc, body   string
	cacheControl string // of SKILL.md; the index's is always no-cache
	fileGets     int    // SKILL.md requests answered 200
	fileNotMod   int    // SKILL.md requests answered 304
}

func (s *legacySite) set(desc, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.desc, s.body = desc, body
}

func (s *legacySite) counts() (gets, notModified int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fileGets, s.fileNotMod
}

func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

func (s *legacySite) serve(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/skills/index.json", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		doc := skillsext.LegacyIndex{Skills: []skillsext.LegacyIndexEntry{{Name: "notes", Description: s.desc, Files: []string{"SKILL.md"}}}}
		s.mu.Unlock()
		data, _ := json.Marshal(doc)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etagOf(data))
		if r.Header.Get("If-None-Match") == etagOf(data) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(data)
	})
	mux.HandleFunc("/.well-known/skills/notes/SKILL.md", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		data := []byte("---\nname: notes\ndescription: " + s.desc + "\n---\n" + s.body + "\n")
		if s.cacheControl != "" {
			w.Header().Set("Cache-Control", s.cacheControl)
		}
		w.Header().Set("ETag", etagOf(data))
		if r.Header.Get("If-None-Match") == etagOf(data) {
			s.fileNotMod++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		s.fileGets++
		_, _ = w.Write(data)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// listFor lists for session and returns the one skill's description.
func listFor(t *testing.T, p *Provider, session string) string {
	t.Helper()
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: session, Cwd: "/w"})
	if err != nil || len(obs.Skills) != 1 {
		t.Fatalf("List(%s) = %+v, %v", session, obs, err)
	}
	return obs.Skills[0].Description
}

// loadFor loads notes for session and returns its instructions.
func loadFor(t *testing.T, p *Provider, session string) string {
	t.Helper()
	def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: session, Cwd: "/w", Name: "notes"})
	if err != nil || !found {
		t.Fatalf("Load(%s, notes) = %v, %v", session, found, err)
	}
	return strings.TrimSpace(def.Content)
}

// waitStale waits until the provider says its listing may have changed:
// the index it listed from is no longer fresh.
func waitStale(t *testing.T, stale <-chan struct{}) {
	t.Helper()
	select {
	case <-stale:
	case <-time.After(30 * time.Second):
		t.Fatal("the index never went stale")
	}
}

// TestLegacySkillFileIsRevalidated: a v0.1.0 site has no digests, so its
// SKILL.md is cached by URL and must follow HTTP's caching rules. Under
// Cache-Control: no-cache every load asks the site again, conditionally
// (a 304 keeps the copy); after the site changed the file and its index,
// the new instructions load with the new description, in the session that
// listed the change and in a new one.
func TestLegacySkillFileIsRevalidated(t *testing.T) {
	site := &legacySite{cacheControl: "no-cache"}
	site.set("Take notes, version one.", "Write notes the first way.")
	p := newTestProvider(t, site.serve(t).URL)
	stale := make(chan struct{}, 16)
	p.SetInvalidate(func() { stale <- struct{}{} })

	if d := listFor(t, p, "s1"); d != "Take notes, version one." {
		t.Fatalf("description %q", d)
	}
	for range 2 {
		if got := loadFor(t, p, "s1"); got != "Write notes the first way." {
			t.Fatalf("instructions %q", got)
		}
	}
	if gets, notMod := site.counts(); gets != 1 || notMod != 1 {
		t.Errorf("SKILL.md answered %d times 200 and %d times 304, want once each: no-cache revalidates", gets, notMod)
	}

	site.set("Take notes, version two.", "Write notes the second way.")
	waitStale(t, stale)
	if d := listFor(t, p, "s1"); d != "Take notes, version two." {
		t.Fatalf("description after the change %q", d)
	}
	if got := loadFor(t, p, "s1"); got != "Write notes the second way." {
		t.Errorf("instructions after the change %q, want the site's new ones", got)
	}
	listFor(t, p, "s2")
	if got := loadFor(t, p, "s2"); got != "Write notes the second way." {
		t.Errorf("a new session's instructions %q, want the site's new ones", got)
	}
	// The file read as a resource is the same file, under the same rule.
	data, err := p.ReadSkillResource(t.Context(), skills.ResourceRequest{SessionID: "s2", Name: "notes", Path: "SKILL.md"})
	if err != nil || !strings.Contains(string(data), "Write notes the second way.") {
		t.Errorf("ReadSkillResource(notes, SKILL.md) = %q, %v; want the site's new file", data, err)
	}
}

// TestLegacySkillFileFollowsItsIndex: a SKILL.md whose response says
// nothing of its freshness, or that it is fresh for an hour, is used from
// the cache while the index it was fetched under is the one listed; once
// the site's index changes, it is asked for again (conditionally).
func TestLegacySkillFileFollowsItsIndex(t *testing.T) {
	for _, cc := range []string{"", "max-age=3600"} {
		t.Run("Cache-Control="+cc, func(t *testing.T) {
			site := &legacySite{cacheControl: cc}
			site.set("Take notes, version one.", "Write notes the first way.")
			p := newTestProvider(t, site.serve(t).URL)
			stale := make(chan struct{}, 16)
			p.SetInvalidate(func() { stale <- struct{}{} })

			listFor(t, p, "s1")
			for range 2 {
				if got := loadFor(t, p, "s1"); got != "Write notes the first way." {
					t.Fatalf("instructions %q", got)
				}
			}
			if gets, notMod := site.counts(); gets != 1 || notMod != 0 {
				t.Errorf("SKILL.md answered %d times 200 and %d times 304, want one request while fresh", gets, notMod)
			}
			// The index is read again (no-cache) and has not changed: the
			// file is still fresh.
			waitStale(t, stale)
			listFor(t, p, "s1")
			loadFor(t, p, "s1")
			if gets, notMod := site.counts(); gets != 1 || notMod != 0 {
				t.Errorf("after an unchanged index: %d times 200 and %d times 304, want no new request", gets, notMod)
			}

			site.set("Take notes, version two.", "Write notes the second way.")
			waitStale(t, stale)
			listFor(t, p, "s1")
			if got := loadFor(t, p, "s1"); got != "Write notes the second way." {
				t.Errorf("instructions after the index changed %q, want the site's new ones", got)
			}
		})
	}
}

// TestDigestedArtifactStaysContentKeyed: a v0.2.0 artifact is cached by
// its digest: an index read again, changed or not, with the same digest
// loads it from the cache without a request.
func TestDigestedArtifactStaysContentKeyed(t *testing.T) {
	var mu sync.Mutex
	desc, fileGets := "Skill packed.", 0
	md := []byte(skillMD)
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/agent-skills/index.json", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Cache-Control", "no-cache")
		_ = json.NewEncoder(w).Encode(skillsext.Index{Schema: skillsext.SchemaV2, Skills: []skillsext.IndexEntry{{
			Name: "packed", Type: skillsext.TypeSkillMD, Description: desc, URL: "packed/SKILL.md",
			Digest: skillsext.FormatDigest(sha256.Sum256(md)),
		}}})
	})
	mux.HandleFunc("/.well-known/agent-skills/packed/SKILL.md", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fileGets++
		mu.Unlock()
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(md)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p := newTestProvider(t, srv.URL)
	stale := make(chan struct{}, 16)
	p.SetInvalidate(func() { stale <- struct{}{} })
	list(t, p)
	if _, err := load(t, p, "packed"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	desc = "Skill packed, described anew."
	mu.Unlock()
	waitStale(t, stale)
	if obs := list(t, p); obs.Skills[0].Description != "Skill packed, described anew." {
		t.Fatalf("description %q", obs.Skills[0].Description)
	}
	if _, err := load(t, p, "packed"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fileGets != 1 {
		t.Errorf("the artifact was fetched %d times, want once: it is keyed by its digest", fileGets)
	}
}
