package skills

// Internals for the external tests (package skills_test), which use the
// skilltest fake; skilltest imports this package, so those tests cannot
// live inside it.

// TokenDomain is the tag that starts a snapshot token's encoding.
const TokenDomain = tokenDomain

// SetCacheCapacity gives r an empty snapshot cache holding at most n
// entries.
func SetCacheCapacity(r *Registry, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cache = newSnapshotCache(n)
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
