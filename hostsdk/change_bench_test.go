package hostsdk_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// BenchmarkChangeStepRoundTrip is the step after one runtime skill's
// description changed, over go-plugin with the file-backed session log: a
// new snapshot crosses the wire, the plugin publishes a replacement, the
// host appends it (fsync'ed), and the next iteration's step reads it back.
func BenchmarkChangeStepRoundTrip(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			host, reg, _ := benchHostRegistry(b, n)
			ctx := context.Background()
			step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
			if _, err := host.PreStep(ctx, step); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % n
				if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
					Name:        fmt.Sprintf("skill-%05d", k),
					Description: fmt.Sprintf("Changed %d: handles task family %d.", i, k),
					Content:     "Instructions.",
				}); err != nil {
					b.Fatal(err)
				}
				res, err := host.PreStep(ctx, step)
				if err != nil || res.Outcome != hostsdk.OutcomeReplacement {
					b.Fatalf("outcome %s, err %v", res.Outcome, err)
				}
			}
		})
	}
}
