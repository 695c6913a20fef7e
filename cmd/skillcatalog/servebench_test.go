//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeBenchSkills writes skills skills of files files each (SKILL.md and
// files-1 files of about 1 KiB) below root.
func writeBenchSkills(tb testing.TB, root string, skills, files int) {
	tb.Helper()
	body := strings.Repeat("Step by step, with care.\n", 40)
	for i := range skills {
		name := fmt.Sprintf("skill-%04d", i)
		dir := filepath.Join(root, name, "references")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		skillMD := fmt.Sprintf("---\nname: %s\ndescription: Benchmark skill number %d, which does one thing well.\nlicense: Apache-2.0\n---\n%s", name, i, body)
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), []byte(skillMD), 0o644); err != nil {
			tb.Fatal(err)
		}
		for j := 1; j < files; j++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%02d.md", j)), []byte(fmt.Sprintf("# Part %d\n%s", j, body)), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// residentMiB reads a field of /proc/<pid>/status (VmRSS, VmHWM) in MiB.
func residentMiB(tb testing.TB, pid int, field string) float64 {
	tb.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb / 1024
		}
	}
	tb.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// BenchmarkServeMCPSkillsListHTTP lists 1,000 skills of 10 files each, all
// pages, from serve-mcp running as its own process (watching its
// directory, as it does with -skills) over streamable HTTP, with a go-sdk
// client of each base revision. ns/op is one full listing; B/op and
// allocs/op are the client's alone (the server is another process);
// server-RSS-MiB and server-peak-RSS-MiB are the server's resident memory
// after the listings.
func BenchmarkServeMCPSkillsListHTTP(b *testing.B) {
	root := b.TempDir()
	writeBenchSkills(b, root, 1000, 10)
	bin := filepath.Join(b.TempDir(), "skillcatalog")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	srv, url := startServeMCP(b, bin, "-skills", root, "-http", "127.0.0.1:0")
	for _, rev := range []string{"2026-07-28", "2025-11-25"} {
		b.Run(rev, func(b *testing.B) {
			ctx := context.Background()
			cs, err := skillsClient(b, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			b.ReportAllocs()
			for b.Loop() {
				uris, err := listSkillURIs(ctx, cs)
				if err != nil || len(uris) != 1000 {
					b.Fatalf("listed %d skills: %v", len(uris), err)
				}
			}
			b.ReportMetric(residentMiB(b, srv.Process.Pid, "VmRSS"), "server-RSS-MiB")
			b.ReportMetric(residentMiB(b, srv.Process.Pid, "VmHWM"), "server-peak-RSS-MiB")
		})
	}
}
