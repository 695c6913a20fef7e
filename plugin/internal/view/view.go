// Package view is the skill-catalog plugin's model-facing projection of a
// skill snapshot: the catalog entries (rule 4 of plugin's doc: the
// model-invocable skills with addressable names, descriptions normalized
// and capped) already rendered, encoded and hashed, the listed names the
// `skill` tool checks, and the same catalog fitted to a byte budget. A view
// is built on the previous view of its place, sharing what did not change.
// It is pure: no I/O, no protocol.
package view

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/search"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// View is the model-facing projection of one complete snapshot under one
// description cap. Views are shared between sessions and never modified.
//
// A view keeps its entries already rendered (the catalog lines), encoded
// (the catalog record's members) and in the digest's encoding, so
// publishing a catalog or hashing it is one pass. Each entry also keeps the
// hash of its description as listed, so the next view of the same place
// recognizes every entry whose skill did not change.
//
// The listed skills are held in blocks of a few consecutive names, each
// block with its entries and their bytes. Blocks are immutable and shared:
// the next view of a place takes every block of the previous one whose
// skills did not change, and writes anew only the blocks that hold a
// change, so a step where one skill changed costs a block and the list of
// blocks, not a copy of the catalog. Where a block ends depends on names
// alone (cutsAfter), so an added or removed skill moves no other block's
// boundaries.
//
// A view holds only what the catalog and the `skill` tool need: capped
// descriptions, already rendered, and names. Nothing in it refers to the
// snapshot it was built from (names are copied, descriptions are written
// into the view's own blocks), so a snapshot's raw descriptions are garbage
// once its view is built.
type View struct {
	blocks     []*block // in name order
	numEntries int      // catalog entries: model-invocable skills with addressable names
	digest     digest.Digest

	// A view fitted to a catalog budget (Fit) keeps the view it was
	// fitted from, which the next view of its place is built on and which
	// answers lookups, and what fitting changed. Its blocks list only
	// entries.
	base        *View
	omitted     int      // entries of base left out of the catalog
	diagnostics []string // what was shortened or left out, for the host

	// Entries of remote skills, and of those the websites' (the rest are
	// MCP servers'): the catalog says what their origins mean, in the
	// sentence of the kinds it lists.
	remote, websites int

	// scratches pools the scratch buffers of the builders of this view's
	// chain: the views of one place, each built on the one before.
	scratches *sync.Pool

	// index is the search index of the view's catalog entries, on an
	// unfitted view whose place searches (SetIndex).
	index *search.Index

	// gated are the catalog entries scoped by `paths`, sorted by name, on
	// a view built from a snapshot (see Gate); activated, on a view Gate
	// derived, the skills its session activated, which its digest covers.
	gated     []Gated
	activated []string
	gates     *gateMemo // on a view with gated entries
}

// block is a run of consecutive listed skills, sorted by name, with the
// catalog entries of the model-invocable ones and their bytes back to
// back. It is never modified once built.
type block struct {
	listed  []listedSkill // nil in the blocks a fitted view writes
	entries []viewEntry
	lines   []byte // render.AppendEntryLine of every entry
	records []byte // events.AppendEntry of every entry
	encoded []byte // digest.AppendEntry of every entry
	remote  int    // entries with an origin
	web     int    // entries with a website's origin
	size    int    // what the block keeps alive, for View.Bytes
}

// viewEntry is one catalog entry and the lengths of its bytes in its
// block; the entry before it ends where it starts.
type viewEntry struct {
	name                       string
	origin                     string            // a remote skill's source label; "" for the host's own
	originKind                 digest.OriginKind // what origin labels; MCP server for the host's own
	rawHash                    xxh3.Uint128      // of the description as listed
	contentDigest              string            // as listed, recorded with the entry
	lineLen, recordLen, encLen int
}

// listedSkill is what the `skill` tool checks before loading: that the
// snapshot lists the name and whether the model may invoke it. Skills whose
// names are not addressable are not kept: the tool refuses such names
// before it looks anything up.
type listedSkill struct {
	name           string
	modelInvocable bool
	cut            bool // cutsAfter(name): the skill ends a block
}

