// Package search is the skill-catalog plugin's skill search: a full-text
// index over the skills of a snapshot, ranked with BM25F over the fields
// that say when to use a skill (its name, keywords, description and
// when_to_use, and the start of its instructions), with a bonus for the
// trigger phrases a description names, and optionally fused with a
// host's semantic ranking. It is pure: no I/O, no protocol.
//
// An Index is immutable and safe for concurrent use. Update returns the
// index of a new snapshot built on the previous one: a skill whose indexed
// text did not change is not analyzed again, and a change of a few skills
// costs about those skills, not the library. Internally an index is a few
// segments, each an inverted index over some skills, and the set of
// skills later segments replaced; segments are merged, without analyzing
// anything again, when they become many or mostly replaced.
//
// # How well it finds skills
//
// Measured on 1,675 real public skills (12 repositories) with 301 requests
// written for 45 of them (their repositories' own trigger tests), in
// libraries holding those 45 and others drawn at random, through
// `skillcatalog search` and `skillcatalog explain -requests`
// (`go run ./internal/skillbench -bench DIR -bin bin/skillcatalog`). Hit@k:
// the requested skill among the first k results. Seen in full: the share of
// requests whose skill the model sees with its full description at the
// user's turn, with the default catalog budget (8,000 characters): in the
// catalog, or in the relevant-skills message. The budgeted catalog alone
// shows no requested skill in full at any of these sizes (names only, or
// not listed: 17% at 1,000 skills, 27% at all).
//
//	library   Hit@1  Hit@5  Hit@10  MRR    seen in full  (plain BM25 Hit@1/Hit@5)
//	100       0.919  0.987  0.987   0.949  92%           0.78 / 0.94
//	300       0.854  0.982  0.984   0.911  92%           0.73 / 0.91
//	1,000     0.755  0.956  0.980   0.840  88%           0.64 / 0.84
//	all       0.721  0.924  0.970   0.809  85%           0.58 / 0.80
package search

