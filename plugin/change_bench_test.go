package plugin

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// wholeCatalogMount is testMount with no catalog budget, so that a change
// of any skill's description is one the published catalog shows (under
// the default budget, 1,000 skills are listed by name).
func wholeCatalogMount() mount {
	m := testMount()
	m.cfg.CatalogBudget = contract.NoCatalogBudget
	return m
}

// BenchmarkChangeStep measures the step after one skill's description
// changed: a snapshot with a new token, a replacement published, and (from
// the second iteration) the catalog the previous iteration published read
// back from the session log.
func BenchmarkChangeStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			h := newMemHost(manySkills(n)...)
			e := newEngine()
			ctx := context.Background()
			req := step(h, enter())
			resp, err := e.preStep(ctx, h, wholeCatalogMount(), req)
			if err != nil {
				b.Fatal(err)
			}
			h.apply(b, req, resp)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % n
				h.skills[k] = summary(h.skills[k].Name, fmt.Sprintf("Changed %d: handles task family %d.", i, k))
				h.token = fmt.Sprintf("tok-change-%d", i)
				req := step(h, enter())
				resp, err := e.preStep(ctx, h, wholeCatalogMount(), req)
				if err != nil || resp.Outcome != contract.OutcomeReplacement {
					b.Fatalf("outcome %v, err %v", resp.Outcome, err)
				}
				h.apply(b, req, resp)
				// Only the newest catalog is ever read again: keep the
				// log's memory flat, so the benchmark times the plugin
				// rather than the growth of its in-memory host.
				h.events[len(h.events)-2].Source = nil
			}
		})
	}
}
