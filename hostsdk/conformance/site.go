package conformance

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// siteSpec is a website whose skills a real web provider (skill/webskills)
// reads (site): a static tree served from loopback.
type siteSpec struct {
	ID           string   `yaml:"id"`
	Scope        string   `yaml:"scope"`
	Label        string   `yaml:"label"`
	Dir          string   `yaml:"dir"`
	Rank         int      `yaml:"rank"`
	Availability string   `yaml:"availability"`
	Down         bool     `yaml:"down"`
	Pos          position `yaml:"-"`
}

// sites checks the scenario's sites and resolves each dir against the
// scenario file's directory.
func (c *checker) sites() error {
	seen := map[string]bool{}
	for i := range c.s.Sites {
		st := &c.s.Sites[i]
		if st.ID == "" || seen[st.ID] || c.providers[st.ID] {
			return c.errorf(st.Pos, "site id %q is empty or taken by another site or provider", st.ID)
		}
		seen[st.ID] = true
		if st.Label == "" {
			st.Label = st.ID
		}
		if !skill.ValidLabel(st.Label) {
			return c.errorf(st.Pos, "site %q: label %q is not a label (%s, at most %d bytes)", st.ID, st.Label, skill.NamePattern, skill.MaxNameLength)
		}
		if st.Scope == "" {
			st.Scope = "global"
		}
		if err := c.scope(st.Pos, st.Scope); err != nil {
			return err
		}
		switch st.Availability {
		case "", availabilityStrict, availabilityBestEffort:
		default:
			return c.errorf(st.Pos, "site %q: availability %q is not one of %s, %s", st.ID, st.Availability, availabilityStrict, availabilityBestEffort)
		}
		if st.Dir == "" {
			return c.errorf(st.Pos, "site %q: dir is required (the served tree, relative to the scenario file)", st.ID)
		}
		st.Dir = filepath.Join(filepath.Dir(c.s.File), filepath.FromSlash(st.Dir))
		if fi, err := os.Stat(st.Dir); err != nil || !fi.IsDir() {
			return c.errorf(st.Pos, "site %q: dir %s is not a directory", st.ID, st.Dir)
		}
	}
	return nil
}

// site is a running site and the provider that reads it.
type site struct {
	srv      *httptest.Server
	provider *webskills.Provider
}

func (s *site) close() {
	_ = s.provider.Close()
	s.srv.Close()
}

// startSite serves spec's tree and attaches a web provider for it. A site
// that is down answers every request by dropping the connection.
func (e *env) startSite(spec siteSpec) error {
	files := http.FileServer(http.Dir(spec.Dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if spec.Down {
			panic(http.ErrAbortHandler)
		}
		files.ServeHTTP(w, r)
	}))
	p, err := webskills.New(&webskills.Options{URL: srv.URL, Label: spec.Label, AllowHTTP: true})
	if err != nil {
		srv.Close()
		return fmt.Errorf("site %q: %w", spec.ID, err)
	}
	e.sites = append(e.sites, &site{srv: srv, provider: p})
	e.reg.AddProvider(spec.Scope, p, &skills.ProviderOptions{Rank: spec.Rank, Label: spec.Label, Availability: availability(spec.Availability)})
	return nil
}
