package hostsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// benchWords returns n pseudo-words and a function drawing k of them with
// a Zipf distribution, as words of real text are drawn.
func benchWords(seed uint64, n int) func(k int) string {
	rnd := rand.New(rand.NewPCG(seed, seed+1))
	syllables := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pra", "gon", "del", "fix", "tor", "mun", "bel"}
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		for range 2 + rnd.IntN(3) {
			b.WriteString(syllables[rnd.IntN(len(syllables))])
		}
		words[i] = b.String()
	}
	zipf := rand.NewZipf(rnd, 1.1, 2, uint64(n-1))
	return func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = words[zipf.Uint64()]
		}
		return strings.Join(out, " ")
	}
}

// searchBenchHost is a host with n runtime skills of varied descriptions
// (some 40 words) and instructions (some 300), and the plugin binary
// mounted globally with opts.
func searchBenchHost(b *testing.B, n int, opts *hostsdk.MountOptions) (*hostsdk.Host, *hostsdk.Plugin) {
	b.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		b.Fatal(err)
	}
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		b.Fatal(err)
	}
	text := benchWords(1, 20000)
	for i := 0; i < n; i++ {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{
			Name:        fmt.Sprintf("skill-%05d", i),
			Description: text(40) + ".",
			Content:     text(300),
		}); err != nil {
			b.Fatal(err)
		}
	}
	store, err := sessionlog.NewFileStore(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { host.Close() })
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, opts); err != nil {
		b.Fatal(err)
	}
	return host, p
}

// BenchmarkSearchRoundTrip is one skill_search call over go-plugin at
// 10,000 skills, beside an empty unary RPC on the same connection: the
// search should cost no more than a second round trip. "paired" makes the
// two calls one after the other in each iteration and reports the ratio
// of their times, which a machine whose speed drifts between the other two
// runs does not skew.
func BenchmarkSearchRoundTrip(b *testing.B) {
	host, p := searchBenchHost(b, 10000, &hostsdk.MountOptions{SearchTool: true})
	ctx := context.Background()
	// The session's first step publishes the catalog and builds the index.
	sess := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"})
	if _, err := sess.Step(ctx, hostsdk.Decision{}, nil); err != nil {
		b.Fatal(err)
	}
	text := benchWords(7, 20000)
	calls := make([]hostsdk.ToolCall, 64)
	for i := range calls {
		args, _ := json.Marshal(map[string]any{"query": text(8)})
		calls[i] = hostsdk.ToolCall{Name: "skill_search", Arguments: args}
	}
	b.Run("search", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			res, err := sess.CallTool(ctx, calls[i%len(calls)])
			if err != nil || res.IsError {
				b.Fatalf("%v %s", err, res.Text)
			}
			i++
		}
	})
	b.Run("empty-rpc", emptyRPC(p, nil))
	b.Run("paired", func(b *testing.B) {
		var searching, empty time.Duration
		i := 0
		for b.Loop() {
			start := time.Now()
			res, err := sess.CallTool(ctx, calls[i%len(calls)])
			if err != nil || res.IsError {
				b.Fatalf("%v %s", err, res.Text)
			}
			mid := time.Now()
			if err := p.Ping(ctx); err != nil {
				b.Fatal(err)
			}
			searching, empty = searching+mid.Sub(start), empty+time.Since(mid)
			i++
		}
		b.ReportMetric(float64(searching.Nanoseconds())/float64(i), "search-ns/op")
		b.ReportMetric(float64(empty.Nanoseconds())/float64(i), "empty-ns/op")
		b.ReportMetric(float64(searching)/float64(empty), "search/empty")
	})
}

// BenchmarkSteadyStepSearchMounted is a step where nothing changed, at
// 1,000 skills, with the plugin mounted plainly and with the search tool
// (and the relevant-skills message while over the budget): compare the
// two with benchstat.
func BenchmarkSteadyStepSearchMounted(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts *hostsdk.MountOptions
	}{
		{"plain", &hostsdk.MountOptions{RelevantSkills: "off"}},
		{"search", &hostsdk.MountOptions{SearchTool: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			host, _ := searchBenchHost(b, 1000, tc.opts)
			ctx := context.Background()
			step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
			for range 2 {
				if _, err := runStep(ctx, host, step); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := runStep(ctx, host, step)
				if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
					b.Fatalf("outcome %s, err %v", res.Outcome, err)
				}
			}
		})
	}
}
