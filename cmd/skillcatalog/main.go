// Command skillcatalog runs the skill-catalog demo and the conformance
// suite. The same binary is also the plugin: when a host starts it through
// the go-plugin handshake it serves the plugin protocol, which is how the
// demo runs the real plugin without building anything else.
//
//	skillcatalog demo [flags]                       a scripted session, no setup
//	skillcatalog conform -plugin PATH [FILE|DIR]    the contract suite
//	skillcatalog serve-mcp [-skills DIR] [-http ADDR] skills as MCP resources
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/skillcatalog/skillcatalog/plugin/pluginserver"
)

const usage = `skillcatalog: a skill-catalog plugin for agent runtimes.

Usage:
  skillcatalog demo [flags]                        run a scripted session against example skills
  skillcatalog conform -plugin PATH [FILE|DIR...]  run conformance scenarios against a plugin binary
                                                 (or -in-process: against the rules in this process)
  skillcatalog serve-mcp [-skills DIR] [-http ADDR]  serve skills as MCP resources (stdio or HTTP)
  skillcatalog help                                show this help

Run "skillcatalog demo -h" or "skillcatalog conform -h" for flags.
`

func main() {
	// Started by a host through the handshake: be the plugin.
	pluginserver.ServeIfRequested()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "demo":
		return demoCommand(ctx, args[1:], stdout, stderr)
	case "conform":
		return conformCommand(ctx, args[1:], stdout, stderr)
	case "serve-mcp":
		return serveMCPCommand(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "skillcatalog: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
