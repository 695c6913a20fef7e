package plugin

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// view is the model-facing projection of one complete snapshot under one
// description cap. Views are shared between sessions and never modified.
//
// A view keeps its entries already rendered (the catalog lines), encoded
// (the catalog record's members) and in the digest's encoding, each as a
// rope, so publishing a catalog or hashing it is one pass. Each entry also
// keeps the hash of its description as listed, so the next view of the same
// place shares, run by run, the bytes of every entry whose skill did not
// change instead of producing or copying them again.
//
// A view holds only what the catalog and the `skill` tool need: capped
// descriptions, already rendered, and names. Nothing in it refers to the
// snapshot it was built from (names are copied, descriptions are written
// into the view's own buffers), so a snapshot's raw descriptions are
// garbage once its view is built.
type view struct {
	entries []viewEntry // model-invocable skills with addressable names, sorted
	lines   rope        // render.AppendEntryLine of every entry
	records rope        // events.AppendEntry of every entry
	encoded rope        // digest.AppendEntry of every entry
	digest  digest.Digest
	listed  []listedSkill // every listed skill with an addressable name, sorted by name
}

// viewEntry locates one entry in its view's ropes: each end is the offset
// just past the entry, and the entry before it ends where it starts.
type viewEntry struct {
	name                       string
	rawHash                    xxh3.Uint128 // of the description as listed
	lineEnd, recordEnd, encEnd int
}

// listedSkill is what the `skill` tool checks before loading: that the
// snapshot lists the name and whether the model may invoke it. Skills whose
// names are not addressable are not kept: the tool refuses such names
// before it looks anything up.
type listedSkill struct {
	name           string
	modelInvocable bool
}

func emptyView() *view {
	return &view{digest: digest.Of(nil)}
}

// viewOverhead is what a view costs beyond its ropes, tables and names: the
// struct and the headers of its slices.
const viewOverhead = int(unsafe.Sizeof(view{}))

// bytes is what v keeps alive, for the view cache's byte bound: every chunk
// its ropes lie in (shared chunks are counted whole in every view that
// shares them, so the sum over views never falls short), its tables and its
// names.
func (v *view) bytes() int {
	n := viewOverhead + v.lines.retained() + v.records.retained() + v.encoded.retained() +
		cap(v.entries)*int(unsafe.Sizeof(viewEntry{})) + cap(v.listed)*int(unsafe.Sizeof(listedSkill{}))
	for _, l := range v.listed {
		n += len(l.name) // entries' names are these strings
	}
	return n
}

// starts returns where entry i begins in each of the view's byte slices.
func (v *view) starts(i int) (line, record, enc int) {
	if i == 0 {
		return 0, 0, 0
	}
	e := &v.entries[i-1]
	return e.lineEnd, e.recordEnd, e.encEnd
}

// buildView applies rule 4: model-invocable skills with addressable names,
// one per name, sorted by name, descriptions normalized and capped. Entries
// whose name and description as listed match prev's share prev's bytes, in
// runs, instead of being normalized, rendered and encoded again; prev may be
// nil.
func buildView(skills []skill.Summary, maxLen int, prev *view) *view {
	byName := func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) }
	if !slices.IsSortedFunc(skills, byName) {
		skills = slices.Clone(skills)
		slices.SortStableFunc(skills, byName)
	}
	b := newViewBuilder(prev, len(skills), maxLen)
	for i, s := range skills {
		if i > 0 && skills[i-1].Name == s.Name {
			continue // the host resolves duplicates; the first one listed wins
		}
		b.list(s)
	}
	return b.finish()
}

// applyDelta builds the view of the snapshot that a delta against prev's
// snapshot describes: prev's skills without removed, with upserts added or
// replacing those of the same name. upserts and removed must be sorted by
// name without repeats. It equals buildView of the whole snapshot.
func applyDelta(prev *view, upserts []skill.Summary, removed []string, maxLen int) (*view, error) {
	if !sortedUniqueNames(upserts) {
		return nil, fmt.Errorf("snapshot delta: skills not sorted by name without repeats")
	}
	for i := 1; i < len(removed); i++ {
		if removed[i-1] >= removed[i] {
			return nil, fmt.Errorf("snapshot delta: removed names not sorted at %q", removed[i])
		}
	}
	b := newViewBuilder(prev, len(prev.listed)+len(upserts), maxLen)
	var entry, gone int // cursors into prev.entries and removed
	for i, j := 0, 0; i < len(prev.listed) || j < len(upserts); {
		if j < len(upserts) && (i == len(prev.listed) || upserts[j].Name <= prev.listed[i].name) {
			if i < len(prev.listed) && prev.listed[i].name == upserts[j].Name {
				i++ // replaced
			}
			b.list(upserts[j])
			j++
			continue
		}
		l := prev.listed[i]
		i++
		for gone < len(removed) && removed[gone] < l.name {
			gone++
		}
		if gone < len(removed) && removed[gone] == l.name {
			continue
		}
		b.v.listed = append(b.v.listed, l)
		for entry < len(prev.entries) && prev.entries[entry].name < l.name {
			entry++
		}
		if entry < len(prev.entries) && prev.entries[entry].name == l.name {
			b.reuse(entry)
		}
	}
	return b.finish(), nil
}

