package sessionlog

import (
	"container/list"
	"sync"
)

// DefaultTailBudget is the byte budget a FileStore gives, unless
// [FileStoreOptions.TailBudget] says otherwise, to the newest events that
// all its sessions' logs keep in memory together.
const DefaultTailBudget = 64 << 20

// tailShare is the fraction of the budget (1/tailShare) that one event
// may take alone: a log's tail holds an event larger than tailMaxBytes
// only up to that size.
const tailShare = 8

// logShared is what the FileLogs of one FileStore share (a log opened
// with OpenFile has its own): the budget of their tails, and the buffers
// their reads and appends use and drop, so that an idle log holds none.
type logShared struct {
	tails tailCache
	// scratch holds buffers of a chunk's size that reads use and drop:
	// where lines start and end is found without allocating.
	scratch sync.Pool
	// lines holds the buffers appends encode their lines into: the bytes
	// are written and dropped, and a catalog's line is hundreds of KiB.
	lines sync.Pool
}

func newLogShared(budget int) *logShared {
	s := &logShared{}
	s.tails.budget = budget
	s.tails.logBytes = min(tailMaxBytes, budget)
	s.tails.maxEvent = max(s.tails.logBytes, budget/tailShare)
	return s
}

// tailCache holds the tails of a store's logs within a byte budget. A log
// charges it with what its tail holds whenever the tail changes, and the
// cache then picks the tails of the least recently used logs to drop
// until the charges fit the budget again. A log read from its tail since
// the cache last looked gets a second chance before its tail is dropped.
//
// Locks: a log charges the cache while it holds its own mu, so the cache
// never takes a log's mu while it holds its own; a dropped tail is dropped
// after both are let go (see evict).
type tailCache struct {
	budget   int // bytes of all the tails together
	logBytes int // bytes of one log's tail of several events
	maxEvent int // bytes of the largest event a tail holds alone

	mu    sync.Mutex
	bytes int       // what the logs in lru are charged
	lru   list.List // of *FileLog with a charged tail, most recently used first
}

// charge records that l's tail now holds l.tailBytes, making l the most
// recently used, and returns the logs whose tails must be dropped (by
// evict, once l.mu is let go) to keep within the budget. l.mu must be
// held.
func (c *tailCache) charge(l *FileLog) []*FileLog {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bytes += l.tailBytes - l.tailCharged
	l.tailCharged = l.tailBytes
	switch {
	case l.tailBytes == 0 && l.tailElem != nil:
		c.lru.Remove(l.tailElem)
		l.tailElem = nil
	case l.tailBytes == 0:
	case l.tailElem == nil:
		l.tailElem = c.lru.PushFront(l)
	default:
		c.lru.MoveToFront(l.tailElem)
	}
	return c.overLocked(l)
}

// overLocked picks the least recently used tails, other than l's, to drop
// while the charges exceed the budget, and takes their charges off. A tail
// read since it was last looked at is moved to the front instead, once.
// c.mu must be held.
func (c *tailCache) overLocked(l *FileLog) []*FileLog {
	var victims []*FileLog
	for chances := c.lru.Len(); c.bytes > c.budget && c.lru.Len() > 1; {
		e := c.lru.Back()
		v := e.Value.(*FileLog)
		if v == l || chances > 0 && v.tailUsed.Swap(false) {
			chances--
			c.lru.MoveToFront(e)
			continue
		}
		c.lru.Remove(e)
		c.bytes -= v.tailCharged
		v.tailElem, v.tailCharged = nil, 0
		victims = append(victims, v)
	}
	return victims
}

// evict drops the tails of the logs charge picked, unless a log charged
// the cache again since (its tail is then newer than the one picked). No
// log's mu may be held.
func (c *tailCache) evict(victims []*FileLog) {
	for _, v := range victims {
		v.mu.Lock()
		c.mu.Lock()
		picked := v.tailElem == nil
		c.mu.Unlock()
		if picked {
			v.tail, v.tailBytes = nil, 0
		}
		v.mu.Unlock()
	}
}

// held returns the bytes the tails are charged.
func (c *tailCache) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
