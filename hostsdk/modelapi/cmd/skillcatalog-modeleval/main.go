// Command skillcatalog-modeleval runs trigger evals with a model: each
// request of the trigger-eval files, sent with the real catalog and tools
// (the plugin in process over the skill directories given) to Anthropic's
// Messages API or OpenAI's Chat Completions API, some number of times; it
// reports whether the model called `skill` with the right name, the
// trigger rate per request and pass or fail at a threshold
// (package triggereval). `skillcatalog eval -model anthropic|openai` runs
// it; it lives in this module because the model SDKs do.
//
// The API key comes from the environment (ANTHROPIC_API_KEY,
// OPENAI_API_KEY), as the SDKs read it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
)

const usage = `Usage: skillcatalog-modeleval -model anthropic|openai -skills DIR [flags] FILE...

Sends each request of the trigger-eval FILEs (see skillcatalog eval -h for
the formats) to the model -runs times, each time as the first step of a new
session of an agent whose catalog and tools the plugin builds over the
skill directories, and reports, per request, how many runs called the
skill tool with the case's skill, the rate and whether it passes at
-threshold (a request that should trigger: rate >= threshold; one that
should not: below it). Exit status 1 when a request fails, 2 on misuse.

Flags:
`

// stringsFlag collects a repeated flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return fmt.Sprint(*s) }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// options are the command's flags.
type options struct {
	model, modelName, baseURL string
	skillsDirs                stringsFlag
	home, cwd, skill          string
	runs                      int
	threshold                 float64
	json                      bool
	catalogBudget             int
	relevantSkills            string
	maxTokens                 int64
	files                     []string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func parse(args []string, stderr io.Writer) (options, error) {
	fl := flag.NewFlagSet("skillcatalog-modeleval", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o options
	fl.StringVar(&o.model, "model", "", "the model API: anthropic or openai")
	fl.StringVar(&o.modelName, "model-name", "", "the `MODEL` to call (default: a current small model of the API)")
	fl.StringVar(&o.baseURL, "base-url", "", "the API's base `URL` (default: the SDK's, or its environment variable)")
	fl.Var(&o.skillsDirs, "skills", "a skill root `DIR` (repeatable)")
	fl.StringVar(&o.home, "home", "", "the home `DIR` whose .agents/skills are user-level roots (default: your home)")
	fl.StringVar(&o.cwd, "cwd", "", "the session's working `DIR` (default: the current directory)")
	fl.StringVar(&o.skill, "skill", "", "the skill `NAME` cases that name none are about")
	fl.IntVar(&o.runs, "runs", triggereval.DefaultRuns, "how many times each request is sent")
	fl.Float64Var(&o.threshold, "threshold", triggereval.DefaultThreshold, "the trigger rate at which a request counts as triggering")
	fl.BoolVar(&o.json, "json", false, "print JSON")
	fl.IntVar(&o.catalogBudget, "catalog-budget", 0, "the mount's catalogBudget `N` (0: none)")
	fl.StringVar(&o.relevantSkills, "relevant-skills", "", "the mount's relevantSkills `MODE`")
	fl.Int64Var(&o.maxTokens, "max-tokens", 1024, "the reply's token bound")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), usage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return o, err
	}
	o.files = fl.Args()
	switch {
	case o.model != "anthropic" && o.model != "openai":
		return o, fmt.Errorf("-model must be anthropic or openai, got %q", o.model)
	case len(o.files) == 0:
		return o, errors.New("no FILE given")
	case o.runs < 1:
		return o, fmt.Errorf("-runs must be at least 1, got %d", o.runs)
	case o.threshold <= 0 || o.threshold > 1:
		return o, fmt.Errorf("-threshold must be in (0, 1], got %v", o.threshold)
	}
	for i, d := range o.skillsDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return o, err
		}
		o.skillsDirs[i] = abs
	}
	var err error
	if o.cwd == "" {
		o.cwd, err = os.Getwd()
	} else {
		o.cwd, err = filepath.Abs(o.cwd)
	}
	return o, err
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog-modeleval: %v\n", err)
		return 2
	}
	cases, err := readCases(o)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog-modeleval: %v\n", err)
		return 1
	}
	rep, err := evaluate(ctx, o, cases)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog-modeleval: %v\n", err)
		return 1
	}
	if err := write(stdout, o, rep); err != nil {
		fmt.Fprintf(stderr, "skillcatalog-modeleval: %v\n", err)
		return 1
	}
	if rep.Failed > 0 {
		return 1
	}
	return 0
}
