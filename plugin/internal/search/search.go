package search

import (
	"math"
	"slices"
	"strings"
	"sync"
)

// MaxQueryBytes bounds the text a search reads of a query: a request
// longer than that is searched by its start.
const MaxQueryBytes = 4 << 10

// queryTerm is a distinct term of a query and how much it counts.
type queryTerm struct {
	term   string
	weight float64
}

// Query is an analyzed query, ready to run against any index.
type Query struct {
	terms []queryTerm
	seq   []string // the query's terms in order, for phrases
}

// ParseQuery analyzes a query: its terms, each counted once, those that
// appear only inside a quotation counting quotedWeight. Text past
// MaxQueryBytes is not read.
func ParseQuery(text string) Query {
	if len(text) > MaxQueryBytes {
		text = text[:MaxQueryBytes]
	}
	a := newAnalyzer()
	var q Query
	a.terms(text, func(t string) { q.seq = append(q.seq, t) })
	outside := make(map[string]bool)
	if strings.ContainsAny(text, `'"“`) && quotation.MatchString(text) {
		a.terms(quotation.ReplaceAllString(text, " "), func(t string) { outside[t] = true })
	}
	for _, t := range q.seq {
		if slices.ContainsFunc(q.terms, func(x queryTerm) bool { return x.term == t }) {
			continue
		}
		w := 1.0
		if len(outside) > 0 && !outside[t] {
			w = quotedWeight
		}
		q.terms = append(q.terms, queryTerm{term: t, weight: w})
	}
	return q
}

// IsEmpty reports whether q has no terms to search for: every word of it
// is a stop word, or it has none.
func (q Query) IsEmpty() bool { return len(q.terms) == 0 }

