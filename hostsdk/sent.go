package hostsdk

import (
	"unsafe"

	"github.com/skillcatalog/skillcatalog/internal/bytelru"
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
	lru *bytelru.Cache[string, []skill.Summary]
}

func newSentCache(entries, maxBytes int) *sentCache {
	return &sentCache{lru: bytelru.New[string, []skill.Summary](entries, maxBytes, 0)}
}

// Get returns the snapshot sent under token.
func (c *sentCache) Get(token string) ([]skill.Summary, bool) {
	return c.lru.Get(token)
}

// Add remembers the snapshot sent under token, evicting the least recently
// used ones beyond the bounds.
func (c *sentCache) Add(token string, s []skill.Summary) {
	c.lru.Add(token, s, summariesBytes(s))
}

// summariesBytes is what a snapshot keeps alive: its summaries and their
// strings (counted even where the registry shares them, so the bound never
// falls short).
func summariesBytes(s []skill.Summary) int {
	n := cap(s) * int(unsafe.Sizeof(skill.Summary{}))
	for i := range s {
		n += len(s[i].Name) + len(s[i].Description) + len(s[i].Provider) + len(s[i].Origin) + len(s[i].QualifiedName)
	}
	return n
}
