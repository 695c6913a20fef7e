package wire

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// BenchmarkChangeStepGRPC is the step after one skill's description
// changed, through the protocol adapters over go-plugin's in-process
// connection: the snapshot and the published catalog cross gRPC twice, the
// published record comes back through ReadEvents at the next step. It
// leaves out what a host adds (its registry and its session store), so it
// shows what the plugin and the protocol cost.
func BenchmarkChangeStepGRPC(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			h := &testHost{}
			for i := 0; i < n; i++ {
				h.skills = append(h.skills, skill.Summary{
					Name:        fmt.Sprintf("skill-%05d", i),
					Description: fmt.Sprintf("Handles task family %d: reads the inputs, checks them against the house rules and writes a short report.", i),
					Invocation:  skill.DefaultPolicy(), Provider: "runtime",
				})
			}
			c, served := connect(b, plugin.New(nil), h)
			// No catalog budget: under the default one, 1,000 skills are
			// listed by name, and a changed description is not seen.
			m := mountBound(b, c, served, `{"catalogBudget": 0}`, "tooldef-1")
			ctx := context.Background()
			step := func(i int, want contract.Outcome) {
				h.mu.Lock()
				head := contract.SessionHead{Seq: uint64(len(h.events))}
				h.mu.Unlock()
				resp, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: "s", SkillToolIdentity: "tooldef-1", Head: &head})
				if err != nil || resp.Outcome != want {
					b.Fatalf("step %d: outcome %v, err %v", i, resp.Outcome, err)
				}
				h.mu.Lock()
				for _, e := range resp.Edits {
					if len(h.events) > 0 {
						h.events[len(h.events)-1].Source = nil // only the newest catalog is read again
					}
					h.events = append(h.events, contract.SessionEvent{Seq: uint64(len(h.events) + 1), Source: e.Message.Source, Visible: true})
				}
				h.mu.Unlock()
			}
			step(-1, contract.OutcomeInitial)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % n
				h.mu.Lock()
				h.skills[k].Description = fmt.Sprintf("Changed %d: handles task family %d.", i, k)
				h.token = fmt.Sprintf("tok-change-%d", i)
				h.mu.Unlock()
				step(i, contract.OutcomeReplacement)
			}
		})
	}
}
