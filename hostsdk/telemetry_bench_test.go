package hostsdk_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
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
	step, pid := telemetryHost(b, mode, kind, otel)
	var stepTime time.Duration
	var allocs hostAllocs
	b.ReportAllocs()
	b.ResetTimer()
	hostCPU, pluginCPU := processCPU(b, 0), processCPU(b, pid)
	for i := 0; i < b.N; i++ {
		stepTime += step(&allocs)
	}
	hostCPU, pluginCPU = processCPU(b, 0)-hostCPU, processCPU(b, pid)-pluginCPU
	b.StopTimer()
	b.ReportMetric(float64(stepTime.Nanoseconds())/float64(b.N), "ns/op")
	b.ReportMetric(float64(hostCPU.Nanoseconds())/float64(b.N), "host-cpu-ns/op")
	if pid != 0 {
		b.ReportMetric(float64(pluginCPU.Nanoseconds())/float64(b.N), "plugin-cpu-ns/op")
	}
	allocs.report(b)
}

// processCPU returns the CPU time (user and system) a process has used:
// this one's for pid 0. Unlike the wall time of a step, it does not grow
// when other work on the machine delays the step, so it shows what
// tracing costs on a shared host. The plugin's is counted in clock ticks
// (10 ms at the usual 100 Hz): meaningful over a benchmark's whole run,
// not per step.
func processCPU(b *testing.B, pid int) time.Duration {
	if pid == 0 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no CPU time of the plugin process: %v", err)
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 12th and 13th of them.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("/proc/%d/stat: %v %v", pid, err1, err2)
	}
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// BenchmarkTelemetryPaired is BenchmarkTelemetry's static and loop steps
// on two hosts at once, one with OpenTelemetry off and one with traces and
// metrics, their steps interleaved so that both see the same machine (on
// a shared host, load drifts far more than the difference). It reports
// both times and their ratio:
//
//   - off-ns/op: a step of the host without providers;
//   - on-ns/op: a step of the host with traces and metrics;
//   - x-off: on over off, from the sums.
func BenchmarkTelemetryPaired(b *testing.B) {
	for _, mode := range []string{"binary", "in-process"} {
		for _, kind := range []string{"static", "loop"} {
			b.Run(fmt.Sprintf("mode=%s/step=%s", mode, kind), func(b *testing.B) {
				off, _ := telemetryHost(b, mode, kind, "off")
				on, _ := telemetryHost(b, mode, kind, "traces+metrics")
				var offTime, onTime time.Duration
				var allocs hostAllocs
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if i%2 == 0 { // neither always goes first
						offTime += off(&allocs)
						onTime += on(&allocs)
					} else {
						onTime += on(&allocs)
						offTime += off(&allocs)
					}
				}
				b.StopTimer()
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(float64(offTime.Nanoseconds())/float64(b.N), "off-ns/op")
				b.ReportMetric(float64(onTime.Nanoseconds())/float64(b.N), "on-ns/op")
				b.ReportMetric(float64(onTime)/float64(offTime), "x-off")
			})
		}
	}
}

// telemetryHost is a host of BenchmarkTelemetry's shape, mode and
// OpenTelemetry setting, with its session settled. It returns one step of
// the kind asked for: a loop step appends two messages first, untimed;
// the step's time is returned and its allocations counted in allocs. The
// plugin's process id comes with it, 0 in process.
func telemetryHost(b *testing.B, mode, kind, otel string) (func(allocs *hostAllocs) time.Duration, int) {
	var cfg hostsdk.Options
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
	reg, err := skills.NewRegistry(&ro)
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
	host, err := hostsdk.New(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { host.Close() })
	opts := &hostsdk.LoadOptions{InProcess: true}
	if mode == "binary" {
		opts = &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}
	}
	p, err := host.Load(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
		b.Fatal(err)
	}
	seed(b, store, "s1", 1000)
	ctx := context.Background()
	log := openLog(b, store, "s1")
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	for i := 0; i < 3; i++ { // publish, read it back, settle
		if _, err := runStep(ctx, host, step); err != nil {
			b.Fatal(err)
		}
	}
	return func(allocs *hostAllocs) time.Duration {
		if kind == "loop" {
			if _, err := log.Append(ctx, loopRecords()...); err != nil {
				b.Fatal(err)
			}
		}
		allocs.start()
		t := time.Now()
		res, err := runStep(ctx, host, step)
		d := time.Since(t)
		allocs.stop()
		if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
			b.Fatalf("outcome %s, err %v", res.Outcome, err)
		}
		return d
	}, p.PID()
}