import (
	"maps"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Hit is one skill a search found: what a result shows of it.
type Hit struct {
	Name       string
	Origin     string
	OriginKind skill.OriginKind
	// Description is the normalized description, capped at
	// MaxDescriptionLength characters.
	Description string
	// Score ranks the hit: higher is better, comparable only within one
	// search.
	Score float64
	// Relevance is Score as a share of the score of a skill that held
	// every term of the query as often as counts: comparable between
	// searches, for a threshold.
	Relevance float64
}

// postings are the skills of a segment that hold one term: their
// ordinals, ascending, and the term's frequency in each field, packed
// (tfBits bits a field, saturating).
type postings struct {
	docs []uint32
	tfs  []uint32
	// off is where the list starts in its segment's flat postings, and
	// in each index's saturated frequencies of the segment; list is its
	// ordinal among the segment's lists.
	off, list uint32
	// startsPhrase says a trigger phrase of the segment starts with the
	// term.
	startsPhrase bool
}

const (
	tfBits = 8
	tfMax  = 1<<tfBits - 1
)

func packTF(tf *[numFields]uint16) uint32 {
	var p uint32
	for f := numFields - 1; f >= 0; f-- {
		p = p<<tfBits | uint32(min(tf[f], tfMax))
	}
	return p
}

func unpackTF(p uint32, f int) float64 {
	return float64(p >> (tfBits * f) & tfMax)
}

// phraseRef is one trigger phrase of a segment's skill.
type phraseRef struct {
	doc    uint32
	phrase int // index in the document's phrases
}

// pairKey is the key of a phrase by its first two terms, appended to
// buf.
func pairKey(buf []byte, first, second string) []byte {
	return append(append(append(buf[:0], first...), 0), second...)
}

// segment is an inverted index over some skills. It never changes once
// built.
type segment struct {
	docs  []document
	terms map[string]postings // views of the flat lists below
	// postDocs and postTFs are every postings list of the segment, one
	// after another; listEnds[l] is where the l-th ends.
	postDocs, postTFs, listEnds []uint32
	phrases                     map[string][]phraseRef // by pairKey of the phrase's first two terms
	size                        int                    // bytes kept alive, for Index.Bytes
}

// docRef locates a document: its segment and its ordinal there.
type docRef struct {
	seg int
	doc uint32
}

// Index is a search index over the catalog entries of one snapshot.
type Index struct {
	segs []*segment
	// replaced[i] marks the documents of segs[i] that a later update
	// replaced or removed; shared between indexes until one changes it.
	replaced [][]uint64
	dead     []int             // replaced documents per segment
	live     map[string]docRef // by skill name
	sumLens  [numFields]uint64 // over live documents
	size     int
	// bases[i] is the global ordinal of segs[i]'s first document.
	bases []uint32
	total int // documents of every segment, replaced ones too
	// sats[i][k] is the saturated BM25F frequency, x/(k1+x), of the k-th
	// posting of segs[i]'s flat postings: each field's frequency weighted
	// and length-normalized with this index's average lengths, summed (x),
	// then saturated. A search only multiplies it by its term's weight.
	// They change with every update, so the index, not its shared
	// segments, holds them. mostSats[i][l] is the largest of segs[i]'s
	// l-th list (replaced documents included): the most the term can add
	// to a document, before its weight.
	sats, mostSats [][]float32
}

// Segment bounds: an update that would leave more than maxSegments
// segments, or replaced documents making up more than a quarter of the
// index, merges every segment into one.
const maxSegments = 8

// Empty returns an index of no skills.
func Empty() *Index {
	ix := &Index{live: map[string]docRef{}}
	ix.finish()
	return ix
}

// Len returns the number of skills in ix.
func (ix *Index) Len() int { return len(ix.live) }

// Bytes returns about what ix keeps alive.
func (ix *Index) Bytes() int { return ix.size }

// Build returns an index of skills. It is Sync(Empty(), skills).
func Build(skills []skill.Summary) *Index {
	return Sync(Empty(), skills)
}

// Sync returns an index of exactly skills built on prev: the skills prev
// holds with the same indexed text are kept as they are, the others
// analyzed; prev's skills not in skills are dropped.
func Sync(prev *Index, skills []skill.Summary) *Index {
	var changed []*skill.Summary
	present := make(map[string]struct{}, len(skills))
	for i := range skills {
		s := &skills[i]
		present[s.Name] = struct{}{}
		if ref, ok := prev.live[s.Name]; ok && prev.segs[ref.seg].docs[ref.doc].key == keyOf(s) {
			continue
		}
		changed = append(changed, s)
	}
	var removed []string
	for name := range prev.live {
		if _, ok := present[name]; !ok {
			removed = append(removed, name)
		}
	}
	return prev.apply(changed, removed)
}

// Update returns prev with upserts added or replacing the skills of the
// same name, and the skills named in removed dropped: the index of a
// snapshot delta.
func Update(prev *Index, upserts []skill.Summary, removed []string) *Index {
	changed := make([]*skill.Summary, 0, len(upserts))
	for i := range upserts {
		s := &upserts[i]
		if ref, ok := prev.live[s.Name]; ok && prev.segs[ref.seg].docs[ref.doc].key == keyOf(s) {
			continue
		}
		changed = append(changed, s)
	}
	return prev.apply(changed, removed)
}

// apply returns prev with the changed skills analyzed into a new segment,
// replacing any of the same name, and the removed names dropped.
func (prev *Index) apply(changed []*skill.Summary, removed []string) *Index {
	if len(changed) == 0 && len(removed) == 0 {
		return prev
	}
	ix := &Index{
		segs:     slices.Clone(prev.segs),
		replaced: slices.Clone(prev.replaced),
		dead:     slices.Clone(prev.dead),
		live:     maps.Clone(prev.live),
		sumLens:  prev.sumLens,
	}
	copied := make(map[int]bool)
	drop := func(name string) {
		ref, ok := ix.live[name]
		if !ok {
			return
		}
		if !copied[ref.seg] {
			ix.replaced[ref.seg] = slices.Clone(ix.replaced[ref.seg])
			copied[ref.seg] = true
		}
		ix.replaced[ref.seg][ref.doc/64] |= 1 << (ref.doc % 64)
		ix.dead[ref.seg]++
		for f, l := range ix.segs[ref.seg].docs[ref.doc].lens {
			ix.sumLens[f] -= uint64(l)
		}
		delete(ix.live, name)
	}
	for _, name := range removed {
		drop(name)
	}
	if len(changed) > 0 {
		for _, s := range changed {
			drop(s.Name)
		}
		seg := buildSegment(changed)
		ix.segs = append(ix.segs, seg)
		ix.replaced = append(ix.replaced, make([]uint64, (len(seg.docs)+63)/64))
		ix.dead = append(ix.dead, 0)
		for i := range seg.docs {
			d := &seg.docs[i]
			ix.live[d.hit.Name] = docRef{seg: len(ix.segs) - 1, doc: uint32(i)}
			for f, l := range d.lens {
				ix.sumLens[f] += uint64(l)
			}
		}
	}
	if ix.needsMerge() {
		return ix.merged()
	}
	ix.finish()
	return ix
}

// needsMerge reports whether ix has too many segments or too many
// replaced documents.
func (ix *Index) needsMerge() bool {
	total := 0
	for _, s := range ix.segs {
		total += len(s.docs)
	}
	return len(ix.segs) > maxSegments || 4*(total-len(ix.live)) > total
}

// finish computes what ix derives from its segments and lengths: the
// segments' bases, every posting's saturated frequency and ix.size. The
// saturations change with the average lengths, so with every update; one
// pass over the flat postings computes them, which is what spares a
// search the arithmetic per posting.
func (ix *Index) finish() {
	ix.bases = make([]uint32, len(ix.segs))
	ix.total = 0
	for i, s := range ix.segs {
		ix.bases[i] = uint32(ix.total)
		ix.total += len(s.docs)
	}
	var avg [numFields]float64
	if n := float64(len(ix.live)); n > 0 {
		for f := range avg {
			avg[f] = max(float64(ix.sumLens[f])/n, 1)
		}
	}
	ix.size = 64 + len(ix.live)*48 + len(ix.segs)*4
	ix.sats, ix.mostSats = make([][]float32, len(ix.segs)), make([][]float32, len(ix.segs))
	var norms [][numFields]float32 // of one segment's documents
	for si, s := range ix.segs {
		norms = slices.Grow(norms[:0], len(s.docs))[:len(s.docs)]
		for d := range s.docs {
			lens := &s.docs[d].lens
			for f := range numFields {
				norms[d][f] = float32(fieldWeight[f] / (1 - fieldB[f] + fieldB[f]*float64(lens[f])/max(avg[f], 1)))
			}
		}
		sat, most := make([]float32, len(s.postDocs)), make([]float32, len(s.listEnds))
		start := 0
		for l, end := range s.listEnds {
			var m float32
			docs, tfs := s.postDocs[start:end], s.postTFs[start:end]
			out := sat[start:end]
			for k, d := range docs {
				tf, n := tfs[k], &norms[d]
				x := float32(tf&tfMax)*n[0] + float32(tf>>tfBits&tfMax)*n[1] + float32(tf>>(2*tfBits)&tfMax)*n[2] + float32(tf>>(3*tfBits))*n[3]
				v := x / (k1 + x)
				out[k] = v
				m = max(m, v)
			}
			most[l] = m
			start = int(end)
		}
		ix.sats[si], ix.mostSats[si] = sat, most
		ix.size += s.size + 8*len(ix.replaced[si]) + 4*len(sat) + 4*len(most)
	}
}

// buildSegment analyzes skills into a segment.
func buildSegment(skills []*skill.Summary) *segment {
	a := newAnalyzer()
	seg := &segment{docs: make([]document, 0, len(skills)), terms: make(map[string]postings), phrases: make(map[string][]phraseRef)}
	for i, s := range skills {
		doc, terms := analyzeSkill(a, s)
		for t, tf := range terms {
			p := seg.terms[t]
			p.docs = append(p.docs, uint32(i))
			p.tfs = append(p.tfs, packTF(tf))
			seg.terms[t] = p
		}
		for j, p := range doc.phrases {
			k := string(pairKey(nil, p[0], p[1]))
			seg.phrases[k] = append(seg.phrases[k], phraseRef{doc: uint32(i), phrase: j})
		}
		seg.docs = append(seg.docs, doc)
	}
	seg.flatten()
	seg.measure()
	return seg
}

// flatten moves s's postings lists into its flat lists, one after
// another, and makes each list a view of them, marking the terms its
// phrases start with (a term that starts a phrase and is in no list gets
// an empty one).
func (s *segment) flatten() {
	for k := range s.phrases {
		first := k[:strings.IndexByte(k, 0)]
		p := s.terms[first]
		p.startsPhrase = true
		s.terms[first] = p
	}
	n := 0
	for _, p := range s.terms {
		n += len(p.docs)
	}
	s.postDocs, s.postTFs = make([]uint32, 0, n), make([]uint32, 0, n)
	s.listEnds = make([]uint32, 0, len(s.terms))
	for t, p := range s.terms {
		off := len(s.postDocs)
		s.postDocs = append(s.postDocs, p.docs...)
		s.postTFs = append(s.postTFs, p.tfs...)
		end := len(s.postDocs)
		s.terms[t] = postings{docs: s.postDocs[off:end:end], tfs: s.postTFs[off:end:end], off: uint32(off), list: uint32(len(s.listEnds)), startsPhrase: p.startsPhrase}
		s.listEnds = append(s.listEnds, uint32(end))
	}
}

// measure sets s.size.
func (s *segment) measure() {
	n := 128 + 8*len(s.postDocs) + 4*len(s.listEnds)
	for i := range s.docs {
		n += s.docs[i].bytes()
	}
	for t := range s.terms {
		n += 64 + len(t)
	}
	for t, refs := range s.phrases {
		n += 64 + len(t) + 16*cap(refs)
	}
	s.size = n
}

// merged returns ix as one segment, without replaced documents, built
// from the postings ix holds: nothing is analyzed again.
func (ix *Index) merged() *Index {
	out := &segment{terms: make(map[string]postings), phrases: make(map[string][]phraseRef)}
	remap := make([][]uint32, len(ix.segs)) // old ordinal → new, or ^0 for a replaced one
	for si, s := range ix.segs {
		remap[si] = make([]uint32, len(s.docs))
		for d := range s.docs {
			if ix.isReplaced(si, uint32(d)) {
				remap[si][d] = ^uint32(0)
				continue
			}
			remap[si][d] = uint32(len(out.docs))
			out.docs = append(out.docs, s.docs[d])
		}
	}
	for si, s := range ix.segs {
		for t, p := range s.terms {
			q := out.terms[t]
			for i, d := range p.docs {
				if n := remap[si][d]; n != ^uint32(0) {
					q.docs = append(q.docs, n)
					q.tfs = append(q.tfs, p.tfs[i])
				}
			}
			if len(q.docs) > 0 {
				out.terms[t] = q
			}
		}
		for t, refs := range s.phrases {
			for _, r := range refs {
				if n := remap[si][r.doc]; n != ^uint32(0) {
					out.phrases[t] = append(out.phrases[t], phraseRef{doc: n, phrase: r.phrase})
				}
			}
		}
	}
	out.flatten()
	out.measure()
	m := &Index{segs: []*segment{out}, replaced: [][]uint64{make([]uint64, (len(out.docs)+63)/64)}, dead: []int{0}, live: make(map[string]docRef, len(out.docs))}
	for i := range out.docs {
		d := &out.docs[i]
		m.live[d.hit.Name] = docRef{doc: uint32(i)}
		for f, l := range d.lens {
			m.sumLens[f] += uint64(l)
		}
	}
	m.finish()
	return m
}

func (ix *Index) isReplaced(seg int, doc uint32) bool {
	return ix.replaced[seg][doc/64]&(1<<(doc%64)) != 0
}
