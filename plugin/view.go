package plugin

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
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

	// A view fitted to a catalog budget (fitView) keeps the view it was
	// fitted from, which the next view of its place is built on, and what
	// fitting changed.
	base        *view
	omitted     int      // entries of base left out of the catalog
	diagnostics []string // what was shortened or left out, for the host

	remote int // entries of remote skills, whose catalog says what their origin means
}

// viewEntry locates one entry in its view's ropes: each end is the offset
// just past the entry, and the entry before it ends where it starts.
type viewEntry struct {
	name                       string
	origin                     string       // a remote skill's server label; "" for the host's own
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

// empty reports whether a view announces nothing. A budget may leave every
// skill out of the catalog; the catalog then still says how many there
// are, so it is not empty.
func (v *view) empty() bool { return len(v.entries) == 0 && v.omitted == 0 }

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
	if v.base != nil {
		// A fitted view shares listed and its names with its base.
		return n - cap(v.listed)*int(unsafe.Sizeof(listedSkill{})) + v.base.bytes()
	}
	for _, l := range v.listed {
		n += len(l.name) // entries' names are these strings
	}
	return n
}

// unfitted returns the view v was fitted from, or v itself.
func (v *view) unfitted() *view {
	if v.base != nil {
		return v.base
	}
	return v
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
	if !skill.ValidListedName(s.Name) {
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
// same description and origin, written anew otherwise. It returns the
// view's copy of the name.
func (b *viewBuilder) add(s skill.Summary) string {
	h := xxh3.HashString128(s.Description)
	if p := b.prev; p != nil {
		for b.from < len(p.entries) && p.entries[b.from].name < s.Name {
			b.from++
		}
		if b.from < len(p.entries) && p.entries[b.from].name == s.Name && p.entries[b.from].rawHash == h &&
			p.entries[b.from].origin == s.Origin {
			name := p.entries[b.from].name
			b.reuse(b.from)
			return name
		}
	}
	b.flush()
	name := strings.Clone(s.Name)
	b.write(digest.Entry{Name: name, Description: render.NormalizeDescription(s.Description, b.maxLen), Origin: strings.Clone(s.Origin)}, h)
	return name
}

// write adds an entry rendered, encoded and hashed anew; its name must
// already be the view's own copy. The caller has flushed the pending run.
func (b *viewBuilder) write(e digest.Entry, rawHash xxh3.Uint128) {
	b.lines.b = render.AppendEntryLine(b.lines.b, e)
	b.records.b = events.AppendEntry(b.records.b, e)
	b.encoded.b = digest.AppendEntry(b.encoded.b, e)
	v := b.v
	if e.Origin != "" {
		v.remote++
	}
	v.entries = append(v.entries, viewEntry{
		name:      e.Name,
		origin:    e.Origin,
		rawHash:   rawHash,
		lineEnd:   v.lines.size + len(b.lines.b),
		recordEnd: v.records.size + len(b.records.b),
		encEnd:    v.encoded.size + len(b.encoded.b),
	})
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
	v.digest = digest.OfEncoded(len(v.entries), v.encoded.pieces, 0)
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
		if e.origin != "" {
			v.remote++
		}
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

// maxOmittedNamesShown bounds the names a diagnostic lists of the skills a
// budget left out.
const maxOmittedNamesShown = 10

// fitView fits base to a catalog budget (render.FitCatalog). Entries whose
// description is kept share base's bytes; shortened ones are written anew;
// left-out ones are dropped from the catalog but stay listed, so the
// `skill` tool still loads them. It returns base itself when everything
// fits. The result depends on base's entries and the budget alone.
func fitView(base *view, budget int) *view {
	entries := base.catalogEntries()
	fit, err := render.FitCatalog(entries, budget)
	if err != nil || (fit.NumShortened == 0 && fit.Omitted == 0) {
		return base
	}
	b := &viewBuilder{prev: base, v: &view{entries: make([]viewEntry, 0, len(fit.Entries))}}
	for i, e := range fit.Entries {
		if !fit.Shortened[i] {
			b.reuse(i)
			continue
		}
		b.flush()
		e.Name = base.entries[i].name
		b.write(e, base.entries[i].rawHash)
	}
	v := b.finish()
	v.listed, v.base, v.omitted = base.listed, base, fit.Omitted
	// The count of skills left out is published too, so it is part of
	// what the digest compares.
	v.digest = digest.OfEncoded(len(v.entries), v.encoded.pieces, v.omitted)

	prefix := contract.OptionCatalogBudget + " " + strconv.Itoa(budget) + ": "
	if fit.NumShortened > 0 {
		d := fmt.Sprintf("%s%d of %d catalog descriptions shortened to %d characters", prefix, fit.NumShortened, len(fit.Entries), fit.DescriptionLength)
		if fit.DescriptionLength < render.MinDescriptionMaxLength {
			d = fmt.Sprintf("%s%d of %d catalog descriptions removed, the names alone fill the budget", prefix, fit.NumShortened, len(fit.Entries))
		}
		v.diagnostics = append(v.diagnostics, d)
	}
	if fit.Omitted > 0 {
		left := base.entries[len(fit.Entries):]
		names := make([]string, 0, min(len(left), maxOmittedNamesShown))
		for _, e := range left[:cap(names)] {
			names = append(names, e.name)
		}
		list := strings.Join(names, ", ")
		if more := len(left) - len(names); more > 0 {
			list += fmt.Sprintf(" and %d more", more)
		}
		v.diagnostics = append(v.diagnostics, fmt.Sprintf("%s%d of %d skills left out of the catalog, their names do not fit: %s", prefix, fit.Omitted, len(entries), list))
	}
	return v
}

// catalogEntries returns v's entries as published, decoded from their
// digest encoding. The strings share one copy of the encoding.
func (v *view) catalogEntries() []digest.Entry {
	buf := make([]byte, 0, v.encoded.size)
	for _, p := range v.encoded.pieces {
		buf = append(buf, p...)
	}
	enc := string(buf)
	entries := make([]digest.Entry, len(v.entries))
	next := func() string {
		var n, shift uint64
		k := 0
		for enc[k] >= 0x80 {
			n |= uint64(enc[k]&0x7f) << shift
			shift += 7
			k++
		}
		n |= uint64(enc[k]) << shift
		k++
		s := enc[k : k+int(n)]
		enc = enc[k+int(n):]
		return s
	}
	for i := range entries {
		if enc[0] == 0 { // the marker of an entry with an origin
			enc = enc[1:]
			entries[i].Origin = next()
		}
		entries[i].Name = next()
		entries[i].Description = next()
	}
	return entries
}
