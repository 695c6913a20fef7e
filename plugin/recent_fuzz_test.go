package plugin

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// FuzzRecentEventsDecideAsTheLog runs a random session history (messages,
// other writers' catalogs, skill changes, compactions, gaps, restarts)
// through an engine that is sent the new events with each step, the way a
// host in an agent loop sends them, and checks every step's decision
// against a fresh engine that reads everything from the host: the events a
// step carries may save callbacks, never change a decision.
func FuzzRecentEventsDecideAsTheLog(f *testing.F) {
	f.Add([]byte{2, 0, 0, 2, 1, 5, 2, 3, 7, 2, 0, 2})
	f.Add([]byte{2, 4, 1, 2, 2, 6, 9, 2, 0, 0, 2, 8, 2})
	f.Add([]byte{2, 1, 3, 2, 3, 0, 2, 4, 2, 2, 6, 70, 2, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 200 {
			ops = ops[:200]
		}
		pool := []skill.Summary{summary("alpha", "A."), summary("beta", "B."), summary("gamma", "G.")}
		subset := func(bits byte) []skill.Summary {
			var s []skill.Summary
			for i, sum := range pool {
				if bits&(1<<i) != 0 {
					s = append(s, sum)
				}
			}
			return s
		}
		entries := func(bits byte) []digest.Entry {
			var es []digest.Entry
			for _, s := range subset(bits) {
				es = append(es, digest.Entry{Name: s.Name, Description: s.Description})
			}
			return es
		}
		h := newMemHost(pool[0], pool[1])
		e := newEngine()
		var sent *contract.SessionHead // the head the host sent at its previous step
		tokens := 1
		arg := func(i *int) byte {
			*i++
			if *i < len(ops) {
				return ops[*i]
			}
			return 0
		}
		for i := 0; i < len(ops); i++ {
			switch ops[i] % 9 {
			case 0: // the model's reply or a tool result
				h.appendSource(nil)
			case 1: // another writer's catalog
				b := arg(&i)
				h.appendSource(events.EncodeCatalog(entries(b), b&8 != 0))
			case 2, 3: // a step, with or without the new events
				req := step(h, enter())
				req.SnapshotToken = h.token
				if sent != nil && ops[i]%9 == 2 {
					req.Recent = h.recentSince(sent.Seq)
				}
				sent = req.Head
				fresh := step(h, enter())
				want, err := newEngine().preStep(context.Background(), h, testMount(), fresh)
				if err != nil {
					t.Fatalf("op %d: fresh engine: %v", i, err)
				}
				got, err := e.preStep(context.Background(), h, testMount(), req)
				if err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("op %d of %v: decision differs from a fresh engine's (-fresh +loop):\n%s", i, ops, d)
				}
				h.apply(t, req, got)
			case 4: // the skills change
				h.skills = subset(arg(&i))
				tokens++
				h.token = fmt.Sprintf("tok-%d", tokens)
			case 5: // a compaction hides a range of events
				if n := uint64(len(h.events)); n > 0 {
					from := uint64(arg(&i))%n + 1
					to := from + uint64(arg(&i))%(n-from+1)
					h.hide(from, to)
				}
			case 6: // a gap of many events
				for range int(arg(&i)) {
					h.appendSource(nil)
				}
			case 7: // the plugin restarts
				e = newEngine()
			case 8: // a step the host could not send a head for
				req := step(h, enter())
				req.Head = nil
				sent = nil
				got, err := e.preStep(context.Background(), h, testMount(), req)
				if err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
				want, err := newEngine().preStep(context.Background(), h, testMount(), step(h, enter()))
				if err != nil {
					t.Fatalf("op %d: fresh engine: %v", i, err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("op %d of %v: headless decision differs from a fresh engine's (-fresh +loop):\n%s", i, ops, d)
				}
				h.apply(t, req, got)
			}
		}
	})
}
