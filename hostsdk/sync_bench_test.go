package hostsdk_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// BenchmarkSync is Session.Sync on a framework's history that grew by a
// model reply and a tool result since the previous call (the agent loop),
// 100 skills, in both hosting modes and on both stores, beside
// BenchmarkStaticAndLoopSteps's PreStep of the same shape: what mirroring a
// framework-owned history costs on top of the step. history is the number
// of messages the framework hands over at every call.
func BenchmarkSync(b *testing.B) {
	for _, mode := range benchModes() {
		for _, store := range []string{"memory", "file"} {
			for _, n := range []int{100, 1000} {
				b.Run(fmt.Sprintf("mode=%s/store=%s/history=%d", mode.name, store, n), func(b *testing.B) {
					host, _, _ := benchHostLoaded(b, 100, newBenchStore(b, store), mode.opts)
					s := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"})
					history := make([]hostsdk.Message, 0, n+2*b.N)
					for i := range n {
						history = append(history, userMsg(fmt.Sprintf("message %d", i)))
					}
					ctx := context.Background()
					if _, err := s.Sync(ctx, history); err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := range b.N {
						history = append(history, assistantMsg(fmt.Sprintf("reply %d", i)), userMsg(fmt.Sprintf("result %d", i)))
						res, err := s.Sync(ctx, history)
						if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
							b.Fatalf("outcome %s, err %v", res.Outcome, err)
						}
					}
				})
			}
		}
	}
}
