package hostsdk_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// TestPluginDiscoveryReadsAWebsite: a discovering mount whose discovery
// configuration names a website (the short path's `websites` key) lists
// and loads the site's skills, in the plugin process and in process,
// exactly as a Go host with the website provider in its own registry:
// the same steps, tool answers and session logs, byte for byte.
func TestPluginDiscoveryReadsAWebsite(t *testing.T) {
	site := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("..", "testdata", "webskills", "rfc", "agent-skills-nextjs"))))
	t.Cleanup(site.Close)
	w := &discoveryWorld{cwd: t.TempDir(), discovery: hostsdk.Discovery{
		Websites: []hostsdk.DiscoveryWebsite{{URL: site.URL, Label: "docs", RequestTimeoutMs: 10000}},
	}}

	reg := skilltest.NewRegistry(t)
	web, err := webskills.New(&webskills.Options{URL: site.URL, Label: "docs", AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { web.Close() })
	reg.AddProvider(tools.GlobalScope, web, &skills.ProviderOptions{Label: "docs"})
	reference := newComparedHost(t, "go-sdk", reg, nil)
	p, err := reference.host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, &mountConfig); err != nil {
		t.Fatal(err)
	}
	hosts := []*comparedHost{
		reference,
		discoveringHost(t, "plugin-process", w, pluginproc.Binary{Path: pluginPath}),
		discoveringHost(t, "in-process", w, nil),
	}

	first := same(t, "the first step", hosts, func(h *comparedHost) stepOutcome {
		return h.step(t, w, 1, text("u1", contract.RoleUser, "Review my change.", true))
	})
	if got, want := catalogNames(t, first), []string{"code-review", "git-workflow"}; first.Outcome != hostsdk.OutcomeInitial || !slices.Equal(got, want) {
		t.Fatalf("first step: %s listing %v, want initial listing %v", first.Outcome, got, want)
	}
	if catalog := first.Decision.Messages[1].Text(); !strings.Contains(catalog, "(website `docs`)") {
		t.Errorf("the catalog does not name the website:\n%s", catalog)
	}
	loaded := same(t, "skill code-review", hosts, func(h *comparedHost) hostsdk.ToolResult {
		return h.call(t, w, "skill", map[string]any{"name": "code-review"})
	})
	if loaded.IsError || !strings.Contains(loaded.Text, "Report each problem with its file and line.") {
		t.Errorf("loading the website's skill: error %v:\n%s", loaded.IsError, loaded.Text)
	}
	same(t, "the session log", hosts, func(h *comparedHost) any { return h.events(t) })
}
