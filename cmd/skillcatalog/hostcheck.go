package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/hostcheckrelay"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

const hostcheckUsage = `Usage: skillcatalog hostcheck [-json] [-timeout DURATION] -- COMMAND [ARG...]

Checks a host of the plugin protocol, in any language: runs COMMAND (a host
that loads a plugin binary and runs a session or two through it) with this
binary as its plugin in checking mode. The plugin answers every call as
usual and, at each step, asks the host's callbacks again and holds the
answers to proto/HOSTS.md: snapshot tokens stable and content-derived,
event pages and heads consistent, a step's recent events exactly the gap,
the messages the plugin adds kept in the log with their sources byte for
byte, tool identities stable, unknown skills not found rather than failed,
withheld bodies withheld, paths outside a skill refused.

Write {plugin} in COMMAND's arguments where the host takes the plugin
binary's path: it is replaced with this binary's path, which is also in
SKILLCATALOG_HOSTCHECK_PLUGIN. The host must start the plugin with its own
environment passed on: ` + hostcheck.RelayEnv + ` names this checker's socket.

The report cannot be forged by the host: the plugin binary the host starts
is a stand-in that hands its standard input, output and error to this
checker over that socket, and the checker starts the plugin that serves the
host itself, as its own child, with its report sent back over a socket pair
only the two of them hold. The host talks to that plugin exactly as to any
other. A host that never loads the plugin, or runs no step through it,
fails; so does anything that connects to the checker's socket without being
the plugin binary. Not covered: a host running as the same user that
debugs or patches other processes (ptrace, pidfd_getfd); a host that passes
the check by handing the plugin to another, conforming host; systems
without Unix domain sockets (Windows), where the check does not run.

COMMAND runs in a process group of its own. When it has not finished within
-timeout, it and every process of its group are killed and the check fails.

Exit status: 0 when every check that ran held; 1 on a violation, when the
host ran no step through the plugin, when COMMAND failed or ran out of
time; 2 on a usage error.

Flags:
`

// defaultHostTimeout bounds a host command's run unless -timeout says
// otherwise: the reference hosts take a few seconds.
const defaultHostTimeout = 5 * time.Minute

// hostcheckResult is what -json prints.
type hostcheckResult struct {
	// HostExit is COMMAND's exit status (-1 when it could not run or was
	// killed by a signal).
	HostExit int `json:"hostExit"`
	// Plugins counts the plugin processes the checker started for the
	// host, one for each time the host started the plugin binary.
	Plugins int              `json:"plugins"`
	Report  hostcheck.Report `json:"report"`
	// Problems are why the check failed beyond the report's violations.
	Problems []string `json:"problems,omitempty"`
}

func hostcheckCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hostcheck", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "print the report as JSON")
	timeout := fl.Duration("timeout", defaultHostTimeout, "kill COMMAND and its process group, and fail, when it has not finished within `DURATION`")
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
	if *timeout <= 0 {
		return usageError(fl, stderr, "-timeout %v: want more than 0", *timeout)
	}
	res, err := runHostUnderCheck(ctx, command, *timeout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog hostcheck: %v\n", err)
		return 1
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

// runHostUnderCheck runs the host command against the checker's socket,
// for at most timeout, and gathers what the plugins it started reported.
// The error is one of the checker's own, before the host ran.
func runHostUnderCheck(ctx context.Context, command []string, timeout time.Duration, hostOutput io.Writer) (hostcheckResult, error) {
	self, err := os.Executable()
	if err != nil {
		return hostcheckResult{}, fmt.Errorf("find this binary: %w", err)
	}
	dir, err := os.MkdirTemp("", "skillcatalog-hostcheck-")
	if err != nil {
		return hostcheckResult{}, fmt.Errorf("create the checker's directory: %w", err)
	}
	defer os.RemoveAll(dir)
	relay, err := hostcheckrelay.Listen(filepath.Join(dir, "checker.sock"), "")
	if err != nil {
		return hostcheckResult{}, err
	}
	for i, a := range command {
		command[i] = strings.ReplaceAll(a, "{plugin}", self)
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, command[0], command[1:]...)
	cmd.Env = append(hostEnv(os.Environ()), hostcheck.RelayEnv+"="+relay.Path(), "SKILLCATALOG_HOSTCHECK_PLUGIN="+self)
	// The host's own output goes to stderr, so stdout holds the report alone.
	cmd.Stdout, cmd.Stderr = hostOutput, hostOutput
	inOwnProcessGroup(cmd)
	// Output copied by this process is not waited for long once the host
	// has gone: a process it left behind may hold the pipe.
	cmd.WaitDelay = 5 * time.Second
	var res hostcheckResult
	if err := cmd.Run(); err != nil {
		res.HostExit = -1
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			res.HostExit = exit.ExitCode()
		}
		switch {
		case errors.Is(runCtx.Err(), context.DeadlineExceeded):
			res.Problems = append(res.Problems, fmt.Sprintf("the host command did not finish within -timeout %v: it and its process group were killed", timeout))
		case ctx.Err() != nil:
			res.Problems = append(res.Problems, "the check was interrupted: the host command and its process group were killed")
		default:
			res.Problems = append(res.Problems, fmt.Sprintf("the host command failed: %v", err))
		}
	}
	relayed := relay.Close()
	res.Plugins, res.Report = relayed.Plugins, relayed.Report
	res.Problems = append(res.Problems, relayed.Problems...)
	switch {
	case relayed.Plugins == 0:
		res.Problems = append(res.Problems, "the host never started the plugin in checking mode: does it pass its environment on to the plugin, and load {plugin}?")
	case res.Report.Steps == 0:
		res.Problems = append(res.Problems, "the host ran no step through the plugin")
	}
	return res, nil
}

// hostEnv is environ without the check's own variables, which the checker
// sets for the host.
func hostEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name != hostcheck.RelayEnv && name != hostcheck.ReportFDEnv && name != "SKILLCATALOG_HOSTCHECK_PLUGIN" {
			out = append(out, kv)
		}
	}
	return out
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
