package skills

import (
	"unsafe"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Internals for the external tests (package skills_test), which use the
// skilltest fake; skilltest imports this package, so those tests cannot
// live inside it.

// LastGoodEntries bounds the last-good listings of a best-effort
// provider's attachment.
const LastGoodEntries = lastGoodEntries

// TokenDomain is the tag that starts a snapshot token's encoding.
const TokenDomain = tokenDomain

// SetCacheCapacity gives r an empty snapshot cache holding at most n
// entries.
func SetCacheCapacity(r *Registry, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cache = newSnapshotCache(n, DefaultSnapshotCacheBytes)
}

// CacheLen returns how many snapshots r has cached.
func CacheLen(r *Registry) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cache.len()
}

// TextVerdicts returns how many file versions r remembers as text or
// binary.
func TextVerdicts(r *Registry) int {
	r.texts.mu.Lock()
	defer r.texts.mu.Unlock()
	return r.texts.lru.Len()
}

// CacheBytes returns the bytes r's snapshot cache accounts for.
func CacheBytes(r *Registry) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cache.size()
}

// CachedSummaryBytes sums, over the distinct views r's snapshot cache
// holds, their summaries (structs and strings): a floor of what the cache
// keeps alive, measured apart from its own accounting.
func CachedSummaryBytes(r *Registry) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[*view]bool)
	n := 0
	for _, key := range r.cache.lru.Keys() {
		e, _ := r.cache.lru.Peek(key)
		if seen[e.v] {
			continue
		}
		seen[e.v] = true
		n += len(e.v.skills) * int(unsafe.Sizeof(skill.Summary{}))
		for _, s := range e.v.skills {
			n += len(s.Name) + len(s.Description) + len(s.Provider) + len(s.Origin) + len(s.QualifiedName)
		}
	}
	return n
}

// WaitListings waits until no best-effort listing of r's providers is in
// flight any more, and so until every late answer was taken in.
func WaitListings(r *Registry) {
	for {
		var pending []chan struct{}
		r.mu.Lock()
		for _, src := range r.scopes {
			for _, e := range src.providers {
				if e.good == nil {
					continue
				}
				e.good.mu.Lock()
				for _, f := range e.good.flights {
					pending = append(pending, f.done)
				}
				e.good.mu.Unlock()
			}
		}
		r.mu.Unlock()
		if len(pending) == 0 {
			return
		}
		for _, done := range pending {
			<-done
		}
	}
}
