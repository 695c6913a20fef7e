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

// BenchmarkSyncWindow is Session.Sync for a framework that sends only its
// last 20 messages, the conversation growing by a model reply and a user
// message each call, on a log that already holds logged messages: each
// call hides the two messages the window lost. read-events/op counts the
// plugin's reads of the log, which a compaction makes it repeat from the
// head back to the catalog kept before the window.
func BenchmarkSyncWindow(b *testing.B) {
	const window = 20
	for _, mode := range benchModes() {
		for _, store := range []string{"memory", "file"} {
			for _, n := range []int{100, 1000} {
				b.Run(fmt.Sprintf("mode=%s/store=%s/logged=%d", mode.name, store, n), func(b *testing.B) {
					host, _, _ := benchHostLoaded(b, 100, newBenchStore(b, store), mode.opts)
					s := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"})
					conv := make([]hostsdk.Message, 0, n+2*b.N)
					for i := range n {
						conv = append(conv, userMsg(fmt.Sprintf("message %d", i)))
					}
					ctx := context.Background()
					if _, err := s.Sync(ctx, conv); err != nil {
						b.Fatal(err)
					}
					reads := 0
					b.ReportAllocs()
					b.ResetTimer()
					for i := range b.N {
						conv = append(conv, assistantMsg(fmt.Sprintf("reply %d", i)), userMsg(fmt.Sprintf("next %d", i)))
						res, err := s.Sync(ctx, conv[len(conv)-window:])
						if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
							b.Fatalf("outcome %s, err %v", res.Outcome, err)
						}
						reads += res.Callbacks.ReadEvents
					}
					b.ReportMetric(float64(reads)/float64(b.N), "read-events/op")
				})
			}
		}
	}
}
