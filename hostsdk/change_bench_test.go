package hostsdk_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/plugin/contract"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// benchMode is one way of hosting the plugin.
type benchMode struct {
	name string
	opts *hostsdk.LoadOptions
}

// benchModes are the two hosting modes: the plugin binary over gRPC, and
// the engine in the host's process.
func benchModes() []benchMode {
	return []benchMode{
		{"process", &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}},
		{"in-process", &hostsdk.LoadOptions{InProcess: true}},
	}
}

// newBenchStore is a session store of the given kind: "memory", or "file"
// in a temporary directory.
func newBenchStore(b *testing.B, kind string) sessionlog.Store {
	b.Helper()
	if kind == "memory" {
		return sessionlog.NewMemoryStore()
	}
	s, err := sessionlog.NewFileStore(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkChangeStepRoundTrip is the step after one runtime skill's
// description changed, in both hosting modes: the registry takes the
// change, a new snapshot reaches the plugin, the plugin publishes a
// replacement, the host appends it to the session log, and the next
// iteration's step reads it back. With the memory store the figure is the
// plugin's, the registry's and the protocol's; the file store adds the
// write and fsync of the appended catalog. catalog-B is the size of the
// published message's body in the log, the measure of the step's
// allocations (B/op; in process it counts the plugin's as well).
func BenchmarkChangeStepRoundTrip(b *testing.B) {
	for _, mode := range benchModes() {
		for _, n := range []int{100, 1000, 10000} {
			for _, store := range []string{"memory", "file"} {
				b.Run(fmt.Sprintf("mode=%s/skills=%d/store=%s", mode.name, n, store), func(b *testing.B) {
					changeStep(b, mode.opts, n, newBenchStore(b, store))
				})
			}
		}
	}
}

// changeStep is BenchmarkChangeStepRoundTrip on one mode, size and store.
func changeStep(b *testing.B, opts *hostsdk.LoadOptions, n int, store sessionlog.Store) {
	host, reg, _ := benchHostMounted(b, n, store, opts, wholeCatalog)
	ctx := context.Background()
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	if _, err := runStep(ctx, host, step); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % n
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
			Name:        fmt.Sprintf("skill-%05d", k),
			Description: changedDescription(i, k),
			Content:     "Instructions.",
		}); err != nil {
			b.Fatal(err)
		}
		res, err := runStep(ctx, host, step)
		if err != nil || res.Outcome != hostsdk.OutcomeReplacement {
			b.Fatalf("outcome %s, err %v", res.Outcome, err)
		}
	}
	b.StopTimer()
	log := openLog(b, store, "s1")
	page, err := log.ReadBackward(ctx, 0, 0, 1)
	if err != nil || len(page.Events) != 1 {
		b.Fatalf("read the published catalog: %d events, err %v", len(page.Events), err)
	}
	b.ReportMetric(float64(len(page.Events[0].Body)), "catalog-B")
}

// wholeCatalog mounts the plugin with no catalog budget, so a change of
// any skill's description is one the published catalog shows, at every
// size (under the default budget, large libraries are listed by name).
var wholeCatalog = &hostsdk.MountOptions{CatalogBudget: contract.NoCatalogBudget}

// changedDescription is skill k's description at iteration i: as long as
// the one benchHostLoaded registered it with (for i < 10^7), so the
// published catalog keeps its size however many iterations run. The
// revision comes first, within what the default catalog budget keeps of a
// description, so every change is one the model would see.
func changedDescription(i, k int) string {
	return fmt.Sprintf("Handles task family %d, revision %07d: reads the inputs, checks them against the house rules, writes.", k, i)
}

// BenchmarkStaticAndLoopSteps is a step where the catalog did not change,
// 1,000 skills and a 1,000-event session, in both hosting modes and on both
// stores: "static", nothing happened since the previous step; "loop", the
// model's reply and a tool result were appended before it (untimed). Each
// step is timed by hand, as in BenchmarkLoopStep, so the untimed appends
// do not stop the world around it; allocs/op and B/op are the host
// process's in the timed step.
func BenchmarkStaticAndLoopSteps(b *testing.B) {
	for _, mode := range benchModes() {
		for _, store := range []string{"memory", "file"} {
			for _, kind := range []string{"static", "loop"} {
				b.Run(fmt.Sprintf("mode=%s/store=%s/step=%s", mode.name, store, kind), func(b *testing.B) {
					unchangedStep(b, mode.opts, newBenchStore(b, store), kind == "loop")
				})
			}
		}
	}
}

