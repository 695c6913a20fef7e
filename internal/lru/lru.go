// Package lru is a small bounded least-recently-used map; it keeps the
// plugin's caches bounded.
package lru

import "container/list"

// Cache is a bounded LRU map. It is not safe for concurrent use.
type Cache[K comparable, V any] struct {
	max   int
	order *list.List // front = most recently used
	items map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key   K
	value V
}

// New returns a cache holding at most max entries (at least 1).
func New[K comparable, V any](max int) *Cache[K, V] {
	if max < 1 {
		max = 1
	}
	return &Cache[K, V]{max: max, order: list.New(), items: make(map[K]*list.Element)}
}

// Get returns the value for key and marks it recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	if el, ok := c.items[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry[K, V]).value, true
	}
	var zero V
	return zero, false
}

// Put stores value under key, evicting the least recently used entry when
// the cache is full.
func (c *Cache[K, V]) Put(key K, value V) {
	if el, ok := c.items[key]; ok {
		el.Value.(*entry[K, V]).value = value
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(&entry[K, V]{key: key, value: value})
	if c.order.Len() > c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*entry[K, V]).key)
	}
}

// Delete removes key.
func (c *Cache[K, V]) Delete(key K) {
	if el, ok := c.items[key]; ok {
		c.order.Remove(el)
		delete(c.items, key)
	}
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int { return c.order.Len() }