// Block bounds: a block ends after a name whose hash is a multiple of
// meanBlockLen, so blocks hold that many skills on average, and after
// maxBlockLen skills in any case. A change costs about a block; the list of
// blocks costs a pointer per meanBlockLen skills.
const (
	meanBlockLen = 8
	maxBlockLen  = 4 * meanBlockLen
)

// cutsAfter reports whether a block ends after the skill named name.
func cutsAfter(name string) bool {
	return xxh3.HashString(name)%meanBlockLen == 0
}

// maxScratchBytes bounds a scratch buffer a builder passes on: an
// unusually large block's buffers are left to the collector.
const maxScratchBytes = 64 << 10

func Empty() *View {
	return &View{digest: digest.Of(nil)}
}

// RemoteOrigins says which kinds of remote source the skills of v's catalog
// come from, for the sentence it ends with.
func (v *View) RemoteOrigins() render.RemoteOrigins {
	return render.RemoteOrigins{MCPServers: v.remote > v.websites, Websites: v.websites > 0}
}

// IsEmpty reports whether a view announces nothing. A budget may leave every
// skill out of the catalog; the catalog then still says how many there
// are, so it is not empty.
func (v *View) IsEmpty() bool { return v.numEntries == 0 && v.omitted == 0 }

// Fixed costs, for View.Bytes: a view's struct and a block's.
const (
	viewOverhead  = int(unsafe.Sizeof(View{}))
	blockOverhead = int(unsafe.Sizeof(block{}))
	pointerSize   = int(unsafe.Sizeof((*block)(nil)))
)

// Bytes is what v keeps alive, for the view cache's byte bound: its list of
// blocks and every block in it (a shared block is counted whole in every
// view that shares it, so the sum over views never falls short), and for a
// fitted view the view it was fitted from.
func (v *View) Bytes() int {
	n := viewOverhead + cap(v.blocks)*pointerSize
	for _, b := range v.blocks {
		n += b.size
	}
	if v.base != nil {
		n += v.base.Bytes()
	}
	if v.index != nil {
		n += v.index.Bytes()
	}
	return n
}

// Index returns the search index of v's catalog entries (every one, those
// a budget left out of the catalog too), or nil when its place does not
// search.
func (v *View) Index() *search.Index {
	if v.base != nil {
		return v.base.index
	}
	return v.index
}

// SetIndex gives v, a view just built and not yet shared, the search index
// of its catalog entries.
func (v *View) SetIndex(ix *search.Index) {
	v.Unfitted().index = ix
}

// IsEntry reports whether s has a catalog entry in a view: a
// model-invocable skill with an addressable name and, for a remote skill,
// an origin that is a label of a kind the plugin knows.
func IsEntry(s *skill.Summary) bool {
	return s.Invocation.ModelInvocable && skill.ValidListedName(s.Name) &&
		(s.Origin == "" || (skill.ValidLabel(s.Origin) && s.OriginKind.Valid()))
}

// Unfitted returns the view v was fitted from, or v itself.
func (v *View) Unfitted() *View {
	if v.base != nil {
		return v.base
	}
	return v
}

// pieces yields one part of every block, in order: the pieces render,
// events and digest assemble a catalog's text, record and digest from.
func (v *View) pieces(part func(*block) []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for _, b := range v.blocks {
			if !yield(part(b)) {
				return
			}
		}
	}
}

func blockLines(b *block) []byte   { return b.lines }
func blockRecords(b *block) []byte { return b.records }
func blockEncoded(b *block) []byte { return b.encoded }

// Lines yields v's catalog lines (render.AppendEntryLine of every entry),
// in pieces, for render.AssembleCatalogSeq.
func (v *View) Lines() iter.Seq[[]byte] { return v.pieces(blockLines) }

// Records yields v's entries as the catalog record's members
// (events.AppendEntry), in pieces, for events.AssembleCatalogSeq.
func (v *View) Records() iter.Seq[[]byte] { return v.pieces(blockRecords) }

