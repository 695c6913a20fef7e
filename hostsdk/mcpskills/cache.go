package mcpskills

import (
	"container/list"
	"time"

	"golang.org/x/sync/singleflight"
)

// cacheKey identifies a cached read: the connection configuration it was read
// under and the resource URI.
type cacheKey struct {
	conn string
	uri  string
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
	elem   *list.Element
}

// view is one session's stable view of the server: a bounded LRU of
// successful reads. The entry for the index is pinned (never evicted by other
// reads) so that loads cannot push the catalog the session is looking at out
// of its view; it still counts against the bounds. Callers hold the
// provider's mutex, except around flights, which synchronizes itself.
type view struct {
	maxEntries int
	maxBytes   int64
	lru        *list.List // front = most recently used
	entries    map[cacheKey]*cacheEntry
	bytes      int64
	index      *cacheEntry
	// flights shares reads in progress among the session's readers, by
	// URI (the connection part of the key is the provider's, fixed).
	flights singleflight.Group
}

func newView(maxEntries int, maxBytes int64) *view {
	return &view{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		lru:        list.New(),
		entries:    make(map[cacheKey]*cacheEntry),
	}
}

func (v *view) get(k cacheKey) *cacheEntry {
	e := v.entries[k]
	if e != nil {
		v.lru.MoveToFront(e.elem)
	}
	return e
}

// put caches a successful read, evicting least recently used entries. A
// resource larger than the byte bound is not cached. It returns the entry,
// or nil when nothing was cached.
func (v *view) put(k cacheKey, c *Content) *cacheEntry {
	v.remove(k)
	size := c.size()
	room, slots := v.maxBytes, v.maxEntries
	if v.index != nil {
		// The pinned index is never evicted for another entry.
		room -= v.index.size
		slots--
	}
	if size > room || slots < 1 {
		return nil
	}
	e := &cacheEntry{key: k, content: c, size: size}
	e.elem = v.lru.PushFront(e)
	v.entries[k] = e
	v.bytes += size
	v.evict(e)
	return e
}

// setIndex pins e as the session's index entry.
func (v *view) setIndex(e *cacheEntry) {
	if v.index != nil && v.index != e {
		v.remove(v.index.key)
	}
	v.index = e
}

func (v *view) remove(k cacheKey) {
	e := v.entries[k]
	if e == nil {
		return
	}
	v.lru.Remove(e.elem)
	delete(v.entries, k)
	v.bytes -= e.size
	if v.index == e {
		v.index = nil
	}
}

// evict drops least recently used entries other than keep and the pinned
// index until the bounds hold.
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
