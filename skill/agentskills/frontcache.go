package agentskills

import (
	"sync"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/bytelru"
	"github.com/skillcatalog/skillcatalog/internal/fileid"
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
	// noFront: the file does not start with a frontmatter block (err
	// says so too).
	noFront bool
	// firstParagraph is the body's first paragraph, as far as the read
	// prefix holds it, for a layout that describes skills by it.
	firstParagraph string
	// searchText is the start of the body's prose, as far as the read
	// prefix holds it (skill.SearchTextOf), for the plugin's skill search.
	searchText string
}

// frontEntry is a cached parse and the file version it was made from.
type frontEntry struct {
	id  fileID
	res *parsed
}

// frontCache maps a SKILL.md path to the parse of the file version last
// read there, so that a rescan of unchanged skills costs one stat each.
// An entry is used only while the file's identity is unchanged. It is
// bounded in entries and bytes and evicts the least recently used entry.
// Bodies are never cached.
type frontCache struct {
	now func() time.Time // the clock of the racy-window test; tests move it

	lru *bytelru.Cache[string, frontEntry]

	mu     sync.Mutex // guards the counters
	hits   uint64     // for tests
	misses uint64
}

func newFrontCache(maxEntries, maxBytes int) *frontCache {
	return &frontCache{now: time.Now, lru: bytelru.New[string, frontEntry](maxEntries, maxBytes, frontCacheEntryOverhead)}
}

// get returns the cached parse of path if it was made from the file
// version id. An entry for another version is dropped.
func (c *frontCache) get(path string, id fileID) *parsed {
	e, ok := c.lru.Get(path)
	if ok && e.id != id {
		c.lru.Remove(path)
		ok = false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !ok {
		c.misses++
		return nil
	}
	c.hits++
	return e.res
}

// put records the parse of path's version id, read at readStart or later,
// unless the version is too recent to be told apart from a later rewrite.
// cost is what the parse keeps alive besides frontCacheEntryOverhead.
func (c *frontCache) put(path string, id fileID, res *parsed, cost int, readStart time.Time) {
	limit := readStart.Add(-racyWindow).UnixNano()
	if id.MTime >= limit || id.CTime >= limit {
		c.lru.Remove(path) // the version cached before is stale either way
		return
	}
	c.lru.Add(path, frontEntry{id: id, res: res}, cost)
}

// clear drops every entry.
func (c *frontCache) clear() {
	c.lru.Purge()
}

// stats returns the number of entries, their cost, and the lookups so far.
func (c *frontCache) stats() (entries, bytes int, hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.lru.Bytes(), c.hits, c.misses
}
