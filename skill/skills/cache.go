package skills

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/skillcatalog/skillcatalog/internal/bytelru"
	"github.com/skillcatalog/skillcatalog/skill"
)

// snapshotCache is an LRU of complete snapshot views, keyed by cacheKey
// (one entry per session, working directory and chain), bounded both by
// its number of entries and by the bytes its entries and views keep alive.
// It is not safe for concurrent use: the Registry guards it with its own
// mutex, which must cover the revision checks too, so it wraps the
// unlocked simplelru rather than lru.Cache.
//
// Sessions that see the same skills share one view: entries whose views
// have the same token and the same sources hold the first such view, so an
// entry costs its key and a pointer, and the cache can hold an entry for
// every live session of a busy host without holding a copy of the skills
// for each. A shared view's bytes are counted once, while any entry holds
// it; sessions that see skills of their own cost a view each, and the byte
// bound evicts the least recently used entries until they fit. (It is not
// a bytelru.Cache, whose entries each carry a cost of their own: a shared
// view's cost belongs to no one entry.)
type snapshotCache struct {
	lru      *simplelru.LRU[string, cacheEntry]
	sessions map[string]map[string]struct{} // the keys of each session's entries
	shared   map[string]*sharedView         // by token
	bytes    int                            // entries' and views' bytes
	maxBytes int
}

type cacheEntry struct {
	session string
	rev     uint64
	v       *view
	sh      *sharedView // the share of v this entry holds; nil if v is its own
	bytes   int         // the entry's cost, and v's when it is the entry's own
}

// sharedView is the view entries of equal content hold, how many do, and
// what it costs.
type sharedView struct {
	v     *view
	rev   uint64
	refs  int
	bytes int
}

// newSnapshotCache returns an empty cache of at most capacity entries and
// maxBytes bytes. It panics if capacity is not positive: capacities are
// constants of this package.
func newSnapshotCache(capacity, maxBytes int) *snapshotCache {
	c := &snapshotCache{sessions: make(map[string]map[string]struct{}), shared: make(map[string]*sharedView), maxBytes: maxBytes}
	lru, err := simplelru.NewLRU[string, cacheEntry](capacity, c.evicted)
	if err != nil {
		panic(fmt.Sprintf("skills: snapshot cache of %d entries: %v", capacity, err))
	}
	c.lru = lru
	return c
}

// entryOverhead is what an entry costs besides its key and session
// strings: simplelru's bookkeeping, and the slot of the key in the
// session's index.
var entryOverhead = bytelru.Bookkeeping[string, cacheEntry]() + int(unsafe.Sizeof("")) + 48

// viewOverhead is what a view costs besides what its slices hold: the
// struct, its share record and the slot of its token in the shared map.
const viewOverhead = int(unsafe.Sizeof(view{})) + int(unsafe.Sizeof(sharedView{})) + 64

// viewBytes is what v keeps alive: its summaries with every string they
// hold (names, descriptions, providers, origins, qualified names), its
// sources, token and diagnostics. Strings it shares with the providers'
// observations are counted anyway, so the bound never falls short.
func viewBytes(v *view) int {
	n := viewOverhead + len(v.token) +
		cap(v.skills)*int(unsafe.Sizeof(skill.Summary{})) +
		cap(v.sources)*int(unsafe.Sizeof(source{})) +
		cap(v.unlisted)*int(unsafe.Sizeof((*providerEntry)(nil))) +
		cap(v.diagnostics)*int(unsafe.Sizeof(""))
	for i := range v.skills {
		s := &v.skills[i]
		n += len(s.Name) + len(s.Description) + len(s.Provider) + len(s.Origin) + len(s.QualifiedName)
	}
	for _, d := range v.diagnostics {
		n += len(d)
	}
	return n
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

// put caches v for key, evicting the least recently used entries until
// both bounds hold again, and returns the view the entry holds: v, or an
// equal view already held. An entry that alone exceeds the byte bound is
// not kept.
func (c *snapshotCache) put(key, session string, rev uint64, v *view) *view {
	c.lru.Remove(key) // a replaced entry releases its view like an evicted one
	e := cacheEntry{session: session, rev: rev, bytes: len(key) + len(session) + entryOverhead}
	switch s := c.shared[v.token]; {
	case s == nil || s.rev != rev:
		// Entries of an older revision keep their view until they go; the
		// current revision's views are shared from now on.
		e.sh = &sharedView{v: v, rev: rev, refs: 1, bytes: viewBytes(v)}
		c.shared[v.token] = e.sh
		c.bytes += e.sh.bytes
	case slices.Equal(s.v.sources, v.sources):
		s.refs++
		v, e.sh = s.v, s
	default:
		// An equal token from other sources: v is held alone.
		e.bytes += viewBytes(v)
	}
	e.v = v
	keys := c.sessions[session]
	if keys == nil {
		keys = make(map[string]struct{})
		c.sessions[session] = keys
	}
	keys[key] = struct{}{}
	c.bytes += e.bytes
	c.lru.Add(key, e)
	for c.bytes > c.maxBytes && c.lru.Len() > 0 {
		c.lru.RemoveOldest()
	}
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
	c.bytes -= e.bytes
	if s := e.sh; s != nil {
		if s.refs--; s.refs == 0 {
			c.bytes -= s.bytes
			if c.shared[e.v.token] == s {
				delete(c.shared, e.v.token)
			}
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

// size returns the bytes the cache counts its entries and views at.
func (c *snapshotCache) size() int { return c.bytes }
