package hostsdk_test

import (
	"context"
	"fmt"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// BenchmarkLoopStep is a step of an agent loop over go-plugin, with the
// file store (every append fsync'ed) and with the memory store (the same
// step without the fsync's aftermath), beside an empty RPC on the same
// connection. Each iteration, alike for both and untimed, appends two
// messages (the step's session gets the model's reply and a tool result;
// the empty RPC's append goes to a scratch session), then times one call:
//
//   - ns/op: the PreStep, which carries the two new events, so the plugin
//     answers without calling back;
//   - rpc-ns/op: an empty RPC after the same append;
//   - hot-rpc-ns/op: an empty RPC straight after the previous one, nothing
//     appended before it;
//   - x-rpc and x-hot-rpc: the step over each baseline, from the sums.
//
// The calls are interleaved and timed by hand rather than with
// StopTimer/StartTimer, whose memory statistics stop the world around every
// call: both sides then see the same machine, and drift on a shared host
// cancels out of the ratios. allocs/op and B/op are the host's allocations
// in the timed step (the plugin's process is not counted).
func BenchmarkLoopStep(b *testing.B) {
	for _, kind := range []string{"file", "memory"} {
		for _, n := range []int{10, 1000, 10000} {
			for _, events := range []int{1_000, 100_000} {
				b.Run(fmt.Sprintf("store=%s/skills=%d/events=%d", kind, n, events), func(b *testing.B) {
					loopStep(b, kind, n, events)
				})
			}
		}
	}
}

// loopStep is BenchmarkLoopStep on one store kind and shape.
func loopStep(b *testing.B, kind string, n, events int) {
	var store sessionlog.Store = sessionlog.NewMemoryStore()
	if kind == "file" {
		var err error
		if store, err = sessionlog.NewFileStore(b.TempDir(), nil); err != nil {
			b.Fatal(err)
		}
	}
	host, _, p := benchHostWith(b, n, store)
	seed(b, store, "s1", events)
	ctx := context.Background()
	log := openLog(b, store, "s1")
	scratch := openLog(b, store, "scratch")
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	for i := 0; i < 3; i++ { // publish, read it back, settle
		if _, err := runStep(ctx, host, step); err != nil {
			b.Fatal(err)
		}
	}
	appendTwo := func(l sessionlog.Log) {
		if _, err := l.Append(ctx, loopRecords()...); err != nil {
			b.Fatal(err)
		}
	}
	var stepTime, rpcTime, hotTime time.Duration
	var allocs hostAllocs
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		appendTwo(log)
		allocs.start()
		t := time.Now()
		res, err := runStep(ctx, host, step)
		stepTime += time.Since(t)
		allocs.stop()
		if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
			b.Fatalf("outcome %s, err %v", res.Outcome, err)
		}
		appendTwo(scratch)
		rpcTime += timePing(b, p)
		hotTime += timePing(b, p)
	}
	b.StopTimer()
	perOp := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(perOp(stepTime), "ns/op")
	b.ReportMetric(perOp(rpcTime), "rpc-ns/op")
	b.ReportMetric(perOp(hotTime), "hot-rpc-ns/op")
	b.ReportMetric(float64(stepTime)/float64(rpcTime), "x-rpc")
	b.ReportMetric(float64(stepTime)/float64(hotTime), "x-hot-rpc")
	allocs.report(b)
}

// openLog opens a session's log for the benchmark's lifetime.
func openLog(b *testing.B, store sessionlog.Store, session string) sessionlog.Log {
	b.Helper()
	l, err := store.Open(context.Background(), session)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	return l
}

// timePing times one empty RPC.
func timePing(b *testing.B, p *hostsdk.Plugin) time.Duration {
	t := time.Now()
	err := p.Ping(context.Background())
	d := time.Since(t)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// hostAllocs sums the host process's heap allocations over timed sections,
// read from runtime/metrics, which unlike runtime.ReadMemStats does not
// stop the world. Objects count tiny allocations one by one, as
// ReadMemStats does. The runtime counts small objects a span at a time, so
// the figures are exact only as averages over many iterations.
type hostAllocs struct {
	samples        [3]metrics.Sample
	objects, bytes uint64
	n              int
}

func (a *hostAllocs) read() (objects, bytes uint64) {
	if a.samples[0].Name == "" {
		a.samples[0].Name = "/gc/heap/allocs:objects"
		a.samples[1].Name = "/gc/heap/tiny/allocs:objects"
		a.samples[2].Name = "/gc/heap/allocs:bytes"
	}
	metrics.Read(a.samples[:])
	return a.samples[0].Value.Uint64() + a.samples[1].Value.Uint64(), a.samples[2].Value.Uint64()
}

func (a *hostAllocs) start() {
	o, by := a.read()
	a.objects -= o
	a.bytes -= by
}

func (a *hostAllocs) stop() {
	o, by := a.read()
	a.objects += o
	a.bytes += by
	a.n++
}

func (a *hostAllocs) report(b *testing.B) {
	if a.n == 0 {
		return
	}
	b.ReportMetric(float64(a.objects)/float64(a.n), "allocs/op")
	b.ReportMetric(float64(a.bytes)/float64(a.n), "B/op")
}

// BenchmarkLoopThroughput runs loop steps (two appended messages, then the
// step) and static steps (nothing appended) of 1, 8 and 100 sessions at
// once against one plugin process, 1,000 skills, file store, and reports
// steps per second. "append" is the loop without its steps: the two fsync'ed
// appends alone, which bound what a loop step can reach on this store.
func BenchmarkLoopThroughput(b *testing.B) {
	for _, kind := range []string{"loop", "static", "append"} {
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
						if _, err := host.Session(id, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
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
							if kind != "static" {
								if _, err := logs[s].Append(ctx, loopRecords()...); err != nil {
									errs <- err
									return
								}
							}
							if kind == "append" {
								continue
							}
							if res, err := runStep(ctx, host, step); err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
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