// Digest is the digest of what v publishes: its entries and, for a fitted
// view, the count of those the budget left out.
func (v *View) Digest() digest.Digest { return v.digest }

// NumEntries is the count of v's catalog entries.
func (v *View) NumEntries() int { return v.numEntries }

// Omitted is the count of entries a budget left out of v's catalog.
func (v *View) Omitted() int { return v.omitted }

// Diagnostics says what fitting v to its budget shortened or left out, for
// the host.
func (v *View) Diagnostics() []string { return v.diagnostics }

// Lookup reports whether v lists a skill named name and whether the model
// may invoke it.
func (v *View) Lookup(name string) (modelInvocable, listed bool) {
	l, ok := v.find(name)
	return l.modelInvocable, ok
}

// Build applies rule 4: model-invocable skills with addressable names,
// one per name, sorted by name, descriptions normalized and capped. Blocks
// of prev whose skills are listed as they were are shared, and entries of
// prev whose name and description as listed did not change are copied
// instead of being normalized, rendered and encoded again; prev may be nil.
func Build(skills []skill.Summary, maxLen int, prev *View) *View {
	byName := func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) }
	if !slices.IsSortedFunc(skills, byName) {
		skills = slices.Clone(skills)
		slices.SortStableFunc(skills, byName)
	}
	b := newViewBuilder(prev, scratchesOf(prev), maxLen)
	var gated []Gated
	for i, s := range skills {
		if i > 0 && skills[i-1].Name == s.Name {
			continue // the host resolves duplicates; the first one listed wins
		}
		b.list(s)
		gated = appendGated(gated, &skills[i])
	}
	v := b.finish()
	v.setGated(gated)
	return v
}

// ApplyDelta builds the view of the snapshot that a delta against prev's
// snapshot describes: prev's skills without removed, with upserts added or
// replacing those of the same name. upserts and removed must be sorted by
// name without repeats. It equals Build of the whole snapshot.
func ApplyDelta(prev *View, upserts []skill.Summary, removed []string, maxLen int) (*View, error) {
	if !sortedUniqueNames(upserts) {
		return nil, fmt.Errorf("snapshot delta: skills not sorted by name without repeats")
	}
	for i := 1; i < len(removed); i++ {
		if removed[i-1] >= removed[i] {
			return nil, fmt.Errorf("snapshot delta: removed names not sorted at %q", removed[i])
		}
	}
	b := newViewBuilder(prev, scratchesOf(prev), maxLen)
	gone := 0 // cursor into removed
	for j := 0; ; {
		l, ok := b.peek()
		if j < len(upserts) && (!ok || upserts[j].Name <= l.name) {
			b.list(upserts[j]) // replaces prev's skill of the same name
			j++
			continue
		}
		if !ok {
			break
		}
		for gone < len(removed) && removed[gone] < l.name {
			gone++
		}
		if gone < len(removed) && removed[gone] == l.name {
			b.pass()
			continue
		}
		b.keep()
	}
	v := b.finish()
	v.setGated(mergeGated(prev, upserts, removed))
	return v, nil
}

// viewBuilder assembles a view in name order, block by block, from the
// skills of the previous view of the same place (a cursor walks them in
// order) and new ones. A block that turns out to hold exactly the skills of
// one of prev's blocks is that block; any other is written anew, from
// prev's bytes for the skills that did not change.
type viewBuilder struct {
	v, prev *View
	maxLen  int

	// The cursor: prev's next listed skill is prev.blocks[pb].listed[pl];
	// its entry, if it has one, is entries[pe], whose bytes start at
	// pLine, pRecord and pEnc in the block.
	pb, pl, pe           int
	pLine, pRecord, pEnc int

	// The block being assembled holds n skills. While shared is set they
	// are the first n of shared's and nothing is written in the scratch;
	// otherwise they are written there, to be copied into a block of their
	// own.
	n      int
	shared *block
	*scratch
}

// scratch is where a view builder writes a block before it knows the
// block's size. The builders of a chain of views pass it on
// (view.scratches), so a step that writes a block or two does not grow
// buffers of its own first.
type scratch struct {
	listed                  []listedSkill
	entries                 []viewEntry
	lines, records, encoded []byte
	remote, web             int
}

