package hostsdk

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Bounds of the complete snapshots a Host remembers for deltas: one per
// place (working directory, agent scope and session selection) whose skills
// change at a time is the steady state, and sessions with selections of
// their own each make a place.
const (
	sentSnapshots     = 256
	sentSnapshotBytes = 32 << 20
)

// sentCache holds the complete snapshots recently sent to plugins, by
// token, so the next snapshot of the same place can be sent as a delta. It
// is bounded by entries and by the bytes of the summaries it holds, so many
// small snapshots and a few large ones both fit; a snapshot larger than the
// whole bound is not kept (its next change is sent whole).
type sentCache struct {
	mu       sync.Mutex
	lru      *simplelru.LRU[string, []skill.Summary]
	bytes    int
	maxBytes int
}

func newSentCache(entries, maxBytes int) (*sentCache, error) {
	c := &sentCache{maxBytes: maxBytes}
	lru, err := simplelru.NewLRU(entries, func(_ string, s []skill.Summary) { c.bytes -= summariesBytes(s) })
	if err != nil {
		return nil, fmt.Errorf("sent snapshots: %w", err)
	}
	c.lru = lru
	return c, nil
}

// get returns the snapshot sent under token.
func (c *sentCache) get(token string) ([]skill.Summary, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(token)
}

// add remembers the snapshot sent under token, evicting the least recently
// used ones beyond the bounds.
func (c *sentCache) add(token string, s []skill.Summary) {
	n := summariesBytes(s)
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > c.maxBytes {
		c.lru.Remove(token)
		return
	}
	c.lru.Remove(token) // re-adding counts its bytes once
	c.lru.Add(token, s)
	c.bytes += n
	for c.bytes > c.maxBytes {
		c.lru.RemoveOldest()
	}
}

// summariesBytes is what a snapshot keeps alive: its summaries and their
// strings (counted even where the registry shares them, so the bound never
// falls short).
func summariesBytes(s []skill.Summary) int {
	n := cap(s) * int(unsafe.Sizeof(skill.Summary{}))
	for i := range s {
		n += len(s[i].Name) + len(s[i].Description) + len(s[i].Provider)
	}
	return n
}
