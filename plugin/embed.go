package plugin

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/search"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Bounds of the vectors the engine keeps of skills' search documents, by
// model and document: a vector of 1,024 dimensions costs 4 KiB, so the
// bound holds those of some 16,000 skills.
const (
	maxVectors     = 1 << 16
	maxVectorBytes = 64 << 20
)

// embedState is what a mount remembers of its host's embeddings: whether
// the host has none, so that its searches stop asking.
type embedState struct {
	unsupported atomic.Bool
}

// rank returns the catalog entries of v that best match q, at most limit:
// lexically, or fused with the host's semantic ranking when the host
// embeds texts (contract.Embedder). A host whose embedder fails leaves
// the search lexical for that call; one that has none, for the mount's
// life. text is the query as written, which is what is embedded.
func (e *engine) rank(ctx context.Context, host contract.Host, m mount, v *view.View, q search.Query, text string, limit int) []search.Hit {
	em, ok := host.(contract.Embedder)
	ix := v.Index()
	if !ok || m.embed == nil || m.embed.unsupported.Load() || ix == nil {
		return searchView(v, q, limit)
	}
	got, err := em.Embed(ctx, contract.EmbedRequest{Kind: contract.EmbedQuery, Texts: []string{skill.CutText(text, contract.MaxEmbedTextBytes)}})
	if errors.Is(err, contract.ErrNoEmbeddings) {
		m.embed.unsupported.Store(true)
	}
	if err != nil || len(got.Vectors) != 1 {
		return searchView(v, q, limit)
	}
	model := got.Model
	e.embedDocuments(ctx, em, ix, model)
	hits := ix.SearchFused(q, got.Vectors[0], func(k search.Key) []float32 {
		vec, _ := e.vectors.Get(vectorKey(model, k))
		return vec
	}, limit)
	return listedOnly(v, hits)
}

// embedDocuments asks the host for the vectors of the documents of ix it
// does not hold under model, contract.MaxEmbedTexts at a time, and keeps
// them. A failure stops it: documents without a vector rank lexically.
func (e *engine) embedDocuments(ctx context.Context, em contract.Embedder, ix *search.Index, model string) {
	var keys []search.Key
	var texts []string
	flush := func() bool {
		if len(texts) == 0 {
			return true
		}
		got, err := em.Embed(ctx, contract.EmbedRequest{Kind: contract.EmbedDocument, Texts: texts})
		if err != nil || len(got.Vectors) != len(texts) || got.Model != model {
			return false
		}
		for i, k := range keys {
			e.vectors.Add(vectorKey(model, k), got.Vectors[i], 4*len(got.Vectors[i]))
		}
		keys, texts = keys[:0], texts[:0]
		return true
	}
	for k, text := range ix.Documents() {
		if _, ok := e.vectors.Get(vectorKey(model, k)); ok {
			continue
		}
		keys, texts = append(keys, k), append(texts, skill.CutText(text, contract.MaxEmbedTextBytes))
		if len(texts) == contract.MaxEmbedTexts && !flush() {
			return
		}
	}
	flush()
}

// vectorKey keys a document's vector by the model that made it.
func vectorKey(model string, k search.Key) [16]byte {
	h := xxh3.New128()
	_, _ = h.WriteString(model)
	b := k.Bytes()
	_, _ = h.Write(b[:])
	return h.Sum128().Bytes()
}