// scratchesOf is the scratch pool of v's chain of views; a view of no chain
// (nil) starts one.
func scratchesOf(v *View) *sync.Pool {
	if v != nil && v.scratches != nil {
		return v.scratches
	}
	return &sync.Pool{New: func() any { return new(scratch) }}
}

// newViewBuilder starts a view built on prev (nil for none) that takes its
// scratch from scratches.
func newViewBuilder(prev *View, scratches *sync.Pool, maxLen int) *viewBuilder {
	v := &View{scratches: scratches}
	if prev != nil {
		// As many blocks as prev is the likely count: a change moves it
		// by a block or so.
		v.blocks = make([]*block, 0, len(prev.blocks)+1)
	}
	return &viewBuilder{prev: prev, maxLen: maxLen, v: v, scratch: scratches.Get().(*scratch)}
}

// peek returns the skill under the cursor.
func (b *viewBuilder) peek() (listedSkill, bool) {
	if b.prev == nil || b.pb == len(b.prev.blocks) {
		return listedSkill{}, false
	}
	return b.prev.blocks[b.pb].listed[b.pl], true
}

// pass moves the cursor past the skill under it.
func (b *viewBuilder) pass() {
	blk := b.prev.blocks[b.pb]
	if blk.listed[b.pl].modelInvocable {
		e := &blk.entries[b.pe]
		b.pLine += e.lineLen
		b.pRecord += e.recordLen
		b.pEnc += e.encLen
		b.pe++
	}
	b.pl++
	if b.pl == len(blk.listed) {
		b.pb++
		b.pl, b.pe, b.pLine, b.pRecord, b.pEnc = 0, 0, 0, 0, 0
	}
}

// keep adds the skill under the cursor, as prev lists it, and moves past it.
func (b *viewBuilder) keep() {
	blk := b.prev.blocks[b.pb]
	l := blk.listed[b.pl]
	switch {
	case b.n == 0 && b.pl == 0:
		b.shared = blk
	case b.shared == blk && b.pl == b.n:
		// Still the beginning of the same block of prev.
	default:
		b.materialize()
		b.listed = append(b.listed, l)
		if l.modelInvocable {
			e := blk.entries[b.pe]
			b.appendEntry(e, blk.lines[b.pLine:b.pLine+e.lineLen], blk.records[b.pRecord:b.pRecord+e.recordLen], blk.encoded[b.pEnc:b.pEnc+e.encLen])
		}
	}
	b.pass()
	b.added(l)
}

// list adds the next listed skill, and its catalog entry when it has one:
// prev's when prev lists the same name with the same policy, description
// and origin (label and kind), written anew otherwise.
func (b *viewBuilder) list(s skill.Summary) {
	// An origin is a label the host assigned; one that is not could
	// disguise a remote skill's line as another's, and one of a kind the
	// plugin does not know would be named as something it may not be.
	if !skill.ValidListedName(s.Name) || (s.Origin != "" && (!skill.ValidLabel(s.Origin) || !s.OriginKind.Valid())) {
		return
	}
	kind := entryKind(s)
	for l, ok := b.peek(); ok && l.name < s.Name; l, ok = b.peek() {
		b.pass()
	}
	invocable := s.Invocation.ModelInvocable
	var h xxh3.Uint128
	// The catalog lists the description with when_to_use joined to it
	// (skill.ListedDescription), so the cap, the budget and the digest
	// count both.
	listed := skill.ListedDescription(s)
	if invocable {
		h = xxh3.HashString128(listed)
	}
	if l, ok := b.peek(); ok && l.name == s.Name {
		if l.modelInvocable == invocable {
			if !invocable {
				b.keep()
				return
			}
			if e := &b.prev.blocks[b.pb].entries[b.pe]; e.rawHash == h && e.origin == s.Origin && e.originKind == kind && e.contentDigest == recordedDigest(s.ContentDigest) {
				b.keep()
				return
			}
		}
		b.pass()
	}
	b.materialize()
	// Copies, so that the view never pins the snapshot's memory.
	l := listedSkill{name: strings.Clone(s.Name), modelInvocable: invocable}
	l.cut = cutsAfter(l.name)
	b.listed = append(b.listed, l)
	if invocable {
		b.write(digest.Entry{Name: l.name, Description: render.NormalizeDescription(listed, b.maxLen), Origin: strings.Clone(s.Origin), OriginKind: kind,
			ContentDigest: strings.Clone(recordedDigest(s.ContentDigest))}, h)
	}
	b.added(l)
}

