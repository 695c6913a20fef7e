package hostsdk_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// BenchmarkPluginMemory measures the real plugin process's peak resident
// memory over 121 snapshots of 100 skills with 60 KB descriptions (6 MB
// each), every description changed at every step: at the default
// description cap, and under a cap that keeps the descriptions whole, where
// the view cache's byte bound is what holds memory down. It reports the
// peak (VmHWM) in MiB as peak-rss-MiB.
//
//	go test ./hostsdk -run '^$' -bench PluginMemory -benchtime 1x
func BenchmarkPluginMemory(b *testing.B) {
	const snapshots, n, descBytes = 121, 100, 60 << 10
	for _, tc := range []struct{ name, config string }{
		{"cap=default", ""},
		{"cap=65536", `{"catalogDescriptionMaxLength": 65536}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			store, err := sessionlog.NewFileStore(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			reg, tree := skilltest.NewRegistry(b), tools.NewTree()
			h, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { h.Close() })
			ctx := context.Background()
			p, err := h.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.MountJSON(ctx, tools.GlobalScope, tc.config); err != nil {
				b.Fatal(err)
			}
			filler := strings.Repeat("x", descBytes)
			round := 0
			for i := 0; i < b.N; i++ {
				for s := 0; s < snapshots; s++ {
					round++
					for k := 0; k < n; k++ {
						head := fmt.Sprintf("Round %d, skill %d: ", round, k)
						if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: fmt.Sprintf("skill-%03d", k), Description: head + filler[len(head):], Content: "c"}); err != nil {
							b.Fatal(err)
						}
					}
					if _, err := h.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			peak, err := peakRSS(p.PID())
			if err != nil {
				b.Skipf("no peak resident memory for the plugin process: %v", err)
			}
			b.ReportMetric(float64(peak)/(1<<10), "peak-rss-MiB") // peakRSS is in KiB
		})
	}
}