// scratch is the per-search working memory, pooled: a score per document
// of the index, the documents with one, and one term's matches.
type scratch struct {
	matched []uint8 // distinct full-weight query terms a document holds
	factors []float32
	scores  []float32
	touched []uint32
	// postings are the postings lists of the term being scored, one per
	// segment.
	postings []postings
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// Search returns the skills of ix that best match q, best first, at most
// limit, and only those with a positive score. Ties are broken by name,
// so the same skills and query always give the same hits, however the
// index was built. Each hit's Relevance says how much of the query it
// matches.
func (ix *Index) Search(q Query, limit int) []Hit {
	if len(ix.live) == 0 || q.IsEmpty() || limit <= 0 {
		return nil
	}
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	sc.reset(ix.total)
	bound := ix.score(q, sc)
	return ix.top(sc, sc.coordinationFactors(q), limit, bound)
}

func (sc *scratch) reset(n int) {
	if cap(sc.scores) < n {
		sc.scores = make([]float32, n)
	}
	sc.scores = sc.scores[:n]
	if cap(sc.matched) < n {
		sc.matched = make([]uint8, n)
	}
	sc.matched = sc.matched[:n]
	sc.touched = sc.touched[:0]
}

// score adds q's score, before coordination, to every document of ix in
// sc, and returns the
// score a skill would have if it held every term of q without limit (a
// term the index does not hold counting as the rarest), which Relevance
// is a share of.
func (ix *Index) score(q Query, sc *scratch) (bound float64) {
	n := float64(len(ix.live))
	idf := make(map[string]float64, len(q.terms))
	for _, t := range q.terms {
		df := ix.df(t.term, sc)
		v := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		idf[t.term] = v
		bound += t.weight * v
		if df > 0 {
			ix.accumulate(sc, float32(t.weight*v), t.weight == 1)
		}
	}
	ix.addPhrases(sc, q.seq, idf)
	return bound
}

// df returns how many live documents hold term, and leaves in sc.postings
// the term's postings list of each segment (nil where it has none).
func (ix *Index) df(term string, sc *scratch) int {
	sc.postings = sc.postings[:0]
	df := 0
	for si, s := range ix.segs {
		p, ok := s.terms[term]
		sc.postings = append(sc.postings, p)
		if !ok {
			continue
		}
		if ix.dead[si] == 0 {
			df += len(p.docs)
			continue
		}
		replaced := ix.replaced[si]
		for _, d := range p.docs {
			if replaced[d/64]&(1<<(d%64)) == 0 {
				df++
			}
		}
	}
	return df
}

// accumulate adds to the score of each live document of sc.postings the
// term's weighted BM25F contribution, w times its saturated frequency
// (the frequency of each field weighted and length-normalized), and
// counts the term among those the document holds when it counts whole.
func (ix *Index) accumulate(sc *scratch, w float32, whole bool) {
	for si, p := range sc.postings {
		base, replaced, dead := ix.bases[si], ix.replaced[si], ix.dead[si] > 0
		sat := ix.sats[si][p.off : int(p.off)+len(p.docs)]
		for j, d := range p.docs {
			if dead && replaced[d/64]&(1<<(d%64)) != 0 {
				continue
			}
			g := base + d
			if sc.scores[g] == 0 {
				sc.touched = append(sc.touched, g)
			}
			sc.scores[g] += w * sat[j]
			if whole && sc.matched[g] < 255 {
				sc.matched[g]++
			}
		}
	}
}

// coordinationFactors returns, by the number m of q's distinct
// full-weight terms (quoted ones aside) a document holds, what its score is
// scaled by: ((m+1)/(n+1))^coordination for m of n terms, at most 1. A
// skill that matches more of what the request asks for ranks above one
// that matches a single rare word many times.
func (sc *scratch) coordinationFactors(q Query) []float32 {
	n := 0
	for _, t := range q.terms {
		if t.weight == 1 {
			n++
		}
	}
	n = min(n, 255) // as matched counts
	factor := sc.factors[:0]
	for m := 0; m <= n; m++ {
		factor = append(factor, float32(math.Pow(float64(m+1)/float64(n+1), coordination)))
	}
	sc.factors = factor
	return factor
}

// addPhrases adds to each document the bonus of its best trigger phrase
// that the query holds in order.
func (ix *Index) addPhrases(sc *scratch, seq []string, idf map[string]float64) {
	var bonus map[uint32]float64
	for start, first := range seq {
		for si, s := range ix.segs {
			for _, ref := range s.phrases[first] {
				if ix.isReplaced(si, ref.doc) {
					continue
				}
				p := s.docs[ref.doc].phrases[ref.phrase]
				if !holdsInOrder(seq[start:], p) {
					continue
				}
				v := 0.0
				for _, t := range p {
					v += idf[t]
				}
				if bonus == nil {
					bonus = make(map[uint32]float64)
				}
				g := ix.bases[si] + ref.doc
				bonus[g] = max(bonus[g], v)
			}
		}
	}
	for g, v := range bonus {
		if sc.scores[g] == 0 {
			sc.touched = append(sc.touched, g)
		}
		sc.scores[g] += float32(phraseWeight * v)
	}
}

// holdsInOrder reports whether seq, which starts with phrase's first term,
// holds the phrase's other terms in order, within phraseGap extra terms.
func holdsInOrder(seq, phrase []string) bool {
	j := 1
	for k := 1; k < len(seq) && j < len(phrase) && k < len(phrase)+phraseGap; k++ {
		if seq[k] == phrase[j] {
			j++
		}
	}
	return j == len(phrase)
}

// top returns the best limit documents with a positive score, each
// scaled by its coordination factor, and clears sc's scores and counts.
func (ix *Index) top(sc *scratch, factor []float32, limit int, bound float64) []Hit {
	type scored struct {
		g uint32
		v float32
	}
	better := func(a, b scored) bool {
		if a.v != b.v {
			return a.v > b.v
		}
		return ix.doc(a.g).hit.Name < ix.doc(b.g).hit.Name
	}
	n := len(factor) - 1
	best := make([]scored, 0, limit+1)
	var floor float32 // the score of the last of a full best; below it, nothing enters
	for _, g := range sc.touched {
		c := scored{g: g, v: sc.scores[g] * factor[min(int(sc.matched[g]), n)]}
		sc.scores[g], sc.matched[g] = 0, 0
		if c.v <= 0 || (len(best) == limit && (c.v < floor || !better(c, best[limit-1]))) {
			continue
		}
		i, _ := slices.BinarySearchFunc(best, c, func(e, t scored) int {
			if better(e, t) {
				return -1
			}
			return 1
		})
		best = slices.Insert(best, i, c)
		if len(best) > limit {
			best = best[:limit]
		}
		floor = best[len(best)-1].v
	}
	if len(best) == 0 {
		return nil
	}
	hits := make([]Hit, len(best))
	for i, c := range best {
		hits[i] = ix.doc(c.g).hit
		hits[i].Score = float64(c.v)
		if bound > 0 {
			hits[i].Relevance = hits[i].Score / bound
		}
	}
	return hits
}

// doc returns the document of global ordinal g.
func (ix *Index) doc(g uint32) *document {
	si, _ := slices.BinarySearchFunc(ix.bases, g, func(b, t uint32) int {
		if b <= t {
			return -1
		}
		return 1
	})
	si--
	return &ix.segs[si].docs[g-ix.bases[si]]
}