// write adds an entry rendered, encoded and hashed anew to the block being
// written; its name must already be the view's own copy.
func (b *viewBuilder) write(e digest.Entry, rawHash xxh3.Uint128) {
	l0, r0, e0 := len(b.lines), len(b.records), len(b.encoded)
	b.lines = render.AppendEntryLine(b.lines, e)
	b.records = events.AppendEntry(b.records, e)
	b.encoded = digest.AppendEntry(b.encoded, e)
	b.count(e.Origin, e.OriginKind)
	b.entries = append(b.entries, viewEntry{
		name:          e.Name,
		origin:        e.Origin,
		originKind:    e.OriginKind,
		contentDigest: e.ContentDigest,
		rawHash:       rawHash,
		lineLen:       len(b.lines) - l0,
		recordLen:     len(b.records) - r0,
		encLen:        len(b.encoded) - e0,
	})
}

// appendEntry adds an entry with its bytes, taken from another block, to
// the block being written.
func (b *viewBuilder) appendEntry(e viewEntry, line, record, enc []byte) {
	b.entries = append(b.entries, e)
	b.lines = append(b.lines, line...)
	b.records = append(b.records, record...)
	b.encoded = append(b.encoded, enc...)
	b.count(e.origin, e.originKind)
}

// count counts an entry of the block being written among the remote
// skills, by the kind of its origin, if it has one.
func (b *viewBuilder) count(origin string, kind digest.OriginKind) {
	if origin != "" {
		b.remote++
		if kind == digest.OriginWebsite {
			b.web++
		}
	}
}

// materialize writes out the skills of the block being assembled that it
// still shares with prev, so that a skill that is not the next of that
// block can follow them.
func (b *viewBuilder) materialize() {
	s := b.shared
	if s == nil {
		return
	}
	b.shared = nil
	b.listed = append(b.listed, s.listed[:b.n]...)
	k, line, record, enc := 0, 0, 0, 0
	for _, l := range s.listed[:b.n] {
		if l.modelInvocable {
			e := &s.entries[k]
			line, record, enc = line+e.lineLen, record+e.recordLen, enc+e.encLen
			b.count(e.origin, e.originKind)
			k++
		}
	}
	b.entries = append(b.entries, s.entries[:k]...)
	b.lines = append(b.lines, s.lines[:line]...)
	b.records = append(b.records, s.records[:record]...)
	b.encoded = append(b.encoded, s.encoded[:enc]...)
}

// added ends the block after l when l ends one.
func (b *viewBuilder) added(l listedSkill) {
	b.n++
	if l.cut || b.n == maxBlockLen {
		b.close()
	}
}

// close adds the block being assembled to the view: prev's block itself
// when it holds exactly that block's skills, a copy of what was written
// otherwise.
func (b *viewBuilder) close() {
	if b.n == 0 {
		return
	}
	if s := b.shared; s != nil && b.n == len(s.listed) {
		b.v.blocks = append(b.v.blocks, s)
	} else {
		b.materialize()
		b.v.blocks = append(b.v.blocks, b.newBlock())
	}
	b.n, b.shared = 0, nil
}