// viewBuilder assembles a view in name order, sharing runs of unchanged
// entries with the previous view of the same place and writing new entries
// into fresh buffers.
type viewBuilder struct {
	v, prev          *view
	maxLen           int
	from             int // cursor into prev.entries, which are sorted too
	runStart, runEnd int // prev entries [runStart, runEnd) wait to be shared
	// New entries since the last shared run, not yet added to the ropes.
	lines, records, encoded buffer
}

func newViewBuilder(prev *view, n, maxLen int) *viewBuilder {
	return &viewBuilder{prev: prev, maxLen: maxLen, v: &view{listed: make([]listedSkill, 0, n), entries: make([]viewEntry, 0, n)}}
}

// list adds the next listed skill, and its catalog entry when it has one.
func (b *viewBuilder) list(s skill.Summary) {
	if !skill.ValidName(s.Name) {
		return
	}
	var name string
	if s.Invocation.ModelInvocable {
		name = b.add(s)
	} else {
		// A copy, so that the view never pins the snapshot's memory.
		name = strings.Clone(s.Name)
	}
	b.v.listed = append(b.v.listed, listedSkill{name: name, modelInvocable: s.Invocation.ModelInvocable})
}

// add adds s's entry: shared with prev when prev has the same name with the
// same description, written anew otherwise. It returns the view's copy of
// the name.
func (b *viewBuilder) add(s skill.Summary) string {
	h := xxh3.HashString128(s.Description)
	if p := b.prev; p != nil {
		for b.from < len(p.entries) && p.entries[b.from].name < s.Name {
			b.from++
		}
		if b.from < len(p.entries) && p.entries[b.from].name == s.Name && p.entries[b.from].rawHash == h {
			name := p.entries[b.from].name
			b.reuse(b.from)
			return name
		}
	}
	b.flush()
	name := strings.Clone(s.Name)
	e := digest.Entry{Name: name, Description: render.NormalizeDescription(s.Description, b.maxLen)}
	b.lines.b = render.AppendEntryLine(b.lines.b, e)
	b.records.b = events.AppendEntry(b.records.b, e)
	b.encoded.b = digest.AppendEntry(b.encoded.b, e)
	v := b.v
	v.entries = append(v.entries, viewEntry{
		name:      name,
		rawHash:   h,
		lineEnd:   v.lines.size + len(b.lines.b),
		recordEnd: v.records.size + len(b.records.b),
		encEnd:    v.encoded.size + len(b.encoded.b),
	})
	return name
}

// reuse adds prev's entry i, extending the pending run of shared entries
// when it continues it.
func (b *viewBuilder) reuse(i int) {
	switch {
	case b.runStart == b.runEnd:
		b.seal()
		b.runStart = i
	case i != b.runEnd:
		b.flush()
		b.runStart = i
	}
	b.runEnd = i + 1
	b.from = i + 1
}

// finish completes the view: what is pending is added, fragmented ropes are
// compacted and the digest is taken.
func (b *viewBuilder) finish() *view {
	b.flush()
	b.seal()
	v := b.v
	v.lines, v.records, v.encoded = v.lines.compacted(), v.records.compacted(), v.encoded.compacted()
	v.digest = digest.OfEncoded(len(v.entries), v.encoded.pieces)
	return v
}

// seal adds the new entries written so far to the ropes. The buffers keep
// growing after what was sealed, which the ropes never see.
func (b *viewBuilder) seal() {
	b.lines.sealInto(&b.v.lines)
	b.records.sealInto(&b.v.records)
	b.encoded.sealInto(&b.v.encoded)
}

// flush adds the pending run of shared entries to the view.
func (b *viewBuilder) flush() {
	if b.runStart == b.runEnd {
		return
	}
	p, v := b.prev, b.v
	line0, record0, enc0 := p.starts(b.runStart)
	last := &p.entries[b.runEnd-1]
	dLine, dRecord, dEnc := v.lines.size-line0, v.records.size-record0, v.encoded.size-enc0
	v.lines.addRange(&p.lines, line0, last.lineEnd)
	v.records.addRange(&p.records, record0, last.recordEnd)
	v.encoded.addRange(&p.encoded, enc0, last.encEnd)
	for _, e := range p.entries[b.runStart:b.runEnd] {
		e.lineEnd += dLine
		e.recordEnd += dRecord
		e.encEnd += dEnc
		v.entries = append(v.entries, e)
	}
	b.runStart, b.runEnd = 0, 0
}

// lookup finds a listed skill by name.
func (v *view) lookup(name string) (listedSkill, bool) {
	i := sort.Search(len(v.listed), func(i int) bool { return v.listed[i].name >= name })
	if i < len(v.listed) && v.listed[i].name == name {
		return v.listed[i], true
	}
	return listedSkill{}, false
}
