package view

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Gated is a catalog entry scoped by `paths` (skill.Summary.Paths): it
// enters a session's catalog only once the session touched a file its
// patterns match.
type Gated struct {
	Name     string
	Patterns []string
}

// Gated returns the entries of v's snapshot scoped by `paths`, sorted by
// name. The caller must not modify them.
func (v *View) Gated() []Gated {
	if v.base != nil {
		return v.base.Gated()
	}
	return v.gated
}

// Activated returns the skills v's session activated, which v's catalog
// record names and its digest covers; nil on a view Gate did not derive.
func (v *View) Activated() []string { return v.activated }

// setGated sets the gated entries of v, a view just built.
func (v *View) setGated(gated []Gated) {
	v.gated = gated
	if len(gated) > 0 {
		v.gates = &gateMemo{}
	}
}

// appendGated appends s to gated when it has a catalog entry scoped by
// patterns.
func appendGated(gated []Gated, s *skill.Summary) []Gated {
	if s.Paths == "" || !IsEntry(s) {
		return gated
	}
	patterns := skill.PathPatterns(s.Paths)
	if len(patterns) == 0 {
		return gated
	}
	return append(gated, Gated{Name: strings.Clone(s.Name), Patterns: patterns})
}

// mergeGated returns the gated entries of the snapshot a delta against
// prev's describes: prev's without removed and without the upserts' names,
// then the upserts' own.
func mergeGated(prev *View, upserts []skill.Summary, removed []string) []Gated {
	var old []Gated
	if prev != nil {
		old = prev.Unfitted().gated
	}
	if len(old) == 0 && !slices.ContainsFunc(upserts, func(s skill.Summary) bool { return s.Paths != "" }) {
		return nil
	}
	drop := make(map[string]bool, len(upserts)+len(removed))
	for _, n := range removed {
		drop[n] = true
	}
	var out []Gated
	for i := range upserts {
		drop[upserts[i].Name] = true
		out = appendGated(out, &upserts[i])
	}
	for _, g := range old {
		if !drop[g.Name] {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b Gated) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Gate returns the catalog of v, an unfitted view, for a session that has
// activated the skills activated (sorted without repeats): v without the
// entries of its gated skills the session has not activated, its record
// naming activated and its digest covering them
// (digest.WithActivated). It returns v itself when there is nothing to
// leave out and nothing activated. The result is for the catalog only: the
// `skill` tool and the user's `/name` still load a gated skill (see the
// package plugin documentation).
func Gate(v *View, activated []string, maxLen int) *View {
	var hidden []string
	for _, g := range v.gated {
		if _, ok := slices.BinarySearch(activated, g.Name); !ok {
			hidden = append(hidden, g.Name)
		}
	}
	if len(hidden) == 0 && len(activated) == 0 {
		return v
	}
	w := v
	if len(hidden) > 0 {
		var err error
		if w, err = ApplyDelta(v, nil, hidden, maxLen); err != nil {
			return v // unreachable: gated names are sorted without repeats
		}
		w.index = v.index
	}
	if len(activated) == 0 {
		return w
	}
	c := *w
	c.activated = activated
	c.digest = digest.WithActivated(w.digest, activated)
	return &c
}

// gateMemo keeps the last few catalogs Gate and Fit derived from one view,
// keyed by the budget and the activated skills: the sessions of a place
// step with the same activations again and again, and a steady step then
// derives nothing.
type gateMemo struct {
	mu    sync.Mutex
	keys  [gateMemoSize]string
	views [gateMemoSize]*View
	next  int
}

// gateMemoSize bounds the catalogs a view keeps derived.
const gateMemoSize = 4

func (m *gateMemo) get(key string) *View {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, k := range m.keys {
		if m.views[i] != nil && k == key {
			return m.views[i]
		}
	}
	return nil
}

func (m *gateMemo) put(key string, v *View) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys[m.next], m.views[m.next] = key, v
	m.next = (m.next + 1) % gateMemoSize
}

// GateFit is Gate followed, with a budget, by Fit: the catalog of v, an
// unfitted view, for a session that activated activated, fitted to
// budget (0 for none). It returns v itself when Gate does. The result is
// remembered on v for the next step with the same budget and activations.
func GateFit(v *View, activated []string, maxLen, budget int) *View {
	key := strconv.Itoa(budget) + "\x00" + strings.Join(activated, "\x00")
	if v.gates != nil {
		if w := v.gates.get(key); w != nil {
			return w
		}
	}
	w := Gate(v, activated, maxLen)
	if budget > 0 && w != v {
		w = Fit(w, budget)
	}
	if v.gates != nil {
		v.gates.put(key, w)
	}
	return w
}