// newBlock copies what was written into a block of its own, sized
// exactly, and empties the builder's buffers for the next one.
func (b *viewBuilder) newBlock() *block {
	blk := &block{remote: b.remote, web: b.web}
	if len(b.listed) > 0 {
		blk.listed = slices.Clone(b.listed)
	}
	if n := len(b.lines) + len(b.records) + len(b.encoded); n > maxScratchBytes {
		// A block this large (a fitted view's run of shortened entries)
		// takes the scratch's buffers rather than a copy of them: the
		// scratch would not be passed on anyway. Each is capped, so
		// nothing can append through one into another.
		// The block keeps their whole allocations alive, past the caps.
		blk.size = cap(b.entries)*int(unsafe.Sizeof(viewEntry{})) + cap(b.lines) + cap(b.records) + cap(b.encoded)
		blk.entries = b.entries[:len(b.entries):len(b.entries)]
		blk.lines = b.lines[:len(b.lines):len(b.lines)]
		blk.records = b.records[:len(b.records):len(b.records)]
		blk.encoded = b.encoded[:len(b.encoded):len(b.encoded)]
		b.entries, b.lines, b.records, b.encoded = nil, nil, nil, nil
	} else {
		blk.entries = slices.Clone(b.entries)
		// One allocation holds the three byte strings; each is capped,
		// so nothing can append through one into the next.
		buf := make([]byte, 0, n)
		buf = append(append(append(buf, b.lines...), b.records...), b.encoded...)
		l, r := len(b.lines), len(b.lines)+len(b.records)
		blk.lines, blk.records, blk.encoded = buf[:l:l], buf[l:r:r], buf[r:]
		blk.size = cap(blk.entries)*int(unsafe.Sizeof(viewEntry{})) + cap(buf)
	}
	blk.size += blockOverhead + cap(blk.listed)*int(unsafe.Sizeof(listedSkill{}))
	for _, l := range blk.listed {
		blk.size += len(l.name) // entries' names are these strings
	}
	b.listed, b.entries = b.listed[:0], b.entries[:0]
	b.lines, b.records, b.encoded = b.lines[:0], b.records[:0], b.encoded[:0]
	b.remote, b.web = 0, 0
	return blk
}

// finish completes the view: the last block is added and the digest is
// taken.
func (b *viewBuilder) finish() *View {
	b.close()
	// What a block holds was copied out of the scratch, so nothing refers
	// to it; one block of ordinary size is all it keeps.
	if s := b.scratch; len(s.entries) == 0 && cap(s.lines) <= maxScratchBytes && cap(s.records) <= maxScratchBytes && cap(s.encoded) <= maxScratchBytes {
		b.v.scratches.Put(s)
	}
	b.scratch = nil
	v := b.v
	for _, blk := range v.blocks {
		v.numEntries += len(blk.entries)
		v.remote += blk.remote
		v.websites += blk.web
	}
	v.digest = digest.OfEncodedSeq(v.numEntries, v.pieces(blockEncoded), 0)
	return v
}

// find finds a listed skill by name.
func (v *View) find(name string) (listedSkill, bool) {
	if v.base != nil {
		return v.base.find(name)
	}
	i := sort.Search(len(v.blocks), func(i int) bool {
		l := v.blocks[i].listed
		return l[len(l)-1].name >= name
	})
	if i == len(v.blocks) {
		return listedSkill{}, false
	}
	listed := v.blocks[i].listed
	j := sort.Search(len(listed), func(j int) bool { return listed[j].name >= name })
	if j < len(listed) && listed[j].name == name {
		return listed[j], true
	}
	return listedSkill{}, false
}

// Origin returns the origin of the model-invocable skill listed as name:
// the label of the source a remote skill comes from and its kind, "" for
// the host's own skills and for names the view does not list as
// model-invocable.
func (v *View) Origin(name string) (string, skill.OriginKind) {
	if v.base != nil {
		return v.base.Origin(name)
	}
	i := sort.Search(len(v.blocks), func(i int) bool {
		l := v.blocks[i].listed
		return l[len(l)-1].name >= name
	})
	if i == len(v.blocks) {
		return "", skill.OriginMCPServer
	}
	entries := v.blocks[i].entries
	j := sort.Search(len(entries), func(j int) bool { return entries[j].name >= name })
	if j < len(entries) && entries[j].name == name {
		return entries[j].origin, skillKind(entries[j].originKind)
	}
	return "", skill.OriginMCPServer
}

