// Command skillcatalog runs the skill-catalog demo, the conformance suite,
// a skills MCP server, the skill validator, the catalog explainer and the
// host checker. The same binary is also the plugin: when a host
// starts it through the go-plugin handshake it serves the plugin protocol,
// which is how the demo runs the real plugin without building anything else.
//
//	skillcatalog demo [flags]                           a scripted session, no setup
//	skillcatalog conform (-plugin PATH | -in-process)   the contract suite
//	skillcatalog serve-mcp [-skills DIR] [-http ADDR]   skills over MCP (the MCP Skills extension)
//	skillcatalog validate [-json] DIR...                skills against the Agent Skills specification
//	skillcatalog publish [-json] [-strict] DIR OUT      skills as a static website (/.well-known/agent-skills/)
//	skillcatalog explain [flags]                        the catalog the model would see, and why
//	skillcatalog lock [flags] [-verify FILE]            pin every skill to its content digest
//	skillcatalog search -skills DIR QUERY               the skills that best match a request
//	skillcatalog eval -skills DIR [FILE|DIR...]         trigger evals: where each request puts its skill
//	skillcatalog hostcheck -- COMMAND [ARG...]          check a host of the plugin protocol
//	skillcatalog version                                build and protocol versions
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin/pluginserver"
)

const usage = `skillcatalog: a skill-catalog plugin for agent runtimes.

Usage:
  skillcatalog demo [flags]                           run a scripted session against example skills
  skillcatalog conform (-plugin PATH | -in-process) [flags] [FILE|DIR...]
                                                      run conformance scenarios
  skillcatalog serve-mcp [-skills DIR] [-http ADDR]   serve skills over MCP, the MCP Skills extension (stdio or HTTP)
  skillcatalog validate [-json] DIR...                check skills against the Agent Skills specification
  skillcatalog publish [-json] [-strict] DIR OUT      write skills as a static website for any web server (/.well-known/agent-skills/)
  skillcatalog explain [-skills DIR] [flags]          show the catalog the model would see, and why each skill is in or out
  skillcatalog lock [flags] [-verify FILE]            write a lock of every skill's content digest, or check the sources against one
  skillcatalog search -skills DIR [flags] QUERY       find the skills that best match a request, as the skill_search tool does
  skillcatalog eval -skills DIR [flags] [FILE|DIR...] run trigger evals offline: where each request puts the skill it is about
  skillcatalog hostcheck [-json] [-timeout D] -- COMMAND [ARG...]
                                                      check a host of the plugin protocol, in any language
  skillcatalog version                                print the build and protocol versions
  skillcatalog help                                   show this help

Each command's flags:
  skillcatalog demo -h
  skillcatalog conform -h
  skillcatalog serve-mcp -h
  skillcatalog validate -h
  skillcatalog publish -h
  skillcatalog explain -h
  skillcatalog lock -h
  skillcatalog search -h
  skillcatalog eval -h
  skillcatalog hostcheck -h
`

func main() {
	// Started by a host through the handshake: be the plugin.
	pluginserver.ServeIfRequested()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
	case "validate":
		return validateCommand(ctx, args[1:], stdout, stderr)
	case "publish":
		return publishCommand(ctx, args[1:], stdout, stderr)
	case "explain":
		return explainCommand(ctx, args[1:], stdout, stderr)
	case "lock":
		return lockCommand(ctx, args[1:], stdout, stderr)
	case "search":
		return searchCommand(ctx, args[1:], stdout, stderr)
	case "eval":
		return evalCommand(ctx, args[1:], stdout, stderr)
	case "hostcheck":
		return hostcheckCommand(ctx, args[1:], stdout, stderr)
	case "version", "-version", "--version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "skillcatalog version: unexpected argument %q\n", args[1])
			return 2
		}
		fmt.Fprintln(stdout, versionLine())
		return 0
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" && args[1] != "help" {
			// help TOPIC is the topic's own help.
			return run(ctx, []string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "skillcatalog: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

// versionLine names the module version (or the commit of a development
// build), the Go release and the plugin protocol version a host must speak.
func versionLine() string {
	version, extra := "(unknown)", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		version = info.Main.Version
		var revision, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if len(revision) > 12 {
			revision = revision[:12]
		}
		if revision != "" {
			extra = ", commit " + revision
			if modified == "true" {
				extra += " with local changes"
			}
		}
	}
	return fmt.Sprintf("skillcatalog %s (%s%s), plugin protocol %d", version, runtime.Version(), extra, wire.ProtocolV1)
}

// parseFlags parses a command's flags. Help asked for (-h) goes to stdout
// and ends the command with status 0; a usage error goes to stderr with the
// usage and status 2. ok is true when the command should run.
func parseFlags(fl *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	var msg bytes.Buffer
	fl.SetOutput(&msg)
	err := parseInterspersed(fl, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fl.SetOutput(stdout)
		fl.Usage()
		return 0, false
	case err != nil:
		_, _ = stderr.Write(msg.Bytes())
		return 2, false
	}
	fl.SetOutput(stderr)
	return 0, true
}

// parseInterspersed parses flags that come before, between or after the
// positional arguments (`validate DIR -json` as `validate -json DIR`),
// until a "--", after which everything is positional. fl.Args() then
// holds the positional arguments in order.
func parseInterspersed(fl *flag.FlagSet, args []string) error {
	var positional []string
	for rest := args; ; {
		if err := fl.Parse(rest); err != nil {
			return err
		}
		left := fl.Args()
		if len(left) == 0 {
			break
		}
		if consumed := len(rest) - len(left); consumed > 0 && rest[consumed-1] == "--" {
			positional = append(positional, left...)
			break
		}
		positional, rest = append(positional, left[0]), left[1:]
	}
	return fl.Parse(append([]string{"--"}, positional...))
}

// printJSON writes a command's -json report, indented, to stdout; a
// failure to encode or write it goes to stderr, and printJSON says false.
func printJSON(stdout, stderr io.Writer, command string, v any) bool {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "skillcatalog %s: %v\n", command, err)
		return false
	}
	return true
}

// report ends a command that computed v (or failed with err): the error on
// stderr and exit status 1, or v as JSON (asJSON) or as text (print) on
// stdout and status 0.
func report[T any](stdout, stderr io.Writer, command string, v T, err error, asJSON bool, print func(io.Writer, T)) int {
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog %s: %v\n", command, err)
		return 1
	}
	if asJSON {
		if !printJSON(stdout, stderr, command, v) {
			return 1
		}
		return 0
	}
	print(stdout, v)
	return 0
}

// usageError reports a misuse the flag package cannot see, followed by the
// command's usage, on stderr.
func usageError(fl *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "skillcatalog %s: %s\n\n", fl.Name(), fmt.Sprintf(format, args...))
	fl.SetOutput(stderr)
	fl.Usage()
	return 2
}
