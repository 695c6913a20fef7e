package hostsdk_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// BenchmarkChangeStepRoundTrip is the step after one runtime skill's
// description changed, over go-plugin: a new snapshot crosses the wire, the
// plugin publishes a replacement, the host appends it to the session log,
// and the next iteration's step reads it back. With the memory store the
// figure is the plugin's and the protocol's; the file store adds JSON
// validation and an fsync of the appended catalog.
func BenchmarkChangeStepRoundTrip(b *testing.B) {
	stores := map[string]func(b *testing.B) sessionlog.Store{
		"memory": func(*testing.B) sessionlog.Store { return sessionlog.NewMemoryStore() },
		"file": func(b *testing.B) sessionlog.Store {
			s, err := sessionlog.NewFileStore(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
	}
	for _, n := range []int{1000, 10000} {
		for _, store := range []string{"memory", "file"} {
			b.Run(fmt.Sprintf("skills=%d/store=%s", n, store), func(b *testing.B) {
				host, reg, _ := benchHostWith(b, n, stores[store](b))
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
}