// entryKind is the kind a catalog entry records for a listed skill's
// origin: the host's own skills record none, whatever kind they carry.
func entryKind(s skill.Summary) digest.OriginKind {
	if s.Origin != "" && s.OriginKind == skill.OriginWebsite {
		return digest.OriginWebsite
	}
	return digest.OriginMCPServer
}

// skillKind is the kind of skill a catalog entry's kind stands for.
func skillKind(k digest.OriginKind) skill.OriginKind {
	if k == digest.OriginWebsite {
		return skill.OriginWebsite
	}
	return skill.OriginMCPServer
}

// sortedUniqueNames reports whether skills are sorted by name without
// repeats.
func sortedUniqueNames(skills []skill.Summary) bool {
	for i := 1; i < len(skills); i++ {
		if strings.Compare(skills[i-1].Name, skills[i].Name) >= 0 {
			return false
		}
	}
	return true
}

// maxOmittedNamesShown bounds the names a diagnostic lists of the skills a
// budget left out.
const maxOmittedNamesShown = 10

// Fit fits base to a catalog budget (render.FitCatalog). Blocks whose
// entries are all kept as they are are shared with base; the entries of
// every run of other blocks (with a shortened entry, or cut by the budget)
// are written anew into one block, from base's bytes for the entries kept
// as they are. Left-out entries are
// dropped from the catalog but stay listed, so the `skill` tool still loads
// them. It returns base itself when everything fits. The result depends on
// base's entries and the budget alone.
func Fit(base *View, budget int) *View {
	entries := base.catalogEntries()
	fit, err := render.FitCatalog(entries, budget)
	if err != nil || (fit.NumShortened == 0 && fit.Omitted == 0) {
		return base
	}
	// Which blocks are written anew: those with an entry shortened or left
	// out. Their entries are counted first, so a budget that shortens
	// every description writes the table once, not growing it.
	rewrite := make([]bool, len(base.blocks))
	written, i := 0, 0 // i: entries of base so far
	for j, blk := range base.blocks {
		k := min(len(blk.entries), len(fit.Entries)-i) // entries of blk kept
		if k < len(blk.entries) || slices.Contains(fit.Shortened[i:i+k], true) {
			rewrite[j] = true
			written += k
		}
		i += k
	}
	b := newViewBuilder(nil, scratchesOf(base), 0)
	if written > maxBlockLen {
		b.entries = make([]viewEntry, 0, written)
	}
	i = 0
	for j, blk := range base.blocks {
		k := min(len(blk.entries), len(fit.Entries)-i)
		if k == 0 {
			continue
		}
		if !rewrite[j] {
			b.flushFitted()
			b.v.blocks = append(b.v.blocks, blk)
			i += k
			continue
		}
		line, record, enc := 0, 0, 0
		for j, e := range blk.entries[:k] {
			if fit.Shortened[i+j] {
				// The view's own strings, not the decoded copy, which
				// would pin every entry's encoding.
				f := fit.Entries[i+j]
				f.Name, f.Origin, f.OriginKind, f.ContentDigest = e.name, e.origin, e.originKind, e.contentDigest
				b.write(f, e.rawHash)
			} else {
				b.appendEntry(e, blk.lines[line:line+e.lineLen], blk.records[record:record+e.recordLen], blk.encoded[enc:enc+e.encLen])
			}
			line, record, enc = line+e.lineLen, record+e.recordLen, enc+e.encLen
		}
		i += k
	}
	b.flushFitted()
	v := b.finish()
	v.base, v.omitted, v.activated = base, fit.Omitted, base.activated
	// The count of skills left out is published too, so it is part of
	// what the digest compares, as are the skills activated.
	v.digest = digest.WithActivated(digest.OfEncodedSeq(v.numEntries, v.pieces(blockEncoded), v.omitted), v.activated)

	prefix := contract.OptionCatalogBudget + " " + strconv.Itoa(budget) + ": "
	if fit.NumShortened > 0 {
		d := fmt.Sprintf("%s%d of %d catalog descriptions shortened to %d characters", prefix, fit.NumShortened, len(fit.Entries), fit.DescriptionLength)
		if fit.DescriptionLength < render.MinDescriptionMaxLength {
			d = fmt.Sprintf("%s%d of %d catalog descriptions removed, the names alone fill the budget", prefix, fit.NumShortened, len(fit.Entries))
		}
		v.diagnostics = append(v.diagnostics, d)
	}
	if fit.Omitted > 0 {
		left := entries[len(fit.Entries):]
		names := make([]string, 0, min(len(left), maxOmittedNamesShown))
		for _, e := range left[:cap(names)] {
			names = append(names, e.Name)
		}
		list := strings.Join(names, ", ")
		if more := len(left) - len(names); more > 0 {
			list += fmt.Sprintf(" and %d more", more)
		}
		v.diagnostics = append(v.diagnostics, fmt.Sprintf("%s%d of %d skills left out of the catalog, their names do not fit: %s", prefix, fit.Omitted, len(entries), list))
	}
	return v
}

