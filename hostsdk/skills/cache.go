package skills

import (
	"fmt"
	"slices"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// snapshotCache is a bounded LRU of complete snapshot views, keyed by
// cacheKey (one entry per session, working directory and chain). It is not
// safe for concurrent use: the Registry guards it with its own mutex, which
// must cover the revision checks too, so it wraps the unlocked simplelru
// rather than lru.Cache.
//
// Sessions that see the same skills share one view: entries whose views
// have the same token and the same sources hold the first such view, so an
// entry costs its key and a pointer, and the cache can hold an entry for
// every live session of a busy host without holding a copy of the skills
// for each.
type snapshotCache struct {
	lru      *simplelru.LRU[string, cacheEntry]
	sessions map[string]map[string]struct{} // the keys of each session's entries
	shared   map[string]*sharedView         // by token
}

type cacheEntry struct {
	session string
	rev     uint64
	v       *view
}

// sharedView is the view entries of equal content hold, and how many do.
type sharedView struct {
	v    *view
	rev  uint64
	refs int
}

// newSnapshotCache returns an empty cache of capacity entries. It panics
// if capacity is not positive: capacities are constants of this package.
func newSnapshotCache(capacity int) *snapshotCache {
	c := &snapshotCache{sessions: make(map[string]map[string]struct{}), shared: make(map[string]*sharedView)}
	lru, err := simplelru.NewLRU[string, cacheEntry](capacity, c.evicted)
	if err != nil {
		panic(fmt.Sprintf("skills: snapshot cache of %d entries: %v", capacity, err))
	}
	c.lru = lru
	return c
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

// put caches v for key, evicting the least recently used entry when full,
// and returns the view the entry holds: v, or an equal view already held.
func (c *snapshotCache) put(key, session string, rev uint64, v *view) *view {
	c.lru.Remove(key) // a replaced entry releases its view like an evicted one
	switch s := c.shared[v.token]; {
	case s == nil || s.rev != rev:
		// Entries of an older revision keep their view until they go; the
		// current revision's views are shared from now on.
		c.shared[v.token] = &sharedView{v: v, rev: rev, refs: 1}
	case slices.Equal(s.v.sources, v.sources):
		s.refs++
		v = s.v
	}
	// Otherwise an equal token from other sources: v is held alone.
	keys := c.sessions[session]
	if keys == nil {
		keys = make(map[string]struct{})
		c.sessions[session] = keys
	}
	keys[key] = struct{}{}
	c.lru.Add(key, cacheEntry{session: session, rev: rev, v: v})
	return v
}

// evicted releases what an entry leaving the cache held.
func (c *snapshotCache) evicted(key string, e cacheEntry) {
	if keys := c.sessions[e.session]; keys != nil {
		delete(keys, key)
		if len(keys) == 0 {
			delete(c.sessions, e.session)
		}
	}
	if s := c.shared[e.v.token]; s != nil && s.v == e.v {
		if s.refs--; s.refs == 0 {
			delete(c.shared, e.v.token)
		}
	}
}

// dropSession removes every entry of session.
func (c *snapshotCache) dropSession(session string) {
	for key := range c.sessions[session] {
		c.lru.Remove(key)
	}
}

func (c *snapshotCache) clear() { c.lru.Purge() }

func (c *snapshotCache) len() int { return c.lru.Len() }
