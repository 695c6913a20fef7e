package plugin

import (
	"context"
	"fmt"
	"testing"

	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// BenchmarkChangeStep measures the step after one skill's description
// changed: a snapshot with a new token, a replacement published, and (from
// the second iteration) the catalog the previous iteration published read
// back from the session log.
func BenchmarkChangeStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			h := newMemHost(manySkills(n)...)
			e := NewEngine()
			ctx := context.Background()
			req := step(h, enter())
			resp, err := e.PreStep(ctx, h, mount(), req)
			if err != nil {
				b.Fatal(err)
			}
			h.apply(b, req, resp)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % n
				h.skills[k] = summary(h.skills[k].GetName(), fmt.Sprintf("Changed %d: handles task family %d.", i, k))
				h.token = fmt.Sprintf("tok-change-%d", i)
				req := step(h, enter())
				resp, err := e.PreStep(ctx, h, mount(), req)
				if err != nil || resp.GetOutcome() != skillcatalogv1.Outcome_OUTCOME_REPLACEMENT {
					b.Fatalf("outcome %v, err %v", resp.GetOutcome(), err)
				}
				h.apply(b, req, resp)
			}
		})
	}
}
