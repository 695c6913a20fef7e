package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/skillcatalog/skillcatalog"
	"github.com/skillcatalog/skillcatalog/hostsdk/mcpskills/skillserver"
)

// serveMCPCommand publishes a skills directory as MCP resources, over stdio
// or streamable HTTP, for the demo's -mcp-* flags and for remote agents.
func serveMCPCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("skillcatalog serve-mcp", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("skills", "", "serve the Agent Skills in `DIR` (default: the embedded examples)")
	addr := fl.String("http", "", "serve streamable HTTP on `ADDR` (for example 127.0.0.1:8765) at /mcp instead of stdio")
	fl.Usage = func() {
		fmt.Fprint(stderr, "Usage: skillcatalog serve-mcp [flags]\n\nServes skills as MCP resources: skill://index.json and skill://<name>/SKILL.md.\n\nFlags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	srv := skillserver.New(skillcatalog.ExampleSkills())
	if *dir != "" {
		srv = skillserver.NewDir(*dir)
		// Say once, up front, which skills will not be served and why.
		if _, err := srv.Index(); err != nil {
			fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
			return 1
		}
		for _, d := range srv.Diagnostics() {
			fmt.Fprintf(stderr, "skillcatalog serve-mcp: %s\n", d)
		}
	}
	if *addr == "" {
		if err := srv.ServeStdio(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
			return 1
		}
		return 0
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
		return 1
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving skills over MCP at http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
		return 1
	}
	return 0
}
