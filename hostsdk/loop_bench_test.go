package hostsdk_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// loopRecords are what an agent loop appends between two model steps: the
// model's reply and a tool result.
func loopRecords() []sessionlog.Record {
	return []sessionlog.Record{
		{Type: sessionlog.TypeMessage, Body: []byte(`{"id":"a","role":"assistant","content":[{"type":"text","text":"Reading the file."}]}`)},
		{Type: sessionlog.TypeMessage, Source: []byte(`{"kind":"tool-result","tool":"read"}`), Body: []byte(`{"id":"t","role":"tool","content":[{"type":"text","text":"package main"}]}`)},
	}
}

// BenchmarkLoopStep is a step of an agent loop over go-plugin with the file
// store: before each timed step the runtime appends two messages (untimed),
// beside an empty RPC on the same connection. The step carries the new
// events, so the plugin answers without calling back.
func BenchmarkLoopStep(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, events := range []int{1_000, 100_000} {
			b.Run(fmt.Sprintf("skills=%d/events=%d", n, events), func(b *testing.B) {
				host, p, store := benchHost(b, n)
				seed(b, store, "s1", events)
				ctx := context.Background()
				log, err := store.Open(ctx, "s1")
				if err != nil {
					b.Fatal(err)
				}
				defer log.Close()
				step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
				for i := 0; i < 3; i++ { // publish, read it back, settle
					if _, err := host.PreStep(ctx, step); err != nil {
						b.Fatal(err)
					}
				}
				appendTwo := func(b *testing.B) {
					if _, err := log.Append(ctx, loopRecords()...); err != nil {
						b.Fatal(err)
					}
				}
				b.Run("loop-step", func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						appendTwo(b)
						b.StartTimer()
						res, err := host.PreStep(ctx, step)
						if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
							b.Fatalf("outcome %s, err %v", res.Outcome, err)
						}
					}
				})
				b.Run("empty-rpc", emptyRPC(p, nil))
				// The same empty RPC after the same untimed append: what
				// the append's fsync leaves behind (cold caches, idle
				// threads) weighs on both sides alike.
				b.Run("empty-rpc-after-append", emptyRPC(p, appendTwo))
			})
		}
	}
}

// BenchmarkLoopThroughput runs loop steps (two appended messages, then the
// step) and static steps (nothing appended) of 1, 8 and 100 sessions at
// once against one plugin process, 1,000 skills, file store, and reports
// steps per second.
func BenchmarkLoopThroughput(b *testing.B) {
	for _, kind := range []string{"loop", "static"} {
		for _, sessions := range []int{1, 8, 100} {
			b.Run(fmt.Sprintf("%s/sessions=%d", kind, sessions), func(b *testing.B) {
				host, _, store := benchHost(b, 1000)
				ctx := context.Background()
				logs := make([]sessionlog.Log, sessions)
				for s := range logs {
					id := "s" + strconv.Itoa(s)
					seed(b, store, id, 100)
					l, err := store.Open(ctx, id)
					if err != nil {
						b.Fatal(err)
					}
					defer l.Close()
					logs[s] = l
					for i := 0; i < 2; i++ {
						if _, err := host.PreStep(ctx, hostsdk.Step{SessionID: id, Cwd: "/work", AgentScope: "agent:a"}); err != nil {
							b.Fatal(err)
						}
					}
				}
				var next atomic.Int64
				var wg sync.WaitGroup
				errs := make(chan error, sessions)
				b.ResetTimer()
				for s := 0; s < sessions; s++ {
					wg.Add(1)
					go func(s int) {
						defer wg.Done()
						step := hostsdk.Step{SessionID: "s" + strconv.Itoa(s), Cwd: "/work", AgentScope: "agent:a"}
						for next.Add(1) <= int64(b.N) {
							if kind == "loop" {
								if _, err := logs[s].Append(ctx, loopRecords()...); err != nil {
									errs <- err
									return
								}
							}
							if res, err := host.PreStep(ctx, step); err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
								errs <- fmt.Errorf("outcome %s, err %v", res.Outcome, err)
								return
							}
						}
					}(s)
				}
				wg.Wait()
				b.StopTimer()
				close(errs)
				for err := range errs {
					b.Fatal(err)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			})
		}
	}
}
