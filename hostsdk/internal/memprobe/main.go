// Command memprobe drives the MCP provider through one memory-hungry
// scenario, so that the peak resident memory of the process can be measured
// from outside (for example with /usr/bin/time -v):
//
//	memprobe -index 300000000 [-sse]   an oversized index over streamable HTTP
//	memprobe -body 200000000 [-sse]    an oversized SKILL.md over streamable HTTP
//	memprobe -url URL -sessions 300    sessions that each load every skill of the server at URL
//
// The oversized scenarios run mcpfake.Oversized in this process; it
// generates what it sends and holds none of it. It prints what the provider
// returned and the live heap after a collection.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"runtime"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

func main() {
	index := flag.Int64("index", 0, "serve an index of `N` bytes")
	body := flag.Int64("body", 0, "serve a SKILL.md of `N` bytes")
	sse := flag.Bool("sse", false, "answer reads as event streams")
	url := flag.String("url", "", "the streamable HTTP endpoint of a skills server")
	sessions := flag.Int("sessions", 300, "sessions for -url")
	total := flag.Int64("cache-total", 0, "mcpskills.Options.CacheTotalBytes (0: the default)")
	flag.Parse()
	if err := run(context.Background(), *index, *body, *sse, *url, *sessions, *total); err != nil {
		fmt.Fprintln(os.Stderr, "memprobe:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, index, body int64, sse bool, url string, sessions int, total int64) error {
	var o *mcpfake.Oversized
	if url == "" {
		o = &mcpfake.Oversized{IndexBytes: index, BodyBytes: max(body, 100), SSE: sse}
		srv := httptest.NewServer(o)
		defer srv.Close()
		url = srv.URL
		sessions = 1
	}
	p, err := mcpskills.New(&mcpskills.Options{URL: url, CacheTotalBytes: total})
	if err != nil {
		return err
	}
	defer p.Close()
	loaded := 0
	for i := range sessions {
		id := fmt.Sprintf("s%d", i)
		obs, err := p.List(ctx, skills.ListRequest{SessionID: id})
		if err != nil {
			fmt.Println("List:", err)
			break
		}
		for _, s := range obs.Skills {
			def, found, err := p.Load(ctx, skills.LoadRequest{SessionID: id, Name: s.Name})
			if err != nil || !found {
				fmt.Println("Load:", found, err)
				continue
			}
			loaded += len(def.Content)
		}
	}
	fmt.Printf("sessions: %d, body bytes loaded: %d\n", sessions, loaded)
	if o != nil {
		fmt.Printf("server sent: %d bytes\n", o.Sent())
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("live heap after GC: %d bytes (%.1f MiB); heap obtained from the OS: %.1f MiB\n", ms.HeapAlloc, float64(ms.HeapAlloc)/(1<<20), float64(ms.HeapSys)/(1<<20))
	return nil
}