// unchangedStep is BenchmarkStaticAndLoopSteps on one mode, store and kind.
func unchangedStep(b *testing.B, opts *hostsdk.LoadOptions, store sessionlog.Store, loop bool) {
	host, _, _ := benchHostLoaded(b, 1000, store, opts)
	seed(b, store, "s1", 1000)
	ctx := context.Background()
	log := openLog(b, store, "s1")
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	for i := 0; i < 3; i++ { // publish, read it back, settle
		if _, err := runStep(ctx, host, step); err != nil {
			b.Fatal(err)
		}
	}
	var elapsed time.Duration
	var allocs hostAllocs
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if loop {
			if _, err := log.Append(ctx, loopRecords()...); err != nil {
				b.Fatal(err)
			}
		}
		allocs.start()
		t := time.Now()
		res, err := runStep(ctx, host, step)
		elapsed += time.Since(t)
		allocs.stop()
		if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
			b.Fatalf("outcome %s, err %v", res.Outcome, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N), "ns/op")
	allocs.report(b)
}

// BenchmarkChangeStepFloor is what any host must do on a change step
// whatever its plugin and SDK, on the sizes and stores of
// BenchmarkChangeStepRoundTrip in process: produce the published event's
// bytes anew (a change publishes new content, so nothing can be reused)
// and append them, its record and message body, to the session log with
// one Append. It is the store's share of the change step on this machine:
// the memory store keeps the bytes, so they land in memory the process has
// not touched before; the file store writes and fsyncs them. The bytes are
// those of a real published replacement, taken from one change step run
// beforehand. catalog-B is as in BenchmarkChangeStepRoundTrip.
func BenchmarkChangeStepFloor(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		for _, store := range []string{"memory", "file"} {
			b.Run(fmt.Sprintf("skills=%d/store=%s", n, store), func(b *testing.B) {
				changeFloor(b, n, newBenchStore(b, store))
			})
		}
	}
}

// changeFloor is BenchmarkChangeStepFloor on one size and store.
func changeFloor(b *testing.B, n int, store sessionlog.Store) {
	published := publishedReplacement(b, n)
	ctx := context.Background()
	log := openLog(b, store, "floor")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := sessionlog.Record{
			Type:            sessionlog.TypeMessage,
			Source:          bytes.Clone(published.Source),
			Body:            bytes.Clone(published.Body),
			BodyCompactJSON: true,
		}
		if _, err := log.Append(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(published.Body)), "catalog-B")
}

// publishedReplacement runs one change step in process on a memory store
// with n skills and returns the replacement it published.
func publishedReplacement(b *testing.B, n int) sessionlog.Event {
	b.Helper()
	store := sessionlog.NewMemoryStore()
	host, reg, _ := benchHostMounted(b, n, store, &hostsdk.LoadOptions{InProcess: true}, wholeCatalog)
	ctx := context.Background()
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	if _, err := runStep(ctx, host, step); err != nil {
		b.Fatal(err)
	}
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
		Name: "skill-00000", Description: changedDescription(1, 0), Content: "Instructions.",
	}); err != nil {
		b.Fatal(err)
	}
	if res, err := runStep(ctx, host, step); err != nil || res.Outcome != hostsdk.OutcomeReplacement {
		b.Fatalf("outcome %s, err %v", res.Outcome, err)
	}
	page, err := openLog(b, store, "s1").ReadBackward(ctx, 0, 0, 1)
	if err != nil || len(page.Events) != 1 || page.Events[0].Source == nil {
		b.Fatalf("read the published replacement: %d events, err %v", len(page.Events), err)
	}
	if err := host.Close(); err != nil {
		b.Fatal(err)
	}
	return page.Events[0]
}
