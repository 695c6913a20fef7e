package hostsdk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
)

func snapshotOf(n int, desc string) []skill.Summary {
	s := make([]skill.Summary, n)
	for i := range s {
		s[i] = skill.Summary{Name: fmt.Sprintf("skill-%d", i), Description: desc, Provider: "runtime"}
	}
	return s
}

// TestSentCacheBounds: the snapshots sent for deltas are bounded by entries
// and by bytes, least recently used first; one larger than the byte bound
// is not kept, and adding a token again counts its bytes once.
func TestSentCacheBounds(t *testing.T) {
	small := snapshotOf(10, "A short description.")
	per := summariesBytes(small)

	c := newSentCache(4, 3*per)
	for _, tok := range []string{"a", "b", "c"} {
		c.Add(tok, small)
	}
	if _, ok := c.Get("a"); !ok { // a is now the most recently used
		t.Fatal("a evicted within the bounds")
	}
	c.Add("d", small) // over the byte bound: b, the least recently used, goes
	for tok, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, ok := c.Get(tok); ok != want {
			t.Errorf("after d: %s cached = %v, want %v", tok, ok, want)
		}
	}
	if c.lru.Bytes() != 3*per {
		t.Errorf("bytes = %d, want %d", c.lru.Bytes(), 3*per)
	}
	for range 3 {
		c.Add("d", small)
	}
	if c.lru.Bytes() != 3*per || c.lru.Len() != 3 {
		t.Errorf("re-adding d: %d bytes in %d entries, want %d in 3", c.lru.Bytes(), c.lru.Len(), 3*per)
	}

	huge := snapshotOf(10, strings.Repeat("x", 3*per))
	c.Add("huge", huge)
	if _, ok := c.Get("huge"); ok || c.lru.Bytes() > 3*per {
		t.Errorf("a snapshot over the byte bound was kept (%d bytes)", c.lru.Bytes())
	}

	byCount := newSentCache(2, 1<<20)
	for _, tok := range []string{"a", "b", "c"} {
		byCount.Add(tok, small)
	}
	if _, ok := byCount.Get("a"); ok || byCount.lru.Bytes() != 2*per {
		t.Errorf("entry bound: a kept %v, %d bytes; want evicted, %d", ok, byCount.lru.Bytes(), 2*per)
	}
}
