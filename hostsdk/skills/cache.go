package skills

import "container/list"

// snapshotCache is a bounded LRU of complete snapshot views. It is not safe
// for concurrent use; the Registry guards it with its mutex.
type snapshotCache struct {
	capacity int
	order    *list.List // front is most recently used; values are *cacheEntry
	items    map[string]*list.Element
}

type cacheEntry struct {
	key     string
	session string
	rev     uint64
	v       *view
}

func newSnapshotCache(capacity int) snapshotCache {
	return snapshotCache{
		capacity: capacity,
		order:    list.New(),
		items:    make(map[string]*list.Element),
	}
}

// get returns the view cached for key at revision rev.
func (c *snapshotCache) get(key string, rev uint64) (*view, bool) {
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if e.rev != rev {
		c.remove(el)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.v, true
}

func (c *snapshotCache) put(key, session string, rev uint64, v *view) {
	if el, ok := c.items[key]; ok {
		e := el.Value.(*cacheEntry)
		e.rev, e.v = rev, v
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key: key, session: session, rev: rev, v: v})
	for c.order.Len() > c.capacity {
		c.remove(c.order.Back())
	}
}

func (c *snapshotCache) dropSession(session string) {
	for el := c.order.Front(); el != nil; {
		next := el.Next()
		if el.Value.(*cacheEntry).session == session {
			c.remove(el)
		}
		el = next
	}
}

func (c *snapshotCache) clear() {
	if c.order.Len() == 0 {
		return
	}
	c.order.Init()
	clear(c.items)
}

func (c *snapshotCache) len() int { return c.order.Len() }

func (c *snapshotCache) remove(el *list.Element) {
	c.order.Remove(el)
	delete(c.items, el.Value.(*cacheEntry).key)
}
