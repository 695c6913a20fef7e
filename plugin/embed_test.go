package plugin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// embedHost is a memHost with a scripted embedder: a text's vector counts
// the words of each of a few concepts it holds, so "bill the customer"
// lands near invoices without sharing a word with them.
type embedHost struct {
	*memHost
	err       error
	model     string
	calls     int // Embed calls, failed ones too
	queries   int
	documents int // texts embedded as documents
}

var concepts = [][]string{
	{"invoice", "invoices", "bill", "billing", "payment", "charge"},
	{"deploy", "release", "ship", "publish"},
	{"poem", "verse", "rhyme"},
}

func (h *embedHost) Embed(_ context.Context, req contract.EmbedRequest) (contract.Embeddings, error) {
	h.calls++
	if h.err != nil {
		return contract.Embeddings{}, h.err
	}
	if req.Kind == contract.EmbedQuery {
		h.queries++
	} else {
		h.documents += len(req.Texts)
	}
	out := contract.Embeddings{Model: h.model, Vectors: make([][]float32, len(req.Texts))}
	for i, text := range req.Texts {
		v := make([]float32, len(concepts)+1)
		v[len(concepts)] = 0.1 // never a zero vector
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
			for c, words := range concepts {
				for _, cw := range words {
					if w == cw {
						v[c]++
					}
				}
			}
		}
		out.Vectors[i] = v
	}
	return out, nil
}

func embedLibrary() []skill.Summary {
	return []skill.Summary{
		summary("invoice-pdf", "Create invoices as PDF files."),
		summary("ship-it", "Deploy the service to production."),
		summary("write-verse", "Write a poem."),
	}
}

func embedMount() mount {
	m := searchMount()
	m.embed = new(embedState)
	return m
}

func TestSearchFusesTheHostsEmbeddings(t *testing.T) {
	t.Parallel()
	h := &embedHost{memHost: newMemHost(embedLibrary()...), model: "m1"}
	e := newEngine()
	m := embedMount()
	// "customer" and "bill" are in no description: only the embeddings
	// find invoices.
	res, err := e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "bill the customer"}`))
	if err != nil || res.IsError || len(res.Search.Hits) == 0 || res.Search.Hits[0].Name != "invoice-pdf" {
		t.Fatalf("%+v, %v", res.Search, err)
	}
	if h.queries != 1 || h.documents != 3 {
		t.Errorf("%d query and %d document embeddings, want 1 and 3", h.queries, h.documents)
	}
	// A second search embeds its query only; a changed skill is embedded
	// again, alone.
	e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "ship the release"}`))
	if h.queries != 2 || h.documents != 3 {
		t.Errorf("after a second search: %d and %d", h.queries, h.documents)
	}
	h.skills = append(embedLibrary()[:2], summary("write-verse", "Write a poem that rhymes."))
	h.token = "tok-2"
	e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "a rhyme"}`))
	if h.documents != 4 {
		t.Errorf("after one skill changed: %d documents embedded, want 4", h.documents)
	}
	// A new model makes every vector new.
	h.model = "m2"
	e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "a rhyme"}`))
	if h.documents != 7 {
		t.Errorf("after a new model: %d documents embedded, want 7", h.documents)
	}
}

func TestSearchWithoutEmbeddings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		err       error
		wantCalls int // embeddings asked for over two searches
	}{
		{"a host without an embedder", contract.ErrNoEmbeddings, 1},
		{"a failing embedder", errors.New("embedding service down"), 2},
	} {
		h := &embedHost{memHost: newMemHost(embedLibrary()...), err: tc.err}
		e, m := newEngine(), embedMount()
		for range 2 {
			res, err := e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "create invoices"}`))
			if err != nil || res.IsError || len(res.Search.Hits) != 1 || res.Search.Hits[0].Name != "invoice-pdf" {
				t.Errorf("%s: %+v, %v; want the lexical answer", tc.name, res.Search, err)
			}
		}
		if h.calls != tc.wantCalls {
			t.Errorf("%s: %d Embed calls, want %d", tc.name, h.calls, tc.wantCalls)
		}
		if m.embed.unsupported.Load() != errors.Is(tc.err, contract.ErrNoEmbeddings) {
			t.Errorf("%s: marked unsupported %v", tc.name, m.embed.unsupported.Load())
		}
	}
}
