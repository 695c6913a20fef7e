package search

import (
	"cmp"
	"iter"
	"math"
	"slices"

	"github.com/zeebo/xxh3"
)

// Key identifies what a skill's document was built from: the same key
// means the same indexed text, so a vector computed for it stays valid.
type Key = xxh3.Uint128

// Documents yields every skill of ix, in no particular order, with its
// key and the text a semantic ranking embeds for it: its name and
// description.
func (ix *Index) Documents() iter.Seq2[Key, string] {
	return func(yield func(Key, string) bool) {
		for name, ref := range ix.live {
			d := &ix.segs[ref.seg].docs[ref.doc]
			if !yield(d.key, name+": "+d.hit.Description) {
				return
			}
		}
	}
}

// rrfK is reciprocal rank fusion's constant: a hit at rank r (from 1)
// counts 1/(rrfK+r) in each ranking that holds it.
const rrfK = 60

// FuseDepth is how many hits of each ranking a fused search considers.
const FuseDepth = 50

// SearchFused returns the skills of ix that best match q, fusing its
// lexical ranking with a semantic one by reciprocal rank fusion: query is
// the query's vector, and vector returns a skill's, or nil when it has
// none (such a skill is ranked lexically only). Hits found by the semantic
// ranking alone have no Relevance. Ties are broken by name.
func (ix *Index) SearchFused(q Query, query []float32, vector func(Key) []float32, limit int) []Hit {
	if limit <= 0 || len(ix.live) == 0 {
		return nil
	}
	lexical := ix.Search(q, FuseDepth)
	type scored struct {
		hit Hit
		sim float64
	}
	var near []scored
	for _, ref := range ix.live {
		d := &ix.segs[ref.seg].docs[ref.doc]
		v := vector(d.key)
		if v == nil {
			continue
		}
		near = append(near, scored{hit: d.hit, sim: cosine(query, v)})
	}
	slices.SortFunc(near, func(a, b scored) int {
		if c := cmp.Compare(b.sim, a.sim); c != 0 {
			return c
		}
		return cmp.Compare(a.hit.Name, b.hit.Name)
	})
	fused := make(map[string]*Hit, 2*FuseDepth)
	for r, h := range lexical {
		h.Score = 1 / float64(rrfK+r+1)
		fused[h.Name] = &h
	}
	for r, s := range near[:min(len(near), FuseDepth)] {
		if h, ok := fused[s.hit.Name]; ok {
			h.Score += 1 / float64(rrfK+r+1)
			continue
		}
		h := s.hit
		h.Score = 1 / float64(rrfK+r+1)
		fused[h.Name] = &h
	}
	out := make([]Hit, 0, len(fused))
	for _, h := range fused {
		out = append(out, *h)
	}
	slices.SortFunc(out, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out[:min(len(out), limit)]
}

// cosine is the cosine similarity of two vectors; 0 when they differ in
// length or either is zero.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