// flushFitted adds the entries a fitted view wrote since its last shared
// block as one block: nothing builds on a fitted view's own blocks, so
// they need not follow base's.
func (b *viewBuilder) flushFitted() {
	if len(b.entries) > 0 {
		b.v.blocks = append(b.v.blocks, b.newBlock())
	}
}

// catalogEntries returns v's entries as published, decoded from their
// digest encoding. The strings share one copy of the encoding.
func (v *View) catalogEntries() []digest.Entry {
	var size int
	for _, b := range v.blocks {
		size += len(b.encoded)
	}
	buf := make([]byte, 0, size)
	for _, b := range v.blocks {
		buf = append(buf, b.encoded...)
	}
	enc := string(buf)
	entries := make([]digest.Entry, v.numEntries)
	for i := range entries {
		entries[i], enc = decodeEntry(enc)
	}
	return entries
}

// decodeEntry decodes the entry at the start of enc (digest.AppendEntry's
// encoding) and returns it with the rest of enc.
func decodeEntry(enc string) (digest.Entry, string) {
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
	var e digest.Entry
	if enc[0] == 0 { // the marker of an entry with an origin
		enc = enc[1:]
		if enc[0] == 0 { // a kind's marker: an origin is never empty
			e.OriginKind = digest.OriginKind(enc[1])
			enc = enc[2:]
		}
		e.Origin = next()
	}
	e.Name = next()
	e.Description = next()
	return e, enc
}

// CatalogDescription returns the description v's catalog shows for the
// skill named name (capped, and shortened by a budget), and false when
// the catalog does not list it: not listed, not model-invocable, or left
// out by a budget.
func (v *View) CatalogDescription(name string) (string, bool) {
	// A block of an unfitted view ends with its last listed skill; a
	// fitted view's blocks list entries only, and never none.
	last := func(b *block) string {
		if len(b.listed) > 0 {
			return b.listed[len(b.listed)-1].name
		}
		return b.entries[len(b.entries)-1].name
	}
	i := sort.Search(len(v.blocks), func(i int) bool { return last(v.blocks[i]) >= name })
	if i == len(v.blocks) {
		return "", false
	}
	b := v.blocks[i]
	off := 0
	for _, e := range b.entries {
		if e.name == name {
			entry, _ := decodeEntry(string(b.encoded[off : off+e.encLen]))
			return entry.Description, true
		}
		off += e.encLen
	}
	return "", false
}

// Lossy reports whether a catalog budget shortened a description of v's
// catalog or left a skill out of it.
func (v *View) Lossy() bool { return v.base != nil }

// recordedDigest is a snapshot's content digest as a catalog record keeps
// it: "" unless it has the form of one ("sha256:" and 64 lower-case
// hexadecimal digits), so a foreign host's value is never recorded as a
// digest.
func recordedDigest(d string) string {
	const prefix = "sha256:"
	if len(d) != len(prefix)+64 || !strings.HasPrefix(d, prefix) {
		return ""
	}
	for _, c := range []byte(d[len(prefix):]) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return d
}
