package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

const hostcheckUsage = `Usage: skillcatalog hostcheck [-json] -- COMMAND [ARG...]

Checks a host of the plugin protocol, in any language: runs COMMAND (a host
that loads a plugin binary and runs a session or two through it) with this
binary as its plugin in checking mode. The plugin answers every call as
usual and, at each step, asks the host's callbacks again and holds the
answers to proto/HOSTS.md: snapshot tokens stable and content-derived,
event pages and heads consistent, a step's recent events exactly the gap,
tool identities stable, unknown skills not found rather than failed,
withheld bodies withheld, paths outside a skill refused.

The host must start the plugin with its own environment passed on (the
check is switched on by ` + hostcheck.ReportEnv + `). Write {plugin}
in COMMAND's arguments where the host takes the plugin binary's path: it is
replaced with this binary's path, which is also in SKILLCATALOG_HOSTCHECK_PLUGIN.

Exit status: 0 when every check that ran held; 1 on a violation, when the
host ran no step through the plugin, or when COMMAND failed; 2 on a usage
error.

Flags:
`

// hostcheckResult is what -json prints.
type hostcheckResult struct {
	// HostExit is COMMAND's exit status (-1 when it could not run or was
	// killed by a signal).
	HostExit int              `json:"hostExit"`
	Report   hostcheck.Report `json:"report"`
	// Problems are why the check failed beyond the report's violations.
	Problems []string `json:"problems,omitempty"`
}

func hostcheckCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hostcheck", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "print the report as JSON")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), hostcheckUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	command := fl.Args()
	if len(command) == 0 {
		return usageError(fl, stderr, "no host command given (put it after --)")
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog hostcheck: find this binary: %v\n", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "skillcatalog-hostcheck-")
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog hostcheck: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	reportPath := filepath.Join(dir, "report.json")

	for i, a := range command {
		command[i] = strings.ReplaceAll(a, "{plugin}", self)
	}
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Env = append(os.Environ(), hostcheck.ReportEnv+"="+reportPath, "SKILLCATALOG_HOSTCHECK_PLUGIN="+self)
	// The host's own output goes to stderr, so stdout holds the report alone.
	cmd.Stdout, cmd.Stderr = stderr, stderr
	res := hostcheckResult{HostExit: 0}
	if err := cmd.Run(); err != nil {
		res.HostExit = -1
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			res.HostExit = exit.ExitCode()
		}
		res.Problems = append(res.Problems, fmt.Sprintf("the host command failed: %v", err))
	}
	data, err := os.ReadFile(reportPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		res.Problems = append(res.Problems, "the host never started the plugin in checking mode: does it pass its environment on to the plugin, and load {plugin}?")
	case err != nil:
		res.Problems = append(res.Problems, fmt.Sprintf("read the report: %v", err))
	default:
		if err := json.Unmarshal(data, &res.Report); err != nil {
			res.Problems = append(res.Problems, fmt.Sprintf("read the report: %v", err))
		} else if res.Report.Steps == 0 {
			res.Problems = append(res.Problems, "the host ran no step through the plugin")
		}
	}

	if *asJSON {
		if !printJSON(stdout, stderr, "hostcheck", res) {
			return 1
		}
	} else {
		printHostcheck(stdout, res)
	}
	if len(res.Problems) > 0 || res.Report.Failed() {
		return 1
	}
	return 0
}

func printHostcheck(w io.Writer, res hostcheckResult) {
	fmt.Fprintf(w, "host check: %d steps, host exit status %d\n", res.Report.Steps, res.HostExit)
	for _, c := range res.Report.Checks {
		verdict, counts := "ok  ", fmt.Sprintf("%d held", c.Passed)
		switch {
		case c.Failed > 0:
			verdict, counts = "FAIL", fmt.Sprintf("%d held, %d failed", c.Passed, c.Failed)
		case c.Passed == 0 && c.Optional:
			verdict, counts = "-   ", "not exercised (optional)"
		case c.Passed == 0:
			verdict, counts = "-   ", "not exercised"
		}
		fmt.Fprintf(w, "  %s %-26s %s\n", verdict, c.Name, counts)
	}
	for _, v := range res.Report.Violations {
		session := ""
		if v.Session != "" {
			session = " (session " + v.Session + ")"
		}
		fmt.Fprintf(w, "violation: %s%s: %s\n", v.Check, session, v.Detail)
	}
	for _, p := range res.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	if len(res.Problems) == 0 && !res.Report.Failed() {
		fmt.Fprintln(w, "PASS")
	} else {
		fmt.Fprintln(w, "FAIL")
	}
}
