// Package bytelru is the one least-recently-used cache of the module:
// bounded both by its number of entries and by the bytes they keep alive.
// The plugin's view, session and parse caches, the host's memory of the
// snapshots it sent and the Agent Skills provider's frontmatter cache all
// use it, each with its own measure of an entry's cost.
package bytelru

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Cache is a least-recently-used cache bounded by its number of entries and
// by the sum of their costs. The caller gives an entry's cost when it adds
// it (the bytes its key and value refer to); the cache adds its per-entry
// overhead, fixed when it is made. Adding evicts the least recently used
// entries until both bounds hold; an entry that alone costs more than the
// byte bound is not kept. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu       sync.Mutex
	lru      *simplelru.LRU[K, costed[V]]
	bytes    int
	maxBytes int
	overhead int
}

type costed[V any] struct {
	value V
	cost  int
}

// New returns an empty cache of at most maxEntries entries costing at most
// maxBytes together, each accounted at the cost Add is given plus overhead.
// The bounds are the caller's constants: a maxEntries below 1 panics.
func New[K comparable, V any](maxEntries, maxBytes, overhead int) *Cache[K, V] {
	c := &Cache[K, V]{maxBytes: maxBytes, overhead: overhead}
	lru, err := simplelru.NewLRU(maxEntries, func(_ K, e costed[V]) { c.bytes -= e.cost })
	if err != nil {
		panic(fmt.Sprintf("lru cache of %d entries: %v", maxEntries, err))
	}
	c.lru = lru
	return c
}

// lruEntryOverhead estimates the bookkeeping of simplelru for one entry
// beyond its key and value: the list element's links and the map slot's
// spare room.
const lruEntryOverhead = 96

// Bookkeeping is what a Cache[K, V] itself keeps per entry besides what the
// key and value refer to: the key twice (the map holds it as well as the
// list), the value and the list's links. A cache that should count its own
// memory passes it as New's overhead.
func Bookkeeping[K comparable, V any]() int {
	var k K
	return 2*int(unsafe.Sizeof(k)) + int(unsafe.Sizeof(costed[V]{})) + lruEntryOverhead
}

// Get returns the value of key and marks it as recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(key)
	return e.value, ok
}

// Add sets key to value, which costs cost bytes besides the cache's
// overhead, and evicts the least recently used entries until the cache is
// within its bounds again. A value that cannot fit at all replaces nothing:
// key is then no longer cached, so that no stale value outlives it.
func (c *Cache[K, V]) Add(key K, value V, cost int) {
	cost += c.overhead
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key) // an entry replaced is evicted, so its cost goes with it
	if cost > c.maxBytes {
		return
	}
	c.bytes += cost
	c.lru.Add(key, costed[V]{value: value, cost: cost})
	for c.bytes > c.maxBytes {
		c.lru.RemoveOldest()
	}
}

// Remove drops key.
func (c *Cache[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key)
}

// Purge drops every entry.
func (c *Cache[K, V]) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Purge()
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Bytes returns the summed cost of the entries, overhead included.
func (c *Cache[K, V]) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Keys returns the keys, least recently used first, without marking any
// as used.
func (c *Cache[K, V]) Keys() []K {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Keys()
}
