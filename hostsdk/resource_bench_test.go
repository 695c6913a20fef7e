package hostsdk_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// BenchmarkResourceReadDirectory: one skill_resource call through the host
// and the in-process plugin, reading an 8 KB page from the middle of a
// directory skill's file of 8 KB, 1 MiB and 8 MiB (the largest read). The
// host reads the whole file once per version of it, to judge it text
// (first-page: the file's times are touched before each call, so each is
// a new version), and later pages of that version read only their bytes
// (next-page).
func BenchmarkResourceReadDirectory(b *testing.B) {
	for _, size := range []int{8 << 10, 1 << 20, skill.MaxResourceBytes} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			dir := b.TempDir()
			file := strings.Repeat("données € ✓ 0123456789\n", size/28)
			if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(file), 0o644); err != nil {
				b.Fatal(err)
			}
			tree, reg := tools.NewTree(), skilltest.NewRegistry(b)
			if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "A.", Content: "Read big.txt.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}}); err != nil {
				b.Fatal(err)
			}
			host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
			if err != nil {
				b.Fatal(err)
			}
			defer host.Close()
			ctx := context.Background()
			p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.MountJSON(ctx, tools.GlobalScope, `{"resourceTool": true}`); err != nil {
				b.Fatal(err)
			}
			sess, call := host.Session("s1", nil), hostsdk.ToolCall{Name: "skill_resource", Arguments: json.RawMessage(`{"name":"alpha","path":"big.txt","offset":` + strconv.Itoa(len(file)/2) + `}`)}
			read := func(b *testing.B) {
				res, err := sess.CallTool(ctx, call)
				if err != nil || res.IsError {
					b.Fatal(res.Text, err)
				}
			}
			b.Run("first-page", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					t := time.Unix(1_700_000_000+int64(i), 0)
					if err := os.Chtimes(filepath.Join(dir, "big.txt"), t, t); err != nil {
						b.Fatal(err)
					}
					read(b)
				}
			})
			b.Run("next-page", func(b *testing.B) {
				read(b) // this version's verdict
				b.ReportAllocs()
				for b.Loop() {
					read(b)
				}
			})
		})
	}
}
