package bytelru

import (
	"slices"
	"sync"
	"testing"
)

// TestCache: the cache keeps its entries' summed cost within the byte
// bound and their number within the entry bound, evicting the least
// recently used first, and never keeps an entry costlier than the bound.
func TestCache(t *testing.T) {
	overhead := Bookkeeping[string, int]()
	unit := 100 + overhead // an entry referring to 100 bytes

	type op struct {
		add  string // key to add with refBytes, or "" to get get
		ref  int
		get  string
		want bool // get: whether the key is there
	}
	tests := []struct {
		name       string
		maxEntries int
		maxBytes   int
		ops        []op
		keys       []string // what remains, least recently used first
	}{
		{
			name: "within both bounds", maxEntries: 4, maxBytes: 4 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "b", ref: 100}, {add: "c", ref: 100}},
			keys: []string{"a", "b", "c"},
		},
		{
			name: "byte bound evicts the least recently used", maxEntries: 10, maxBytes: 2 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "b", ref: 100}, {get: "a", want: true}, {add: "c", ref: 100}},
			keys: []string{"a", "c"},
		},
		{
			name: "a costly entry evicts several", maxEntries: 10, maxBytes: 3 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "b", ref: 100}, {add: "c", ref: 100}, {add: "big", ref: 100 + 2*unit}},
			keys: []string{"big"},
		},
		{
			name: "an entry over the byte bound is not kept", maxEntries: 10, maxBytes: 2 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "huge", ref: 2 * unit}, {get: "huge", want: false}},
			keys: []string{"a"},
		},
		{
			name: "an entry over the byte bound drops the stale value of its key", maxEntries: 10, maxBytes: 2 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "b", ref: 100}, {add: "a", ref: 2 * unit}, {get: "a", want: false}},
			keys: []string{"b"},
		},
		{
			name: "replacing an entry replaces its cost", maxEntries: 10, maxBytes: 3 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "a", ref: 100}, {add: "a", ref: 100}, {add: "b", ref: 100}, {add: "c", ref: 100}},
			keys: []string{"a", "b", "c"},
		},
		{
			name: "entry bound", maxEntries: 2, maxBytes: 10 * unit,
			ops:  []op{{add: "a", ref: 100}, {add: "b", ref: 100}, {add: "c", ref: 100}, {get: "a", want: false}},
			keys: []string{"b", "c"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New[string, int](tt.maxEntries, tt.maxBytes, overhead)
			costs := map[string]int{}
			for i, o := range tt.ops {
				if o.add != "" {
					c.Add(o.add, i, o.ref)
					costs[o.add] = o.ref + overhead
				} else if _, ok := c.Get(o.get); ok != o.want {
					t.Fatalf("op %d: Get(%q) found %v, want %v", i, o.get, ok, o.want)
				}
				if c.Bytes() > tt.maxBytes || c.Len() > tt.maxEntries {
					t.Fatalf("op %d: %d entries of %d bytes, bounds %d entries and %d bytes", i, c.Len(), c.Bytes(), tt.maxEntries, tt.maxBytes)
				}
			}
			if got := c.Keys(); !slices.Equal(got, tt.keys) {
				t.Fatalf("keys = %q, want %q", got, tt.keys)
			}
			want := 0
			for _, k := range tt.keys {
				want += costs[k]
			}
			if c.Bytes() != want {
				t.Fatalf("accounted %d bytes, the entries kept cost %d", c.Bytes(), want)
			}
			c.Purge()
			if c.Bytes() != 0 || c.Len() != 0 {
				t.Fatalf("after Purge: %d entries of %d bytes", c.Len(), c.Bytes())
			}
		})
	}
}

// TestOverheadIsCounted: a cache made with an overhead accounts every entry
// at its cost plus that overhead, and one made without counts the cost
// alone.
func TestOverheadIsCounted(t *testing.T) {
	for _, overhead := range []int{0, 7, Bookkeeping[[16]byte, string]()} {
		c := New[[16]byte, string](4, 1<<20, overhead)
		c.Add([16]byte{1}, "a", 10)
		c.Add([16]byte{2}, "b", 20)
		if got, want := c.Bytes(), 30+2*overhead; got != want {
			t.Errorf("overhead %d: %d bytes accounted, want %d", overhead, got, want)
		}
		c.Remove([16]byte{1})
		if got, want := c.Bytes(), 20+overhead; got != want || c.Len() != 1 {
			t.Errorf("overhead %d: after Remove %d entries of %d bytes, want 1 of %d", overhead, c.Len(), got, want)
		}
	}
	if Bookkeeping[string, int]() <= lruEntryOverhead {
		t.Errorf("bookkeeping %d does not count the key and value", Bookkeeping[string, int]())
	}
}

// TestConcurrentUse: concurrent adds, gets and removes keep the
// accounting exact (run with -race).
func TestConcurrentUse(t *testing.T) {
	overhead := Bookkeeping[int, int]()
	c := New[int, int](64, 32*(10+overhead), overhead)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				k := (i*7 + g) % 100
				switch i % 3 {
				case 0:
					c.Add(k, i, i%20)
				case 1:
					c.Get(k)
				default:
					c.Remove(k)
				}
			}
		}()
	}
	wg.Wait()
	sum := 0
	for _, k := range c.lru.Keys() {
		e, _ := c.lru.Peek(k)
		sum += e.cost
	}
	if c.Bytes() != sum || sum > c.maxBytes {
		t.Fatalf("accounted %d bytes, entries cost %d, bound %d", c.Bytes(), sum, c.maxBytes)
	}
}
