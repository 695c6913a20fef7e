package hostsdk_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
)

// BenchmarkResourceReadDirectory: one skill_resource call through the host
// and the in-process plugin, reading an 8 KB page from the middle of a
// directory skill's file of 8 KB, 1 MiB and 8 MiB (the largest read). The
// host reads and checks the whole file for every page.
func BenchmarkResourceReadDirectory(b *testing.B) {
	for _, size := range []int{8 << 10, 1 << 20, skill.MaxResourceBytes} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			dir := b.TempDir()
			file := strings.Repeat("données € ✓ 0123456789\n", size/28)
			if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(file), 0o644); err != nil {
				b.Fatal(err)
			}
			tree, reg := tools.NewTree(), skills.NewRegistry()
			if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "A.", Content: "Read big.txt.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}}); err != nil {
				b.Fatal(err)
			}
			host, err := hostsdk.New(hostsdk.Config{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
			if err != nil {
				b.Fatal(err)
			}
			defer host.Close()
			ctx := context.Background()
			p, err := host.Load(ctx, hostsdk.LoadOptions{InProcess: true})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Mount(ctx, tools.GlobalScope, `{"resourceTool": true}`); err != nil {
				b.Fatal(err)
			}
			call := hostsdk.ToolCall{SessionID: "s1", AgentScope: tools.GlobalScope, Name: "skill_resource", Arguments: json.RawMessage(`{"name":"alpha","path":"big.txt","offset":` + strconv.Itoa(len(file)/2) + `}`)}
			b.ReportAllocs()
			for b.Loop() {
				res, err := host.CallTool(ctx, call)
				if err != nil || res.IsError {
					b.Fatal(res.Text, err)
				}
			}
		})
	}
}
