package hostsdk_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// discardSpans is a span exporter that drops what it is given: the cost of
// recording and batching spans without an exporter's.
type discardSpans struct{}

func (discardSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardSpans) Shutdown(context.Context) error                             { return nil }

// BenchmarkTelemetry is the static step (nothing changed) and the loop
// step (two messages appended before it, untimed) of BenchmarkLoopStep's
// shape (1,000 skills, a session of 1,000 events, the memory store), in
// both hosting modes, with OpenTelemetry off (no providers), with a real
// SDK tracer provider that samples every span into a batch processor
// whose exporter discards them, and with that and an SDK meter provider
// whose manual reader aggregates every measurement:
//
//	go test ./hostsdk -run XXX -bench BenchmarkTelemetry -count 6 | benchstat -col /otel -
func BenchmarkTelemetry(b *testing.B) {
	for _, mode := range []string{"binary", "in-process"} {
		for _, kind := range []string{"static", "loop"} {
			for _, otel := range []string{"off", "traces", "traces+metrics"} {
				b.Run(fmt.Sprintf("mode=%s/step=%s/otel=%s", mode, kind, otel), func(b *testing.B) {
					telemetryStep(b, mode, kind, otel)
				})
			}
		}
	}
}

func telemetryStep(b *testing.B, mode, kind, otel string) {
	var cfg hostsdk.Config
	var ro skills.RegistryOptions
	if otel != "off" {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(discardSpans{}))
		b.Cleanup(func() { tp.Shutdown(context.Background()) })
		cfg.TracerProvider, ro.TracerProvider = tp, tp
	}
	if otel == "traces+metrics" {
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		b.Cleanup(func() { mp.Shutdown(context.Background()) })
		cfg.MeterProvider, ro.MeterProvider = mp, mp
	}
	reg, err := skills.NewRegistryWith(ro)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
			Name:        fmt.Sprintf("skill-%05d", i),
			Description: fmt.Sprintf("Handles task family %d: reads the inputs, checks them against the house rules and writes a short report.", i),
			Content:     "Instructions.",
		}); err != nil {
			b.Fatal(err)
		}
	}
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		b.Fatal(err)
	}
	store := sessionlog.NewMemoryStore()
	cfg.Tools, cfg.Skills, cfg.Sessions = tree, reg, store
	host, err := hostsdk.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { host.Close() })
	opts := hostsdk.LoadOptions{InProcess: true}
	if mode == "binary" {
		opts = hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}
	}
	p, err := host.Load(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, ""); err != nil {
		b.Fatal(err)
	}
	seed(b, store, "s1", 1000)
	ctx := context.Background()
	log := openLog(b, store, "s1")
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	for i := 0; i < 3; i++ { // publish, read it back, settle
		if _, err := host.PreStep(ctx, step); err != nil {
			b.Fatal(err)
		}
	}
	var stepTime time.Duration
	var allocs hostAllocs
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if kind == "loop" {
			if _, err := log.Append(ctx, loopRecords()...); err != nil {
				b.Fatal(err)
			}
		}
		allocs.start()
		t := time.Now()
		res, err := host.PreStep(ctx, step)
		stepTime += time.Since(t)
		allocs.stop()
		if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
			b.Fatalf("outcome %s, err %v", res.Outcome, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(stepTime.Nanoseconds())/float64(b.N), "ns/op")
	allocs.report(b)
}
