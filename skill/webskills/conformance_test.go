package webskills

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// liveSite is a site whose skills a test changes while the provider reads
// it: one skill-md skill per name, the index marked stale at once
// (Cache-Control: no-cache), and reads of the index or of one skill's
// SKILL.md that can be made to block.
type liveSite struct {
	mu      sync.Mutex
	skills  map[string]string // name → description
	block   string            // a path whose requests block, or ""
	started chan string
	// released is closed when blocked requests may go on.
	released chan struct{}
}

func (s *liveSite) skillMD(name string) []byte {
	return []byte("---\nname: " + name + "\ndescription: " + s.skills[name] + "\n---\n# " + name + "\n")
}

func (s *liveSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	blocked, released := s.block != "" && s.block == r.URL.Path, s.released
	s.mu.Unlock()
	if blocked {
		s.started <- r.URL.Path
		select {
		case <-r.Context().Done():
			return
		case <-released:
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.URL.Path == "/.well-known/agent-skills/index.json" {
		ix := skillsext.Index{Schema: skillsext.SchemaV2, Skills: []skillsext.IndexEntry{}}
		for name, desc := range s.skills {
			ix.Skills = append(ix.Skills, skillsext.IndexEntry{Name: name, Type: skillsext.TypeSkillMD, Description: desc, URL: name + "/SKILL.md", Digest: skillsext.FormatDigest(sha256.Sum256(s.skillMD(name)))})
		}
		w.Header().Set("Cache-Control", "no-cache")
		_ = json.NewEncoder(w).Encode(ix)
		return
	}
	name, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/.well-known/agent-skills/"), "/SKILL.md")
	if _, listed := s.skills[name]; !ok || !listed {
		http.NotFound(w, r)
		return
	}
	_, _ = w.Write(s.skillMD(name))
}

// TestProviderConformance runs the provider suite against a live site.
func TestProviderConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("lists wait for MinRefresh between reads of the index")
	}
	skilltest.RunProvider(t, func(t *testing.T) skilltest.Harness {
		site := &liveSite{skills: map[string]string{}, started: make(chan string, 16)}
		srv := httptest.NewServer(site)
		t.Cleanup(srv.Close)
		p := newTestProvider(t, srv.URL)
		return skilltest.Harness{
			Provider: p,
			SetSkill: func(t *testing.T, name, description string) {
				site.mu.Lock()
				site.skills[name] = description
				site.mu.Unlock()
			},
			RemoveSkill: func(t *testing.T, name string) {
				site.mu.Lock()
				delete(site.skills, name)
				site.mu.Unlock()
			},
			Block: func(t *testing.T, op skilltest.Op, name string) (func(context.Context) error, func()) {
				path := "/.well-known/agent-skills/index.json"
				if op == skilltest.OpLoad {
					path = "/.well-known/agent-skills/" + name + "/SKILL.md"
					p.artifacts.Purge() // a cached copy would not block
				} else {
					p.stale() // a fresh index would not be read
				}
				site.mu.Lock()
				site.block, site.released = path, make(chan struct{})
				site.mu.Unlock()
				started := func(ctx context.Context) error {
					select {
					case <-site.started:
						return nil
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				return started, func() {
					site.mu.Lock()
					site.block = ""
					close(site.released)
					site.mu.Unlock()
				}
			},
			SessionState: func(id string) bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				return p.sessions[id] != nil
			},
		}
	})
}
