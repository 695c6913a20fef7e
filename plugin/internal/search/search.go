package search

import (
	"cmp"
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
// appear only inside a quotation counting quotedWeight, and those not in
// its first sentence (the ask) contextWeight. Text past MaxQueryBytes is
// not read.
func ParseQuery(text string) Query {
	if len(text) > MaxQueryBytes {
		text = text[:MaxQueryBytes]
	}
	a := queryAnalyzers.Get().(*analyzer)
	defer queryAnalyzers.Put(a)
	var q Query
	a.terms(text, func(t string) { q.seq = append(q.seq, t) })
	outside := make(map[string]bool)
	if strings.ContainsAny(text, `'"“`) && quotation.MatchString(text) {
		a.terms(quotation.ReplaceAllString(text, " "), func(t string) { outside[t] = true })
	}
	ask := askOf(a, text)
	for _, t := range q.seq {
		if slices.ContainsFunc(q.terms, func(x queryTerm) bool { return x.term == t }) {
			continue
		}
		w := 1.0
		switch {
		case len(outside) > 0 && !outside[t]:
			w = quotedWeight
		case !slices.Contains(ask, t):
			w = contextWeight
		}
		q.terms = append(q.terms, queryTerm{term: t, weight: w})
	}
	return q
}

// askOf returns the terms of the first sentence of text that has any: a
// request says what it asks for first, and what follows is context.
func askOf(a *analyzer, text string) []string {
	var ask []string
	for len(ask) == 0 && text != "" {
		sentence := text
		if end := sentenceEnd.FindStringIndex(text); end != nil {
			sentence, text = text[:end[0]], text[end[1]:]
		} else {
			text = ""
		}
		a.terms(sentence, func(t string) { ask = append(ask, t) })
	}
	return ask
}

// IsEmpty reports whether q has no terms to search for: every word of it
// is a stop word, or it has none.
func (q Query) IsEmpty() bool { return len(q.terms) == 0 }

// scratch is the per-search working memory, pooled: a score per document
// of the index, the documents with one, and the query's terms as they are
// scored.
type scratch struct {
	matched []uint8 // distinct full-weight query terms a document holds
	factors []float32
	scores  []float32
	touched []uint32
	runs    []termRun
	lists   []postings // the runs' postings lists, a run's one per segment
	starts  []string   // the query's terms that start a trigger phrase
	// pruning says the search scores only candidates, the documents that
	// can still enter the best, marked in candidate.
	pruning    bool
	candidates []uint32
	candidate  []bool
	best       []float32 // a min-heap of the best scores documents are sure of
}

// termRun is one term of a query as a search scores it.
type termRun struct {
	weight float32 // the term's query weight times its idf
	whole  bool    // it counts toward coordination
	df     int
	// bound is the most the term adds to any document's score.
	bound float64
	// lists are the term's postings list in each segment (empty where it
	// has none), a window of scratch.lists.
	lists []postings
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// Search returns the skills of ix that best match q, best first, at most
// limit, and only those with a positive score. Ties are broken by name,
// so the same skills and query always give the same hits, however the
// index was built. Each hit's Relevance says how much of the query it
// matches.
func (ix *Index) Search(q Query, limit int) []Hit {
	return ix.search(q, limit, true)
}

// search is Search, pruning (skipping what cannot change the best limit
// hits) or not: both give the same hits.
func (ix *Index) search(q Query, limit int, prune bool) []Hit {
	if len(ix.live) == 0 || q.IsEmpty() || limit <= 0 {
		return nil
	}
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	sc.reset(ix.total)
	factor := sc.coordinationFactors(q)
	bound := ix.score(q, sc, factor, limit, prune)
	return ix.top(sc, factor, limit, bound)
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
	if cap(sc.candidate) < n {
		sc.candidate = make([]bool, n)
	}
	sc.candidate = sc.candidate[:n]
	sc.touched = sc.touched[:0]
	sc.pruning = false
	sc.candidates = sc.candidates[:0]
}

// score adds q's score, before coordination, to the documents of ix in sc
// that can be among the best limit (every document, unless prune), and
// returns the score a skill would have if it held every term of q without
// limit (a term the index does not hold counting as the rarest), which
// Relevance is a share of.
//
// Terms are scored rarest (highest weight) first. Once the limit-th best
// score a document is sure to reach is above what every term left could
// add together, no document without a score yet can enter the best, and
// the rest of the terms score only the candidates that still can: the
// long postings lists of common words are looked up, not walked. Each
// document's score is the same sum in the same order either way.
func (ix *Index) score(q Query, sc *scratch, factor []float32, limit int, prune bool) (bound float64) {
	runs, idf, bound := ix.runsOf(q, sc)
	var phrase float64
	if len(sc.starts) > 0 {
		phrase = ix.addPhrases(sc, q.seq, idf)
	}
	left, walk := 0.0, 0 // what the terms not scored yet can add at most, and the postings they hold
	for _, r := range runs {
		left, walk = left+r.bound, walk+r.df
	}
	total := left
	for i := range runs {
		r := &runs[i]
		left, walk = max(left-r.bound, 0), walk-r.df
		switch {
		case r.df == 0:
			continue
		case sc.pruning:
			ix.accumulateCandidates(sc, r)
		default:
			ix.accumulate(sc, r)
		}
		// Finding the floor costs a pass over the documents scored, so it
		// is worth it only when the lists left are longer. No document has
		// a score above what the terms scored and the phrases can add, so
		// the floor can pass what is left only where that is more.
		if !prune || i == len(runs)-1 || (!sc.pruning && (walk < 2*len(sc.touched) || total-left+phrase <= left)) {
			continue
		}
		sc.narrow(sc.floor(factor, limit), left)
	}
	for _, g := range sc.candidates {
		sc.candidate[g] = false
	}
	return bound
}

// runsOf returns q's terms as sc scores them, rarest first, their IDFs and
// the score bound Relevance is a share of, and fills sc.lists and
// sc.starts.
func (ix *Index) runsOf(q Query, sc *scratch) ([]termRun, map[string]float64, float64) {
	n := float64(len(ix.live))
	idf := make(map[string]float64, len(q.terms))
	bound := 0.0
	runs := sc.runs[:0]
	sc.lists, sc.starts = sc.lists[:0], sc.starts[:0]
	for _, t := range q.terms {
		r := termRun{whole: t.weight > quotedWeight}
		start := len(sc.lists)
		r.df, r.bound = ix.df(t.term, sc)
		r.lists = sc.lists[start:len(sc.lists):len(sc.lists)]
		v := math.Log(1 + (n-float64(r.df)+0.5)/(float64(r.df)+0.5))
		idf[t.term] = v
		bound += t.weight * v
		r.weight = float32(t.weight * v)
		r.bound *= float64(r.weight)
		runs = append(runs, r)
	}
	// The order depends on the live skills only (not on how the index was
	// built, as the bounds do), so that every index of the same skills
	// adds the same terms in the same order.
	slices.SortStableFunc(runs, func(a, b termRun) int { return cmp.Compare(b.weight, a.weight) })
	sc.runs = runs
	return runs, idf, bound
}

// narrow starts or goes on pruning once floor, the score the best hits are
// sure of, is above left, what the terms not scored yet can add: the
// documents that cannot reach the floor with every term left are no
// candidates. A margin keeps float rounding from pruning a document that
// could tie the last of the best.
func (sc *scratch) narrow(floor, left float64) {
	reach := left*(1+1e-4) + 1e-6
	if floor <= reach {
		return
	}
	out := func(g uint32) bool {
		if float64(sc.scores[g])+reach < floor {
			sc.candidate[g] = false
			return true
		}
		return false
	}
	if sc.pruning {
		sc.candidates = slices.DeleteFunc(sc.candidates, out)
		return
	}
	sc.pruning = true
	sc.candidates = sc.candidates[:0]
	for _, g := range sc.touched {
		if !out(g) {
			sc.candidates = append(sc.candidates, g)
			sc.candidate[g] = true
		}
	}
}

// df returns how many live documents hold term and the most it adds to a
// document before its weight, appends to sc.lists the term's postings
// list of each segment (empty where it has none), and to sc.starts the
// term if a trigger phrase starts with it.
func (ix *Index) df(term string, sc *scratch) (df int, most float64) {
	for si, s := range ix.segs {
		p, ok := s.terms[term]
		sc.lists = append(sc.lists, p)
		if !ok {
			continue
		}
		if p.startsPhrase && !slices.Contains(sc.starts, term) {
			sc.starts = append(sc.starts, term)
		}
		most = max(most, float64(ix.mostSats[si][p.list]))
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
	return df, most
}

// accumulate adds r's weighted saturated frequency to the score of each
// live document that holds it, and counts the term among those the
// document holds when it counts whole.
func (ix *Index) accumulate(sc *scratch, r *termRun) {
	for si := range r.lists {
		p := &r.lists[si]
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
			sc.scores[g] += r.weight * sat[j]
			if r.whole && sc.matched[g] < 255 {
				sc.matched[g]++
			}
		}
	}
}

// accumulateCandidates is accumulate for the candidates only: walking a
// list and skipping what is no candidate costs a fraction of scoring it.
func (ix *Index) accumulateCandidates(sc *scratch, r *termRun) {
	for si := range r.lists {
		p := &r.lists[si]
		base := ix.bases[si]
		sat := ix.sats[si][p.off : int(p.off)+len(p.docs)]
		for j, d := range p.docs {
			g := base + d
			if !sc.candidate[g] {
				continue
			}
			sc.scores[g] += r.weight * sat[j]
			if r.whole && sc.matched[g] < 255 {
				sc.matched[g]++
			}
		}
	}
}

// floor returns the limit-th best score a document of sc is sure to reach
// (its score so far, scaled by the coordination of the terms it holds so
// far, which only grows), among the candidates once pruning, or 0 when
// fewer than limit have one.
func (sc *scratch) floor(factor []float32, limit int) float64 {
	pool := sc.touched
	if sc.pruning {
		pool = sc.candidates
	}
	if len(pool) < limit {
		return 0
	}
	h := sc.best[:0]
	n := len(factor) - 1
	for _, g := range pool {
		v := sc.scores[g] * factor[min(int(sc.matched[g]), n)]
		if len(h) < limit {
			h = append(h, v)
			if len(h) == limit {
				for i := len(h)/2 - 1; i >= 0; i-- {
					siftDown(h, i)
				}
			}
			continue
		}
		if v > h[0] {
			h[0] = v
			siftDown(h, 0)
		}
	}
	sc.best = h
	return float64(h[0])
}

// siftDown restores the min-heap h below i.
func siftDown(h []float32, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		if r := l + 1; r < len(h) && h[r] < h[l] {
			l = r
		}
		if h[i] <= h[l] {
			return
		}
		h[i], h[l] = h[l], h[i]
		i = l
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
		if t.weight > quotedWeight {
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
// that the query holds in order, and returns the largest bonus it added.
func (ix *Index) addPhrases(sc *scratch, seq []string, idf map[string]float64) (most float64) {
	var bonus map[uint32]float64
	var buf [64]byte
	key := buf[:0]
	for start, first := range seq {
		if !slices.Contains(sc.starts, first) {
			continue
		}
		// A phrase's second term is at most this far from its first.
		for k := start + 1; k < min(len(seq), start+maxPhraseTerms+phraseGap); k++ {
			if slices.Contains(seq[start+1:k], seq[k]) {
				continue // a phrase that has it second was met already
			}
			key = pairKey(key, first, seq[k])
			ix.addPhrasesOf(key, seq[start:], idf, &bonus)
		}
	}
	for g, v := range bonus {
		if sc.scores[g] == 0 {
			sc.touched = append(sc.touched, g)
		}
		sc.scores[g] += float32(phraseWeight * v)
		most = max(most, phraseWeight*v)
	}
	return most
}

// addPhrasesOf raises in *bonus the bonus of each skill with a trigger
// phrase whose first two terms have the pairKey key and that seq, which
// starts with the first, holds in order.
func (ix *Index) addPhrasesOf(key []byte, seq []string, idf map[string]float64, bonus *map[uint32]float64) {
	for si, s := range ix.segs {
		for _, ref := range s.phrases[string(key)] {
			if ix.isReplaced(si, ref.doc) {
				continue
			}
			p := s.docs[ref.doc].phrases[ref.phrase]
			if !holdsInOrder(seq, p) {
				continue
			}
			v := 0.0
			for _, t := range p {
				v += idf[t]
			}
			if *bonus == nil {
				*bonus = make(map[uint32]float64)
			}
			g := ix.bases[si] + ref.doc
			(*bonus)[g] = max((*bonus)[g], v)
		}
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
	pool := sc.touched
	if sc.pruning {
		pool = sc.candidates // the others cannot enter
	}
	for _, g := range pool {
		c := scored{g: g, v: sc.scores[g] * factor[min(int(sc.matched[g]), n)]}
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
	for _, g := range sc.touched {
		sc.scores[g], sc.matched[g] = 0, 0
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
