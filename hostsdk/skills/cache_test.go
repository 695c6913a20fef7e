package skills

import "testing"

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
		c := newSnapshotCache(2)
		c.put("a", "s", 1, views["a"])
		c.put("b", "s", 1, views["b"])
		hit(t, &c, "a", 1, true)
		c.put("c", "s", 1, views["c"])
		hit(t, &c, "b", 1, false)
		hit(t, &c, "a", 1, true)
		hit(t, &c, "c", 1, true)
		if n := c.len(); n != 2 {
			t.Errorf("len = %d, want 2", n)
		}
	})

	t.Run("another revision misses and drops the entry", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4)
		c.put("a", "s", 1, views["a"])
		hit(t, &c, "a", 2, false)
		if n := c.len(); n != 0 {
			t.Errorf("len = %d after a stale get, want 0", n)
		}
		hit(t, &c, "a", 1, false)
	})

	t.Run("dropSession removes only that session", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4)
		c.put("a", "s1", 1, views["a"])
		c.put("b", "s2", 1, views["b"])
		c.put("c", "s1", 1, views["c"])
		c.dropSession("s1")
		hit(t, &c, "a", 1, false)
		hit(t, &c, "c", 1, false)
		hit(t, &c, "b", 1, true)
	})

	t.Run("clear empties", func(t *testing.T) {
		t.Parallel()
		c := newSnapshotCache(4)
		c.put("a", "s", 1, views["a"])
		c.put("b", "s", 1, views["b"])
		c.clear()
		if n := c.len(); n != 0 {
			t.Errorf("len = %d after clear, want 0", n)
		}
		hit(t, &c, "a", 1, false)
	})
}
