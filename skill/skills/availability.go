package skills

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Availability says what a provider's failure to list does to a snapshot
// (ProviderOptions.Availability).
type Availability uint8

const (
	// DefaultAvailability, the zero value, lets the provider decide: a
	// provider that implements AvailabilityDeclarer is what it declares,
	// any other is Strict. Remote providers (mcpskills.Provider) declare
	// themselves BestEffort; local ones (agentskills) and runtime skills
	// are Strict.
	DefaultAvailability Availability = iota
	// Strict: while the provider cannot list (its List fails, or reports
	// an incomplete observation) the whole snapshot is incomplete, and a
	// host keeps the catalog it published last.
	Strict
	// BestEffort: while the provider cannot list, the snapshot stays
	// complete with every other source's skills. The provider's own
	// last-good listing for the same session and working directory stands
	// in for it; a provider never yet listed there is left out.
	// Snapshot.Degraded says which providers failed and what was done. A
	// listing that takes longer than its share of the snapshot's time
	// (BestEffortShare) counts as failed (ErrStillListing) and goes on in
	// the background; its answer is the next last-good listing.
	BestEffort
)

// String returns "default", "strict" or "best-effort".
func (a Availability) String() string {
	switch a {
	case DefaultAvailability:
		return "default"
	case Strict:
		return "strict"
	case BestEffort:
		return "best-effort"
	}
	return fmt.Sprintf("Availability(%d)", uint8(a))
}

// AvailabilityDeclarer is implemented by providers that say how they may
// fail when ProviderOptions.Availability leaves it to them
// (DefaultAvailability). Any answer other than BestEffort means Strict.
type AvailabilityDeclarer interface {
	Availability() Availability
}

// bestEffort resolves an attachment's availability.
func bestEffort(p Provider, a Availability) bool {
	switch a {
	case Strict:
		return false
	case BestEffort:
		return true
	case DefaultAvailability:
		d, ok := p.(AvailabilityDeclarer)
		return ok && d.Availability() == BestEffort
	}
	panic(fmt.Sprintf("skills: AddProvider called with an unknown %v", a))
}

// lastGoodEntries bounds the listings a best-effort provider's attachment
// remembers: one per (session, working directory) it listed for, least
// recently listed dropped first. Equal listings share one slice.
const lastGoodEntries = 256

// lastGood is a best-effort attachment's memory of its last complete
// listing per listing request, and its listings in flight. It is safe for
// concurrent use.
type lastGood struct {
	mu  sync.Mutex
	lru *simplelru.LRU[string, goodListing]
	// flights are the listings in progress, by listing request: at most
	// one per request, however many snapshots wait for it.
	flights map[string]*listFlight
	// recent is the listing stored last, shared by the next key whose
	// listing equals it, so sessions that see the same skills hold one
	// copy between them.
	recent []skill.Summary
}

type goodListing struct {
	session string
	skills  []skill.Summary
}

func newLastGood() *lastGood {
	lru, err := simplelru.NewLRU[string, goodListing](lastGoodEntries, nil)
	if err != nil {
		panic(fmt.Sprintf("skills: last-good listings of %d entries: %v", lastGoodEntries, err))
	}
	return &lastGood{lru: lru}
}

// listingKey encodes a listing request unambiguously.
func listingKey(req ListRequest) string {
	return string(appendString(appendString(nil, req.SessionID), req.Cwd))
}

// put remembers skills as the listing of req. The slice is copied unless
// it equals one already held, since the provider may reuse it.
func (g *lastGood) put(req ListRequest, skills []skill.Summary) {
	key := listingKey(req)
	g.mu.Lock()
	defer g.mu.Unlock()
	if old, ok := g.lru.Get(key); ok && slices.Equal(old.skills, skills) {
		return
	}
	if !slices.Equal(g.recent, skills) {
		g.recent = slices.Clone(skills)
	}
	g.lru.Add(key, goodListing{session: req.SessionID, skills: g.recent})
}

// get returns the listing remembered for req.
func (g *lastGood) get(req ListRequest) ([]skill.Summary, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.lru.Get(listingKey(req))
	return l.skills, ok
}

// dropSession forgets the listings of session.
func (g *lastGood) dropSession(session string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, key := range g.lru.Keys() {
		if l, ok := g.lru.Peek(key); ok && l.session == session {
			g.lru.Remove(key)
		}
	}
}

// len returns how many listings g remembers.
func (g *lastGood) len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lru.Len()
}

// standIn replaces, in results, the failed listing of every best-effort
// provider by its last-good listing for req, or by an empty listing when
// it has none, so that the snapshot stays complete. (A complete listing
// was remembered as the last-good one when it came in: startList.) It
// returns one line per provider it stood in for, in the order of
// p.providers.
func standIn(q Query, p plan, req ListRequest, results []listResult) (lines []string) {
	var scopes []string
	for i, res := range results {
		e := p.providers[i]
		if e.good == nil {
			continue
		}
		if res.err == nil && res.obs.Complete {
			continue
		}
		if scopes == nil {
			scopes = chainScopes(q.Chain)
		}
		why := failure(res)
		kept, ok := e.good.get(req)
		if ok {
			why += fmt.Sprintf("; its last-good listing of %d skills kept", len(kept))
		} else {
			why += "; left out until it lists"
		}
		lines = append(lines, fmt.Sprintf("best-effort provider %s in scope %q: %s", e.label, scopes[p.provScope[i]], why))
		results[i] = listResult{obs: Observation{Skills: kept, Complete: true}}
	}
	return lines
}

// failure says why a listing failed or was incomplete.
func failure(res listResult) string {
	switch {
	case res.err != nil:
		return res.err.Error()
	case len(res.obs.Incomplete) > 0:
		return "reported an incomplete observation: " + strings.Join(res.obs.Incomplete, "; ")
	}
	return "reported an incomplete observation"
}

// chainScopes is chain without repeats: a provider's scope is its
// position in it (plan.provScope).
func chainScopes(chain []string) []string {
	var scopes []string
	for _, sc := range chain {
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	return scopes
}
