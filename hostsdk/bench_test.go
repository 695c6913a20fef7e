package hostsdk_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// benchHost is a host with n runtime skills, the plugin mounted globally and
// a file-backed session store.
func benchHost(b *testing.B, n int) (*hostsdk.Host, *hostsdk.Plugin, sessionlog.Store) {
	b.Helper()
	store, err := sessionlog.NewFileStore(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	host, _, p := benchHostWith(b, n, store)
	return host, p, store
}

// benchHostWith is a host with n runtime skills and the plugin mounted
// globally, on the given session store.
func benchHostWith(b *testing.B, n int, store sessionlog.Store) (*hostsdk.Host, *skills.Registry, *hostsdk.Plugin) {
	b.Helper()
	return benchHostLoaded(b, n, store, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
}

// benchHostLoaded is benchHostWith with the plugin loaded as opts say.
func benchHostLoaded(b *testing.B, n int, store sessionlog.Store, opts *hostsdk.LoadOptions) (*hostsdk.Host, *skills.Registry, *hostsdk.Plugin) {
	b.Helper()
	return benchHostMounted(b, n, store, opts, nil)
}

// benchHostMounted is benchHostLoaded with the mount's options.
func benchHostMounted(b *testing.B, n int, store sessionlog.Store, opts *hostsdk.LoadOptions, mount *hostsdk.MountOptions) (*hostsdk.Host, *skills.Registry, *hostsdk.Plugin) {
	b.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		b.Fatal(err)
	}
	reg := skilltest.NewRegistry(b)
	for i := 0; i < n; i++ {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
			Name:        fmt.Sprintf("skill-%05d", i),
			Description: fmt.Sprintf("Handles task family %d: reads the inputs, checks them against the house rules and writes a short report.", i),
			Content:     "Instructions.",
		}); err != nil {
			b.Fatal(err)
		}
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { host.Close() })
	p, err := host.Load(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, mount); err != nil {
		b.Fatal(err)
	}
	return host, reg, p
}

// seed appends n events without sources, in large fsync'ed batches.
func seed(b *testing.B, store sessionlog.Store, session string, n int) {
	b.Helper()
	log, err := store.Open(context.Background(), session)
	if err != nil {
		b.Fatal(err)
	}
	batch := make([]sessionlog.Record, 0, 5000)
	for i := 0; i < n; i++ {
		batch = append(batch, sessionlog.Record{Type: "message", Body: []byte(`{"id":"m","role":"assistant","content":[{"type":"text","text":"ok"}]}`)})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := log.Append(context.Background(), batch...); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// BenchmarkPreStepRoundTrip is one PreStep over go-plugin, 1,000 skills and
// a 100,000-event session where nothing changed, beside an empty unary RPC
// on the same connection.
func BenchmarkPreStepRoundTrip(b *testing.B) {
	host, p, store := benchHost(b, 1000)
	seed(b, store, "s1", 100_000)
	ctx := context.Background()
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	for i := 0; i < 2; i++ { // publish, then read the published event once
		if _, err := runStep(ctx, host, step); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("prestep-unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			res, err := runStep(ctx, host, step)
			if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
				b.Fatalf("outcome %s, err %v", res.Outcome, err)
			}
		}
	})
	b.Run("empty-rpc", emptyRPC(p, nil))
}

// BenchmarkConcurrentSessions serves 100 sessions at once (100 skills each
// visible, every session publishing its catalog and then stepping) and
// reports the plugin process's peak resident memory.
func BenchmarkConcurrentSessions(b *testing.B) {
	host, p, store := benchHost(b, 100)
	const sessions = 100
	for s := 0; s < sessions; s++ {
		seed(b, store, "s"+strconv.Itoa(s), 1000)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		errs := make(chan error, sessions)
		for s := 0; s < sessions; s++ {
			wg.Add(1)
			go func(s int) {
				defer wg.Done()
				for k := 0; k < 5; k++ {
					if _, err := host.Session("s"+strconv.Itoa(s), &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, &hostsdk.StepOptions{Step: k}); err != nil {
						errs <- err
						return
					}
				}
			}(s)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if kib, err := peakRSS(p.PID()); err == nil {
		b.ReportMetric(float64(kib), "plugin-peak-RSS-KiB")
	} else {
		b.Logf("peak RSS unavailable: %v", err)
	}
}

// peakRSS reads VmHWM (peak resident set size, KiB) of a process.
func peakRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// emptyRPC times Ping on the plugin's connection, the baseline of a step
// over the wire. before, when set, runs untimed ahead of each call.
func emptyRPC(p *hostsdk.Plugin, before func(b *testing.B)) func(b *testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if before != nil {
				b.StopTimer()
				before(b)
				b.StartTimer()
			}
			if err := p.Ping(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
}
