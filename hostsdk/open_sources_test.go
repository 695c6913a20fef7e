package hostsdk_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// servePublishedSite serves the repository's published example site (what
// `skillcatalog publish` writes) over plain HTTP on loopback.
func servePublishedSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("..", "testdata", "webskills", "published"))))
	t.Cleanup(srv.Close)
	return srv.URL
}

// serveRemoteSkills serves the repository's example remote skills with the
// in-repo MCP skill server (what `skillcatalog serve-mcp` serves).
func serveRemoteSkills(t *testing.T) string {
	t.Helper()
	handler, err := skillserver.NewDir(filepath.Join("..", "testdata", "remote-skills")).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv.URL
}

// firstCatalog runs one step on a new session of host and returns the
// catalog the plugin published.
func firstCatalog(t *testing.T, host *hostsdk.Host) string {
	t.Helper()
	s := host.Session("s1", &hostsdk.SessionOptions{Cwd: t.TempDir()})
	res, err := s.Sync(context.Background(), []hostsdk.Message{userMsg("Which skills are there?")})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.View {
		if v.Plugin && strings.Contains(v.Message.Text(), "<available_skills>") {
			return v.Message.Text()
		}
	}
	t.Fatalf("the step published no catalog: %+v", res.View)
	return ""
}

// TestOpenAddsWebsitesMCPServersAndProviders: the skills of a website, of
// an MCP server and of a host's own provider, each named in one option,
// join the catalog beside the skill directories', a remote one named by
// its label.
func TestOpenAddsWebsitesMCPServersAndProviders(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	own, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{mustAbs(t, "../testdata/webskills/skills")}})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	host, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{
		SkillDirs:  []string{"../testdata/skills"},
		Websites:   []webskills.Options{{URL: servePublishedSite(t), Label: "docs", AllowHTTP: true}},
		MCPServers: []mcpskills.Options{{URL: serveRemoteSkills(t), Label: "tools"}},
		Providers:  []skills.Provider{own},
		Logger:     slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	catalog := firstCatalog(t, host)
	for _, want := range []string{"`pdf-forms`", "(website `docs`)", "(MCP server `tools`)", "`data-export` (MCP server `tools`)"} {
		if !strings.Contains(catalog, want) {
			t.Errorf("the catalog does not hold %s:\n%s", want, catalog)
		}
	}
	// The host's own provider serves code-review and wrangler too, under
	// their plain names; the website's are then qualified by its label.
	for _, want := range []string{"`code-review`", "`docs:code-review` (website `docs`)"} {
		if !strings.Contains(catalog, want) {
			t.Errorf("the catalog does not hold %s:\n%s", want, catalog)
		}
	}
}

// TestOpenRefusesRemoteSourcesItCannotTellApart: two remote sources under
// one label would name their skills alike; Open says which option to
// change, and a source's own configuration error names it too.
func TestOpenRefusesRemoteSourcesItCannotTellApart(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range []struct {
		opts hostsdk.OpenOptions
		want string
	}{
		{hostsdk.OpenOptions{Websites: []webskills.Options{{URL: "https://a.example"}, {URL: "https://b.example"}}},
			`hostsdk: OpenOptions.Websites[1].Label "web" is OpenOptions.Websites[0]'s already: each remote source needs a label of its own`},
		{hostsdk.OpenOptions{Websites: []webskills.Options{{URL: "https://a.example", Label: "docs"}}, MCPServers: []mcpskills.Options{{URL: "https://b.example/mcp", Label: "docs"}}},
			`hostsdk: OpenOptions.MCPServers[0].Label "docs" is OpenOptions.Websites[0]'s already`},
		{hostsdk.OpenOptions{Websites: []webskills.Options{{URL: "ftp://a.example"}}}, "hostsdk: OpenOptions.Websites[0]: webskills:"},
		{hostsdk.OpenOptions{MCPServers: []mcpskills.Options{{}}}, "hostsdk: OpenOptions.MCPServers[0]: mcpskills:"},
	} {
		c.opts.Logger = slog.New(slog.DiscardHandler)
		host, err := hostsdk.Open(context.Background(), &c.opts)
		if err == nil {
			host.Close()
			t.Errorf("Open(%+v) succeeded; want %q", c.opts, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%+v): %v; want %q", c.opts, err, c.want)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
