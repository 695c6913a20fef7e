package mcpskills

import (
	"container/list"
	"time"

	"golang.org/x/sync/singleflight"
)

// cacheKey identifies a cached read: the server's label, the connection
// configuration it was read under, and the resource URI. A URI alone never
// keys anything: two servers may serve the same URI.
type cacheKey struct {
	label string
	conn  string
	uri   string
}

// Content is a resource as read from the server.
type Content struct {
	URI      string
	MIMEType string
	// Text holds a text resource; Blob a binary one. Exactly one is set
	// (an empty text resource has neither).
	Text string
	Blob []byte
}

func (c *Content) size() int64 {
	return int64(len(c.URI) + len(c.MIMEType) + len(c.Text) + len(c.Blob))
}

type cacheEntry struct {
	key     cacheKey
	content *Content
	size    int64
	// readAt and gen describe index reads: when it was read and the
	// provider's index generation when the read started.
	readAt time.Time
	gen    uint64
	parsed *index
	// verified is set for a copy that matched a skill entry's size and
	// digest when it was read: sum and rawSize are then the SHA-256 and
	// length of its raw bytes.
	verified bool
	sum      [32]byte
	rawSize  int64
	elem     *list.Element
	// owner is the view holding the entry; belem its place in the
	// provider's budget, in blist.
	owner *view
	belem *list.Element
	blist *list.List
}

// budget bounds the bytes that all the views of a provider cache together
// (Options.CacheTotalBytes). When an entry takes the total past the bound,
// least recently used entries of any session are dropped: bodies and other
// resources first, index copies only when no other entry is left, since a
// dropped index copy can change a session's catalog. Callers hold the
// provider's mutex.
type budget struct {
	max       int64
	bytes     int64
	resources *list.List // entries other than index copies; front = most recently used
	indexes   *list.List // index copies; front = most recently used
}

func newBudget(maxBytes int64) *budget {
	return &budget{max: maxBytes, resources: list.New(), indexes: list.New()}
}

func (b *budget) add(e *cacheEntry) {
	e.blist = b.resources
	e.belem = b.resources.PushFront(e)
	b.bytes += e.size
}

func (b *budget) touch(e *cacheEntry) { e.blist.MoveToFront(e.belem) }

func (b *budget) remove(e *cacheEntry) {
	e.blist.Remove(e.belem)
	b.bytes -= e.size
}

// pinIndex files e, a session's index copy, among the index copies.
func (b *budget) pinIndex(e *cacheEntry) {
	if e.blist == b.indexes {
		return
	}
	e.blist.Remove(e.belem)
	e.blist = b.indexes
	e.belem = b.indexes.PushFront(e)
}

// evict drops least recently used entries other than keep, across all
// views, until the bound holds.
func (b *budget) evict(keep *cacheEntry) {
	for b.bytes > b.max {
		victim := oldest(b.resources, keep)
		if victim == nil {
			victim = oldest(b.indexes, keep)
		}
		if victim == nil {
			return
		}
		victim.owner.remove(victim.key)
	}
}

func oldest(l *list.List, keep *cacheEntry) *cacheEntry {
	for el := l.Back(); el != nil; el = el.Prev() {
		if e := el.Value.(*cacheEntry); e != keep {
			return e
		}
	}
	return nil
}

// view is one session's view of the server: a bounded LRU of successful
// reads. The entry for the index is pinned (never evicted by the session's
// other reads) so that loads cannot push the catalog the session is looking
// at out of its view; it still counts against the bounds, and the provider's
// budget may drop it when no other session's entry is left to drop. Callers
// hold the provider's mutex, except around flights, which synchronizes
// itself.
type view struct {
	maxEntries int
	maxBytes   int64
	budget     *budget
	lru        *list.List // front = most recently used
	entries    map[cacheKey]*cacheEntry
	bytes      int64
	index      *cacheEntry
	// flights shares reads in progress among the session's readers, by
	// URI (the connection part of the key is the provider's, fixed) and
	// the size and digest a verified read expects.
	flights singleflight.Group
	// listing is the extension listing the session's catalog came from.
	// It is shared with other sessions and not counted against the view's
	// bounds (MaxEntries and MaxListingBytes bound it).
	listing listing
	// held are the entries the session loaded skills from, by URI (the
	// server's label is the provider's).
	held map[string]*heldEntry
}

func newView(maxEntries int, maxBytes int64, b *budget) *view {
	return &view{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		budget:     b,
		lru:        list.New(),
		entries:    make(map[cacheKey]*cacheEntry),
	}
}

func (v *view) get(k cacheKey) *cacheEntry {
	e := v.entries[k]
	if e != nil {
		v.lru.MoveToFront(e.elem)
		v.budget.touch(e)
	}
	return e
}

// put caches a successful read, evicting least recently used entries of
// this view and then, for the provider's budget, of any view. A resource
// larger than the view's byte bound or the budget is not cached. It returns
// the entry, or nil when nothing was cached.
func (v *view) put(k cacheKey, c *Content) *cacheEntry {
	v.remove(k)
	size := c.size()
	room, slots := v.maxBytes, v.maxEntries
	if v.index != nil {
		// The pinned index is never evicted for another entry.
		room -= v.index.size
		slots--
	}
	if size > room || size > v.budget.max || slots < 1 {
		return nil
	}
	e := &cacheEntry{key: k, content: c, size: size, owner: v}
	e.elem = v.lru.PushFront(e)
	v.entries[k] = e
	v.bytes += size
	v.budget.add(e)
	v.evict(e)
	v.budget.evict(e)
	return e
}

// setIndex pins e as the session's index entry.
func (v *view) setIndex(e *cacheEntry) {
	if v.index != nil && v.index != e {
		v.remove(v.index.key)
	}
	v.index = e
	v.budget.pinIndex(e)
}

func (v *view) remove(k cacheKey) {
	e := v.entries[k]
	if e == nil {
		return
	}
	v.lru.Remove(e.elem)
	delete(v.entries, k)
	v.bytes -= e.size
	v.budget.remove(e)
	if v.index == e {
		v.index = nil
	}
}

// release drops every entry, returning its bytes to the budget, and the
// session's listing and held entries.
func (v *view) release() {
	for k := range v.entries {
		v.remove(k)
	}
	v.listing, v.held = listing{}, nil
}

// evict drops least recently used entries other than keep and the pinned
// index until the view's bounds hold.
func (v *view) evict(keep *cacheEntry) {
	for el := v.lru.Back(); el != nil && (v.lru.Len() > v.maxEntries || v.bytes > v.maxBytes); {
		e := el.Value.(*cacheEntry)
		el = el.Prev()
		if e == keep || e == v.index {
			continue
		}
		v.remove(e.key)
	}
}
