package plugin

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// byteLRU is a least-recently-used cache bounded both by its number of
// entries and by the sum of their byte costs. The caller gives an entry's
// cost when it adds it: the bytes its key and value refer to; the cache adds
// its own bookkeeping per entry. Adding evicts the least recently used
// entries until both bounds hold; an entry that alone costs more than the
// byte bound is not kept. It is safe for concurrent use.
type byteLRU[K comparable, V any] struct {
	mu       sync.Mutex
	lru      *simplelru.LRU[K, costed[V]]
	bytes    int
	maxBytes int
}

type costed[V any] struct {
	value V
	cost  int
}

// lruEntryOverhead estimates the cache's own bytes for one entry beyond its
// key and value: the list element's links and the map slot's spare room.
const lruEntryOverhead = 96

// newByteLRU returns an empty cache of at most maxEntries entries costing at
// most maxBytes together. Both bounds are constants of this package and
// positive.
func newByteLRU[K comparable, V any](maxEntries, maxBytes int) *byteLRU[K, V] {
	c := &byteLRU[K, V]{maxBytes: maxBytes}
	lru, err := simplelru.NewLRU(maxEntries, func(_ K, e costed[V]) { c.bytes -= e.cost })
	if err != nil {
		panic(fmt.Sprintf("lru cache of %d entries: %v", maxEntries, err))
	}
	c.lru = lru
	return c
}

// entryCost is what an entry of cost refBytes is accounted at: its own key
// and value (twice the key: the map holds it as well as the list) and the
// cache's bookkeeping besides what it refers to.
func (c *byteLRU[K, V]) entryCost(refBytes int) int {
	var k K
	return refBytes + 2*int(unsafe.Sizeof(k)) + int(unsafe.Sizeof(costed[V]{})) + lruEntryOverhead
}

// Get returns the value of key and marks it as recently used.
func (c *byteLRU[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(key)
	return e.value, ok
}

// Add sets key to value, which refers to refBytes bytes besides its own
// struct, and evicts the least recently used entries until the cache is
// within its bounds again. A value that cannot fit at all replaces nothing:
// key is then no longer cached, so that no stale value outlives it.
func (c *byteLRU[K, V]) Add(key K, value V, refBytes int) {
	cost := c.entryCost(refBytes)
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
func (c *byteLRU[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key)
}

// Purge drops every entry.
func (c *byteLRU[K, V]) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Purge()
}

// Len returns the number of entries.
func (c *byteLRU[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Bytes returns the summed cost of the entries.
func (c *byteLRU[K, V]) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
