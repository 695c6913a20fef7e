package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// conceptEmbedder embeds a text as the counts of the words of a few
// concepts it holds: "bill the customer" lands near invoices without a
// word in common. It counts what it was asked.
type conceptEmbedder struct {
	mu        sync.Mutex
	queries   int
	documents int
	fail      error
}

func (c *conceptEmbedder) Embed(_ context.Context, req hostsdk.EmbedRequest) (hostsdk.Embeddings, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return hostsdk.Embeddings{}, c.fail
	}
	if req.Kind == hostsdk.EmbedQuery {
		c.queries++
	} else {
		c.documents += len(req.Texts)
	}
	concepts := [][]string{{"invoice", "invoices", "bill", "billing", "charge"}, {"deploy", "ship", "release"}}
	out := hostsdk.Embeddings{Model: "concepts-1", Vectors: make([][]float32, len(req.Texts))}
	for i, text := range req.Texts {
		v := []float32{0, 0, 0.1}
		for _, w := range strings.Fields(strings.ToLower(text)) {
			for k, words := range concepts {
				for _, cw := range words {
					if strings.Trim(w, ".,:") == cw {
						v[k]++
					}
				}
			}
		}
		out.Vectors[i] = v
	}
	return out, nil
}

// searchHost is a host with the plugin binary mounted with the search
// tool, over three runtime skills, with emb as its embedder (nil: none).
func searchHost(t *testing.T, emb hostsdk.Embedder) *hostsdk.Host {
	t.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, desc := range map[string]string{
		"invoice-pdf": "Create invoices as PDF files.",
		"ship-it":     "Deploy the service to production.",
		"write-verse": "Write a poem.",
	} {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: name, Description: desc, Content: "Do it."}); err != nil {
			t.Fatal(err)
		}
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, &hostsdk.MountOptions{SearchTool: true}); err != nil {
		t.Fatal(err)
	}
	return host
}

func searchNames(t *testing.T, host *hostsdk.Host, query string) []string {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"query": query})
	res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/w", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill_search", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("skill_search %q: %v %s", query, err, res.Text)
	}
	var names []string
	for _, h := range res.Search.Hits {
		names = append(names, h.Name)
	}
	return names
}

// TestSearchWithTheHostsEmbeddings: over the plugin binary, a host's
// embeddings find what no word of the query names; each skill is embedded
// once, each query once.
func TestSearchWithTheHostsEmbeddings(t *testing.T) {
	emb := &conceptEmbedder{}
	host := searchHost(t, emb)
	if got := searchNames(t, host, "bill the customer"); len(got) == 0 || got[0] != "invoice-pdf" {
		t.Errorf("with embeddings: %q", got)
	}
	if got := searchNames(t, host, "ship a release"); len(got) == 0 || got[0] != "ship-it" {
		t.Errorf("with embeddings: %q", got)
	}
	if emb.queries != 2 || emb.documents != 3 {
		t.Errorf("%d queries and %d documents embedded, want 2 and 3", emb.queries, emb.documents)
	}
	// Without an embedder the same query finds nothing: no word matches.
	if got := searchNames(t, searchHost(t, nil), "bill the customer"); len(got) != 0 {
		t.Errorf("without embeddings: %q", got)
	}
	// A failing embedder leaves each search lexical.
	failing := searchHost(t, &conceptEmbedder{fail: errors.New("embedding service down")})
	if got := searchNames(t, failing, "create invoices"); len(got) != 1 || got[0] != "invoice-pdf" {
		t.Errorf("with a failing embedder: %q", got)
	}
}

// TestSearchInADiscoveringMount: a mount whose skills the plugin
// discovers itself searches them too.
func TestSearchInADiscoveringMount(t *testing.T) {
	root := t.TempDir()
	writeSkillFile(t, root, "tax-returns", "Prepare tax returns.", "Check the deductions first.")
	writeSkillFile(t, root, "pdf-forms", "Fill PDF forms.", "Read the fields.")
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountDiscovering(context.Background(), tools.GlobalScope, &hostsdk.MountOptions{SearchTool: true}, hostsdk.Discovery{SkillRoots: []string{root}, HomeDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	// The start of the instructions is searched too.
	if got := searchNames(t, host, "check the deductions"); len(got) == 0 || got[0] != "tax-returns" {
		t.Errorf("discovering mount: %q", got)
	}
}
