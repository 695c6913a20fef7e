package skills

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
)

func TestSnapshotCache(t *testing.T) {
	t.Parallel()
	views := map[string]*view{"a": {token: "a"}, "b": {token: "b"}, "c": {token: "c"}}
	hit := func(t *testing.T, c *snapshotCache, key string, rev uint64, want bool) {
		t.Helper()
		v, ok := c.get(key, rev)
		if ok != want || ok && v != views[key] {
			t.Errorf("get(%s, %d) = %v, %v; want hit %v", key, rev, v, ok, want)
		}
	}

	t.Run("least recently used is evicted", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(2, 1<<30)
		c.put("a", "s", 1, views["a"])
		c.put("b", "s", 1, views["b"])
		hit(t, c, "a", 1, true)
		c.put("c", "s", 1, views["c"])
		hit(t, c, "b", 1, false)
		hit(t, c, "a", 1, true)
		hit(t, c, "c", 1, true)
		if n := c.len(); n != 2 {
			t.Errorf("len = %d, want 2", n)
		}
	})

	t.Run("another revision misses and drops the entry", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4, 1<<30)
		c.put("a", "s", 1, views["a"])
		hit(t, c, "a", 2, false)
		if n := c.len(); n != 0 {
			t.Errorf("len = %d after a stale get, want 0", n)
		}
		hit(t, c, "a", 1, false)
	})

	t.Run("dropSession removes only that session", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4, 1<<30)
		c.put("a", "s1", 1, views["a"])
		c.put("b", "s2", 1, views["b"])
		c.put("c", "s1", 1, views["c"])
		c.dropSession("s1")
		hit(t, c, "a", 1, false)
		hit(t, c, "c", 1, false)
		hit(t, c, "b", 1, true)
	})

	t.Run("clear empties", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4, 1<<30)
		c.put("a", "s", 1, views["a"])
		c.put("b", "s", 1, views["b"])
		c.clear()
		if n := c.len(); n != 0 {
			t.Errorf("len = %d after clear, want 0", n)
		}
		hit(t, c, "a", 1, false)
	})

	t.Run("entries of equal content share one view until the last goes", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(3, 1<<30)
		src := []source{{runtime: &runtimeEntry{}}}
		first := &view{token: "t", sources: src}
		if got := c.put("k1", "s1", 1, first); got != first {
			t.Fatal("the first view is not kept")
		}
		if got := c.put("k2", "s2", 1, &view{token: "t", sources: slices.Clone(src)}); got != first {
			t.Error("a view of equal content is not shared")
		}
		other := &view{token: "t", sources: []source{{runtime: &runtimeEntry{}}}}
		if got := c.put("k3", "s3", 1, other); got != other {
			t.Error("a view of equal token from other sources is shared")
		}
		if s := c.shared["t"]; s == nil || s.v != first || s.refs != 2 {
			t.Fatalf("shared = %+v, want the first view held twice", s)
		}
		c.dropSession("s1")
		c.put("k2", "s2", 1, &view{token: "t", sources: src}) // replaced: still one holder
		if s := c.shared["t"]; s == nil || s.refs != 1 {
			t.Errorf("after dropping s1 and replacing k2: shared = %+v, want one holder", s)
		}
		c.clear()
		if len(c.shared) != 0 || len(c.sessions) != 0 {
			t.Errorf("after clear: %d shared views, %d sessions indexed", len(c.shared), len(c.sessions))
		}
	})

	t.Run("a newer revision's views are shared anew", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4, 1<<30)
		old := &view{token: "t"}
		c.put("k1", "s1", 1, old)
		newer := &view{token: "t"}
		if got := c.put("k2", "s2", 2, newer); got != newer {
			t.Error("a view of a newer revision shares an older one")
		}
		if got := c.put("k3", "s3", 2, &view{token: "t"}); got != newer {
			t.Error("the newer revision's view is not shared")
		}
		c.dropSession("s1") // the old entry goes without touching the newer count
		if s := c.shared["t"]; s == nil || s.v != newer || s.refs != 2 {
			t.Errorf("shared = %+v, want the newer view held twice", s)
		}
	})

	t.Run("bytes count a shared view once and fall back to zero", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(8, 1<<30)
		shared := &view{token: "t", skills: []skill.Summary{{Name: "a", Description: strings.Repeat("d", 1000)}}}
		c.put("k1", "s1", 1, shared)
		one := c.size()
		c.put("k2", "s2", 1, &view{token: "t", skills: slices.Clone(shared.skills)})
		two := c.size()
		if two-one >= viewBytes(shared) {
			t.Errorf("a second holder of a shared view added %d bytes, the view's whole cost %d", two-one, viewBytes(shared))
		}
		c.dropSession("s1")
		c.dropSession("s2")
		if c.size() != 0 || c.len() != 0 {
			t.Errorf("after dropping every session: %d bytes, %d entries", c.size(), c.len())
		}
	})

	t.Run("the byte bound evicts the least recently used", func(t *testing.T) {
		t.Parallel()
		big := func(tok string) *view {
			return &view{token: tok, skills: []skill.Summary{{Name: tok, Description: strings.Repeat("d", 4000)}}}
		}
		c := newSnapshotCache(100, 3*viewBytes(big("a"))+3*(2+entryOverhead))
		for _, k := range []string{"a", "b", "c", "d"} {
			c.put(k, "s", 1, big(k))
			if c.size() > c.maxBytes {
				t.Fatalf("after %s: %d bytes, over %d", k, c.size(), c.maxBytes)
			}
		}
		if _, ok := c.get("a", 1); ok {
			t.Error("the least recently used entry was kept")
		}
		for _, k := range []string{"b", "c", "d"} {
			if _, ok := c.get(k, 1); !ok {
				t.Errorf("%s was evicted", k)
			}
		}
		c.put("huge", "s", 1, &view{token: "h", skills: []skill.Summary{{Description: strings.Repeat("d", 1<<20)}}})
		if _, ok := c.get("huge", 1); ok || c.size() != 0 {
			t.Errorf("an entry over the whole bound: cached %v, %d bytes counted", ok, c.size())
		}
	})

	t.Run("evicting keeps the session index and counts right", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(2, 1<<30)
		for i, key := range []string{"a", "b", "c", "d"} {
			c.put(key, "s", 1, &view{token: "t"})
			if got := c.shared["t"].refs; got != min(i+1, 2) {
				t.Errorf("after %s: %d holders, want %d", key, got, min(i+1, 2))
			}
		}
		if n := len(c.sessions["s"]); n != 2 {
			t.Errorf("session index holds %d keys, want 2", n)
		}
		c.dropSession("s")
		if c.len() != 0 || len(c.shared) != 0 || len(c.sessions) != 0 {
			t.Errorf("after dropping the session: %d entries, %d shared, %d indexed", c.len(), len(c.shared), len(c.sessions))
		}
	})
}
