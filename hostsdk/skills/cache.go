package skills

import (
	"fmt"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// snapshotCache is a bounded LRU of complete snapshot views, keyed by
// cacheKey. It is not safe for concurrent use: the Registry guards it with
// its own mutex, which must cover the revision checks too, so it wraps the
// unlocked simplelru rather than lru.Cache.
type snapshotCache struct {
	lru *simplelru.LRU[string, cacheEntry]
}

type cacheEntry struct {
	session string
	rev     uint64
	v       *view
}

// newSnapshotCache returns an empty cache of capacity entries. It panics
// if capacity is not positive: capacities are constants of this package.
func newSnapshotCache(capacity int) snapshotCache {
	lru, err := simplelru.NewLRU[string, cacheEntry](capacity, nil)
	if err != nil {
		panic(fmt.Sprintf("skills: snapshot cache of %d entries: %v", capacity, err))
	}
	return snapshotCache{lru: lru}
}

// get returns the view cached for key at revision rev. An entry of another
// revision can never be hit again, so it is dropped.
func (c *snapshotCache) get(key string, rev uint64) (*view, bool) {
	e, ok := c.lru.Get(key)
	if !ok {
		return nil, false
	}
	if e.rev != rev {
		c.lru.Remove(key)
		return nil, false
	}
	return e.v, true
}

// put caches v for key, evicting the least recently used entry when full.
func (c *snapshotCache) put(key, session string, rev uint64, v *view) {
	c.lru.Add(key, cacheEntry{session: session, rev: rev, v: v})
}

// dropSession removes every entry of session. It scans the whole cache, which
// is small and bounded; sessions end far less often than snapshots are read.
func (c *snapshotCache) dropSession(session string) {
	for _, key := range c.lru.Keys() {
		if e, ok := c.lru.Peek(key); ok && e.session == session {
			c.lru.Remove(key)
		}
	}
}

func (c *snapshotCache) clear() { c.lru.Purge() }

func (c *snapshotCache) len() int { return c.lru.Len() }
