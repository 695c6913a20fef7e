package pinned

import (
	"slices"
	"testing"
)

// overhead is what a session of a two-byte id costs with nothing pinned.
const overhead = 2 + sessionOverhead

// TestSessions: a listing pinned by several sessions counts once, the
// current one not at all; past the bound the least recently used sessions
// are evicted, never the one being pinned or touched; a listing that stops
// being current counts again.
func TestSessions(t *testing.T) {
	type op struct {
		do      string // "pin", "touch", "grow", "drop", "current"
		session string
		key     string
		cost    int
		// After the operation:
		bytes   int
		evicted []string // by this operation, in order
	}
	tests := []struct {
		name string
		max  int
		ops  []op
	}{
		{"a shared listing counts once", 10000, []op{
			{do: "pin", session: "s1", key: "a", cost: 1000, bytes: overhead + 1000},
			{do: "pin", session: "s2", key: "a", cost: 1000, bytes: 2*overhead + 1000},
			{do: "drop", session: "s1", bytes: overhead + 1000},
			{do: "drop", session: "s2", bytes: 0},
		}},
		{"the current listing is free", 10000, []op{
			{do: "current", key: "a", bytes: 0},
			{do: "pin", session: "s1", key: "a", cost: 5000, bytes: overhead},
			{do: "pin", session: "s2", key: "b", cost: 1000, bytes: 2*overhead + 1000},
			{do: "current", key: "b", bytes: 2*overhead + 5000},
		}},
		{"least recently used evicted first", 2*overhead + 2500, []op{
			{do: "pin", session: "s1", key: "a", cost: 1000, bytes: overhead + 1000},
			{do: "pin", session: "s2", key: "b", cost: 1000, bytes: 2*overhead + 2000},
			{do: "touch", session: "s1", bytes: 2*overhead + 2000},
			{do: "pin", session: "s3", key: "c", cost: 1000, bytes: 2*overhead + 2000, evicted: []string{"s2"}},
		}},
		{"a change of current listing evicts", 2*overhead + 1500, []op{
			{do: "current", key: "a"},
			{do: "pin", session: "s1", key: "a", cost: 1000, bytes: overhead},
			{do: "pin", session: "s2", key: "b", cost: 1000, bytes: 2*overhead + 1000},
			{do: "current", key: "c", bytes: overhead + 1000, evicted: []string{"s1"}},
		}},
		{"the session pinning keeps its pin past the bound", 1000, []op{
			{do: "pin", session: "s1", key: "a", cost: 100, bytes: overhead + 100},
			{do: "pin", session: "s2", key: "b", cost: 5000, bytes: overhead + 5000, evicted: []string{"s1"}},
		}},
		{"own bytes count, and a re-pin swaps", 10000, []op{
			{do: "pin", session: "s1", key: "a", cost: 1000, bytes: overhead + 1000},
			{do: "grow", session: "s1", cost: 300, bytes: overhead + 1300},
			{do: "pin", session: "s1", key: "b", cost: 2000, bytes: overhead + 2300},
			{do: "grow", session: "s1", cost: -300, bytes: overhead + 2000},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var evicted []string
			s := New[string](tc.max, func(id string) { evicted = append(evicted, id) })
			for i, o := range tc.ops {
				evicted = nil
				switch o.do {
				case "pin":
					s.Pin(o.session, o.key, o.cost)
				case "touch":
					s.Touch(o.session)
				case "grow":
					s.Grow(o.session, o.cost)
				case "drop":
					s.Drop(o.session)
				case "current":
					s.SetCurrent(o.key)
				}
				if s.Bytes() != o.bytes || !slices.Equal(evicted, o.evicted) {
					t.Fatalf("op %d (%s %s): %d bytes, evicted %v; want %d, %v", i, o.do, o.session, s.Bytes(), evicted, o.bytes, o.evicted)
				}
			}
		})
	}
}
