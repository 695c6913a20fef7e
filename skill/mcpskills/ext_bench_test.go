package mcpskills

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// benchServerEnv makes the test binary serve the benchmarks' skills over
// streamable HTTP (see TestMain) and print its address: the servers run in
// a process of their own, so that a benchmark's allocations are the
// client's alone.
const benchServerEnv = "MCPSKILLS_BENCH_SERVER"

// Shapes of the benchmarks' servers.
const (
	benchSkills    = 1000
	benchFiles     = 10 // per skill, SKILL.md included
	benchPageSize  = 100
	benchBigBytes  = 8 << 20
	benchBigSkill  = "big"
	benchBigFile   = "data.txt"
	benchBigIndexU = "skill://" + benchBigSkill + "/" + benchBigFile
)

// runBenchServer serves, on one loopback port: /list, an extension server
// with benchSkills skills of benchFiles files each, listed benchPageSize a
// page; /ext, an extension server with one skill holding an 8 MiB text
// file; /index, an index server with the same skill and file. It prints
// the address and serves until stdin closes.
func runBenchServer() int {
	list := mcpfake.NewExt()
	list.SetPageSize(benchPageSize)
	for i := range benchSkills {
		name := fmt.Sprintf("skill-%04d", i)
		files := make(map[string]string, benchFiles-1)
		for j := 1; j < benchFiles; j++ {
			files[fmt.Sprintf("references/file-%d.md", j)] = fmt.Sprintf("File %d of %s.\n", j, name)
		}
		list.SetSkill(mcpfake.ExtSkill{
			URI:         fmt.Sprintf("skill://team-%d/%s/SKILL.md", i%10, name),
			Frontmatter: map[string]any{"name": name, "description": "Benchmark skill " + name + ": what it does and when to use it."},
			Body:        "# " + name + "\n",
			Files:       files,
		})
	}
	big := benchText()
	ext := mcpfake.NewExt()
	ext.SetSkill(mcpfake.ExtSkill{URI: "skill://big/SKILL.md", Frontmatter: map[string]any{"name": benchBigSkill, "description": "Big."}, Body: "# Big\n", Files: map[string]string{benchBigFile: big}})
	index := mcpfake.New()
	index.SetSkill(benchBigSkill, "Big.", "# Big\n")
	index.SetResource(benchBigIndexU, big)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mux := http.NewServeMux()
	mux.Handle("/list", list.HTTPHandler())
	mux.Handle("/ext", ext.HTTPHandler())
	mux.Handle("/index", index.HTTPHandler())
	go func() { _ = http.Serve(ln, mux) }()
	fmt.Println(ln.Addr().String())
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until stdin closes
	return 0
}

// benchText is benchBigBytes of text.
func benchText() string {
	line := "print(\"données\") # a line of a large script ✓\n"
	return strings.Repeat(line, benchBigBytes/len(line)+1)[:benchBigBytes]
}

// startBenchServer runs the test binary as the benchmarks' server and
// returns its address.
func startBenchServer(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), benchServerEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

func newBenchProvider(b *testing.B, url string, cfg Options) *Provider {
	b.Helper()
	cfg.URL = url
	cfg.Label = "bench"
	cfg.RequestTimeout = time.Minute
	p, err := New(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.Close() })
	return p
}

// BenchmarkExtList measures the client's side of listing a server of 1,000
// skills of 10 files each over streamable HTTP (ten skills/list pages of
// 100 entries, about 2 MB of JSON), the server in another process:
//
//   - first: a new provider's first listing (connecting, walking the
//     pages, decoding and validating every entry, building the catalog);
//   - relist: a provider listing again (IndexMaxAge passed): walking the
//     pages and finding them unchanged, so the catalog already built is
//     kept.
func BenchmarkExtList(b *testing.B) {
	url := "http://" + startBenchServer(b) + "/list"
	check := func(b *testing.B, obs skills.Observation, err error) {
		if err != nil || len(obs.Skills) != benchSkills {
			b.Fatalf("List = %d skills, %v", len(obs.Skills), err)
		}
	}
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := New(&Options{URL: url, Label: "bench", RequestTimeout: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			obs, err := p.List(context.Background(), skills.ListRequest{SessionID: "s1"})
			check(b, obs, err)
			_ = p.Close()
		}
	})
	b.Run("relist", func(b *testing.B) {
		p := newBenchProvider(b, url, Options{IndexMaxAge: time.Nanosecond})
		obs, err := p.List(context.Background(), skills.ListRequest{SessionID: "s1"})
		check(b, obs, err)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			obs, err := p.List(context.Background(), skills.ListRequest{SessionID: "s1"})
			check(b, obs, err)
		}
	})
}

// BenchmarkRead8MiB measures reading an 8 MiB text file of a remote skill
// over streamable HTTP, from a server in another process, in a new session
// each time (so it is fetched, not served from the session's view):
// verified against its entry's size and SHA-256 digest (a server declaring
// the extension) beside the same read unverified (the same file from a
// server with the older index). digest is the verification alone: hashing
// the 8 MiB text and comparing.
func BenchmarkRead8MiB(b *testing.B) {
	addr := startBenchServer(b)
	read := func(b *testing.B, p *Provider) {
		ctx := context.Background()
		if _, err := p.List(ctx, skills.ListRequest{SessionID: "warm"}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(benchBigBytes)
		b.ResetTimer()
		i := 0
		for b.Loop() {
			session := fmt.Sprintf("s%d", i)
			i++
			data, err := p.ReadSkillResource(ctx, skills.ResourceRequest{SessionID: session, Name: benchBigSkill, Path: benchBigFile})
			if err != nil || len(data) != benchBigBytes {
				b.Fatalf("read %d bytes, %v", len(data), err)
			}
			p.EndSession(session)
		}
	}
	b.Run("verified", func(b *testing.B) {
		read(b, newBenchProvider(b, "http://"+addr+"/ext", Options{IndexMaxAge: time.Hour, CacheMaxBytes: 16 << 20}))
	})
	b.Run("unverified", func(b *testing.B) {
		read(b, newBenchProvider(b, "http://"+addr+"/index", Options{IndexMaxAge: time.Hour, CacheMaxBytes: 16 << 20}))
	})
	b.Run("digest", func(b *testing.B) {
		c := &Content{Text: benchText()}
		size, sum := digestOf(c)
		want := &fileEntry{Size: size, Digest: sum}
		b.ReportAllocs()
		b.SetBytes(benchBigBytes)
		for b.Loop() {
			size, sum := digestOf(c)
			if err := checkContent(size, sum, want); err != nil {
				b.Fatal(err)
			}
		}
	})
}
