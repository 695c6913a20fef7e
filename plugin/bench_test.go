package plugin

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

func manySkills(n int) []skill.Summary {
	out := make([]skill.Summary, n)
	for i := range out {
		out[i] = summary(fmt.Sprintf("skill-%05d", i), fmt.Sprintf("Handles task family %d: reads the inputs, checks them against the house rules and writes a short report.", i))
	}
	return out
}

// BenchmarkDecision measures one PreStep of an established session for n
// skills. "unchanged" is the steady state (the host's hints match the
// plugin's caches); "new-snapshot" forces the view to be rebuilt from a
// snapshot with a token the plugin has not seen (the baseline is still not
// re-parsed).
func BenchmarkDecision(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, mode := range []string{"unchanged", "new-snapshot"} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, mode), func(b *testing.B) {
				h := newMemHost(manySkills(n)...)
				e := newEngine()
				req := step(h, enter())
				resp, err := e.preStep(context.Background(), h, testMount(), req)
				if err != nil {
					b.Fatal(err)
				}
				for _, ed := range resp.Edits {
					h.appendSource(ed.Message.Source)
				}
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					req := step(h, enter())
					if mode == "unchanged" {
						req.SnapshotToken = h.token
					} else {
						h.token = fmt.Sprintf("tok-%d", i)
					}
					resp, err := e.preStep(ctx, h, testMount(), req)
					if err != nil || resp.Outcome != contract.OutcomeUnchanged {
						b.Fatalf("outcome %v, err %v", resp.Outcome, err)
					}
				}
			})
		}
	}
}

// BenchmarkSessionScan measures the backward scan of a fresh plugin (nothing
// cached) over sessions of n events: with the newest catalog near the head
// the cost must not depend on n; with every catalog hidden by compaction the
// whole history is read once.
func BenchmarkSessionScan(b *testing.B) {
	entries := []digest.Entry{{Name: "alpha", Description: "A."}}
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		for _, mode := range []string{"catalog-near-head", "all-hidden"} {
			b.Run(fmt.Sprintf("events=%d/%s", n, mode), func(b *testing.B) {
				h := newMemHost(summary("alpha", "A."))
				for i := 0; i < n; i++ {
					switch {
					case i%1000 == 0 || i == n-10:
						h.appendSource(events.EncodeCatalog(entries, i > 0))
					case i%3 == 0:
						h.appendSource([]byte(`{"kind":"tool-result","tool":"read"}`))
					default:
						h.appendSource(nil)
					}
				}
				if mode == "all-hidden" {
					h.hide(1, uint64(n))
				}
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					e := newEngine()
					base, _, err := e.baseline(ctx, h, "s1", h.head(), nil)
					if err != nil || !base.EverPublished {
						b.Fatalf("baseline %+v, err %v", base, err)
					}
				}
			})
		}
	}
}
