package triggereval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// DefaultRuns and DefaultThreshold are what the Agent Skills guide to
// trigger evals suggests: each request run three times, and a request that
// should trigger passes when it triggers in at least half of its runs.
const (
	DefaultRuns      = 3
	DefaultThreshold = 0.5
)

// Model answers one model step: given the conversation (the session's
// visible messages: the plugin's catalog, the user's request) and the
// tools offered to the agent (tools.Tree.Visible), it returns the assistant's reply, its tool calls as
// "tool_use" blocks. hostsdk/modelapi's adapters make one for Anthropic's
// and OpenAI's APIs; a test's scripted model is one too.
type Model interface {
	Reply(ctx context.Context, conversation []hostsdk.Message, offered []tools.ResolvedTool) (hostsdk.Message, error)
}

// Options say where Run sends the requests.
type Options struct {
	// Host has the plugin mounted for AgentScope over the library; each
	// run is a session of its own, ended when the run is.
	Host       *hostsdk.Host
	AgentScope string
	// Tools is the host's tool tree, whose tools visible to AgentScope
	// the model is offered.
	Tools *tools.Tree
	// Cwd is the sessions' working directory: absolute, or "" for none.
	Cwd string
	// Runs is how many times each request is sent (0: DefaultRuns), and
	// Threshold the trigger rate at which a request counts as triggering
	// (0: DefaultThreshold).
	Runs      int
	Threshold float64
}

// Result is one request's result over its runs.
type Result struct {
	Skill         string `json:"skill"`
	Request       string `json:"request"`
	ShouldTrigger bool   `json:"should_trigger"`
	Runs          int    `json:"runs"`
	// Triggered counts the runs whose reply called `skill` with Skill's
	// name; Rate is Triggered/Runs.
	Triggered int     `json:"triggered"`
	Rate      float64 `json:"rate"`
	// Loaded are the names the model passed to `skill` over the runs, in
	// order, Skill's included.
	Loaded []string `json:"loaded"`
	// Pass: Rate at or above the threshold for a request that should
	// trigger, below it for one that should not.
	Pass bool `json:"pass"`
}

// Report is Run's result.
type Report struct {
	Runs      int      `json:"runs"`
	Threshold float64  `json:"threshold"`
	Results   []Result `json:"results"`
	Passed    int      `json:"passed"`
	Failed    int      `json:"failed"`
}

// Run sends every case's request to model, opts.Runs times each, each time
// in a new session whose first step publishes the catalog (and, as the
// mount says, the relevant-skills message), with the agent's tools, and
// reports whether the model's reply called `skill` with the case's skill.
func Run(ctx context.Context, opts Options, model Model, cases []Case) (Report, error) {
	if opts.Host == nil || opts.Tools == nil || model == nil {
		return Report{}, errors.New("triggereval: a host, its tool tree and a model are required")
	}
	runs := opts.Runs
	if runs <= 0 {
		runs = DefaultRuns
	}
	threshold := opts.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	rep := Report{Runs: runs, Threshold: threshold, Results: []Result{}}
	for i, c := range cases {
		r := Result{Skill: c.Skill, Request: c.Request, ShouldTrigger: c.ShouldTrigger, Runs: runs, Loaded: []string{}}
		for n := range runs {
			session := "trigger-eval-" + strconv.Itoa(i+1) + "-" + strconv.Itoa(n+1)
			loaded, err := runOnce(ctx, opts, model, session, c.Request)
			if err != nil {
				return rep, fmt.Errorf("case %d (%q), run %d: %w", i+1, c.Request, n+1, err)
			}
			r.Loaded = append(r.Loaded, loaded...)
			for _, name := range loaded {
				if name == c.Skill {
					r.Triggered++
					break
				}
			}
		}
		r.Rate = float64(r.Triggered) / float64(runs)
		r.Pass = (r.Rate >= threshold) == c.ShouldTrigger
		if r.Pass {
			rep.Passed++
		} else {
			rep.Failed++
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

// runOnce runs one request in session and returns the skill names the
// model's reply passed to `skill`.
func runOnce(ctx context.Context, opts Options, model Model, session, request string) ([]string, error) {
	s := opts.Host.Session(session, &hostsdk.SessionOptions{Cwd: opts.Cwd, AgentScope: opts.AgentScope})
	defer s.End(ctx)
	user := hostsdk.Message{ID: "request", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(request)}}
	if _, err := s.Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{user}}, &hostsdk.StepOptions{Turn: 1, Step: 1}); err != nil {
		return nil, err
	}
	entries, err := s.Transcript(ctx)
	if err != nil {
		return nil, err
	}
	var conversation []hostsdk.Message
	for _, e := range entries {
		if e.Visible {
			conversation = append(conversation, e.Message)
		}
	}
	reply, err := model.Reply(ctx, conversation, opts.Tools.Visible(opts.AgentScope))
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return skillCalls(reply), nil
}

// skillCalls are the names the reply's calls of `skill` pass.
func skillCalls(reply hostsdk.Message) []string {
	var names []string
	for _, b := range reply.Content {
		u, ok := b.ToolUse()
		if !ok || u.Name != contract.SkillToolName {
			continue
		}
		var args struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(u.Input, &args) == nil && args.Name != "" {
			names = append(names, args.Name)
		}
	}
	return names
}

// WriteTable writes a report for people: one row per request, then the
// totals.
func WriteTable(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RESULT\tSKILL\tTRIGGER\tRATE\tLOADED INSTEAD\tREQUEST")
	for _, r := range rep.Results {
		result, trigger := "FAIL", "no"
		if r.Pass {
			result = "pass"
		}
		if r.ShouldTrigger {
			trigger = "yes"
		}
		var others []string
		for _, n := range r.Loaded {
			if n != r.Skill && !slices.Contains(others, n) {
				others = append(others, n)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\n", result, r.Skill, trigger, r.Triggered, r.Runs,
			firstOf(strings.Join(others, ","), "-"), OneLine(r.Request, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d requests x %d runs: %d passed, %d failed (threshold %.2f).\n",
		len(rep.Results), rep.Runs, rep.Passed, rep.Failed, rep.Threshold)
	return err
}

// OneLine is s on one line, cut to max characters (… marks a cut).
func OneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
