package webskills

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// fixtureSkills is the directory of the skills the tests publish: a
// skill-md skill (code-review) and an archive skill (wrangler).
const fixtureSkills = "../../testdata/webskills/skills"

// publishFixtures publishes the fixture skills into a fresh tree and
// returns its root.
func publishFixtures(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(fixtureSkills)
	if err != nil {
		t.Fatal(err)
	}
	var list []PublishSkill
	for _, e := range entries {
		list = append(list, PublishSkill{Name: e.Name(), Dir: filepath.Join(fixtureSkills, e.Name())})
	}
	if _, err := Publish(out, list); err != nil {
		t.Fatal(err)
	}
	return out
}

// serveDir serves dir as a static site on the loopback interface.
func serveDir(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// newTestProvider reads the site at url, labelled docs, with plain http
// allowed for it.
func newTestProvider(t *testing.T, url string, mods ...func(*Options)) *Provider {
	t.Helper()
	cfg := Options{URL: url, Label: "docs", AllowHTTP: true}
	for _, m := range mods {
		m(&cfg)
	}
	p, err := New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// list lists for session s1 and requires a complete observation.
func list(t *testing.T, p *Provider) skills.Observation {
	t.Helper()
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1", Cwd: "/w"})
	if err != nil || !obs.Complete {
		t.Fatalf("List = %+v, %v", obs, err)
	}
	return obs
}

// load loads name for session s1.
func load(t *testing.T, p *Provider, name string) (string, error) {
	t.Helper()
	def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Cwd: "/w", Name: name})
	if err == nil && !found {
		t.Fatalf("Load(%s): not found", name)
	}
	return def.Content, err
}

// writeTestFile writes data to dir/rel, making its directories.
func writeTestFile(t *testing.T, dir, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
