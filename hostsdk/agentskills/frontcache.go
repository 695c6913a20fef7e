package agentskills

import (
	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"sync"
	"time"
)

// Bounds of a provider's frontmatter cache. The byte bound counts the
// frontmatter text of each entry plus frontCacheEntryOverhead, a rough
// measure of what its decoded form keeps alive; it stops a few thousand
// skills with very large frontmatter from pinning hundreds of megabytes.
const (
	frontCacheMaxEntries    = 16384
	frontCacheMaxBytes      = 32 << 20
	frontCacheEntryOverhead = 512
)

// racyWindow is how old a file's modification and change times must be,
// by the local clock when the scan read it, before its parse is cached.
// Time stamps are coarse (a kernel tick on Linux, a second or two on some
// file systems), so a same-size rewrite soon after the read can leave
// every field of the identity unchanged; a file that recent is read again
// on every scan until it has aged. It is the same precaution git takes
// with its "racily clean" index entries.
const racyWindow = 3 * time.Second

// fileID identifies one version of a file (see package fileid).
type fileID = fileid.ID

// parsed is what scanning derives from a SKILL.md's content alone: the
// frontmatter, the parser's warnings, or why there is no usable
// frontmatter. Checks that depend on where the file is (Validate against
// the directory name) are made again on every scan.
type parsed struct {
	fm       Frontmatter
	warnings []string
	err      error
}

type frontEntry struct {
	path       string
	id         fileID
	res        *parsed
	cost       int
	prev, next *frontEntry
}

// frontCache maps a SKILL.md path to the parse of the file version last
// read there, so that a rescan of unchanged skills costs one stat each.
// An entry is used only while the file's identity is unchanged. It is
// bounded in entries and bytes and evicts the least recently used entry.
// Bodies are never cached.
type frontCache struct {
	now func() time.Time // the clock of the racy-window test; tests move it

	mu     sync.Mutex
	m      map[string]*frontEntry
	lru    frontEntry // sentinel: lru.next is the most recently used
	bytes  int
	maxN   int
	maxB   int
	hits   uint64 // for tests
	misses uint64
}

func newFrontCache(maxEntries, maxBytes int) *frontCache {
	c := &frontCache{now: time.Now, m: make(map[string]*frontEntry), maxN: maxEntries, maxB: maxBytes}
	c.lru.next, c.lru.prev = &c.lru, &c.lru
	return c
}

// get returns the cached parse of path if it was made from the file
// version id. An entry for another version is dropped.
func (c *frontCache) get(path string, id fileID) *parsed {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[path]
	if e == nil {
		c.misses++
		return nil
	}
	if e.id != id {
		c.remove(e)
		c.misses++
		return nil
	}
	c.unlink(e)
	c.pushFront(e)
	c.hits++
	return e.res
}

// put records the parse of path's version id, read at readStart or later,
// unless the version is too recent to be told apart from a later rewrite.
func (c *frontCache) put(path string, id fileID, res *parsed, cost int, readStart time.Time) {
	cost += frontCacheEntryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[path]; e != nil {
		c.remove(e)
	}
	limit := readStart.Add(-racyWindow).UnixNano()
	if id.MTime >= limit || id.CTime >= limit || cost > c.maxB || c.maxN <= 0 {
		return
	}
	for len(c.m) >= c.maxN || c.bytes+cost > c.maxB {
		c.remove(c.lru.prev)
	}
	e := &frontEntry{path: path, id: id, res: res, cost: cost}
	c.m[path] = e
	c.bytes += cost
	c.pushFront(e)
}

// clear drops every entry.
func (c *frontCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
	c.lru.next, c.lru.prev = &c.lru, &c.lru
	c.bytes = 0
}

// stats returns the number of entries, their cost, and the lookups so far.
func (c *frontCache) stats() (entries, bytes int, hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m), c.bytes, c.hits, c.misses
}

func (c *frontCache) remove(e *frontEntry) {
	c.unlink(e)
	delete(c.m, e.path)
	c.bytes -= e.cost
}

func (c *frontCache) unlink(e *frontEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (c *frontCache) pushFront(e *frontEntry) {
	e.prev, e.next = &c.lru, c.lru.next
	c.lru.next.prev = e
	c.lru.next = e
}
