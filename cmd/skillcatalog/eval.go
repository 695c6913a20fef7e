package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

const evalUsage = `Usage: skillcatalog eval -skills DIR [flags] [FILE | DIR ...]

Runs trigger evals offline, with no model: for each request of a
trigger-eval file it runs a session's first step, with the request, on the
whole library the skill directories hold (read as explain reads them), and
calls skill_search with it, and reports where the request puts the skill
the case is about:

  catalog    listed in the catalog with its full description
  relevant   in the relevant-skills message the request adds
  search@K   among the top K results of skill_search (RANK says where)
  nowhere    none of these

and, when another skill ranks above it, the neighbour that does. A case
that should trigger passes when the skill is placed anywhere but nowhere; a
case that should not passes when the skill is neither in the
relevant-skills message nor the first search result. The exit status is 1
when a case fails, 2 on a usage error.

With -model anthropic|openai it runs the cases with the model instead, each
request -runs times with the real catalog and tools, and reports the
trigger rate per request and pass or fail at -threshold. The model SDKs
live in their own module: this runs the skillcatalog-modeleval command
(go install github.com/skillcatalog/skillcatalog/hostsdk/modelapi/cmd/skillcatalog-modeleval@latest;
SKILLCATALOG_MODELEVAL names another path), which reads the API key from
the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY). FILE or DIR arguments
are required with -model.

The files (see README.md for an example of each): a JSON array of
{"query", "should_trigger"}; an object {"skill_name", "evals": [{"prompt",
"should_trigger"}]} (entries without should_trigger are left out); a
markdown file (.md) of task-list items, "- [x] request" to trigger and
"- [ ] request" not to, with an optional line "skill: NAME". A DIR with a
SKILL.md means the files of its evals/ folder; with no FILE or DIR, every
skill of the library with an evals/ folder. A case's skill is its own
"skill", the file's skill_name or "skill:" line, -skill, or the name of the
folder that holds evals/.

Flags:
`

type evalOptions struct {
	explain evalExplain
	skill   string
	k       int
	json    bool

	// model, with runs, threshold and modelName, runs the cases with a
	// model, through the driver (see modelDriver).
	model, modelName string
	runs             int
	threshold        float64
}

// evalExplain are the options eval shares with explain.
type evalExplain = explainOptions

func evalCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("eval", flag.ContinueOnError)
	var o evalOptions
	fl.Var(&o.explain.skillsDirs, "skills", "a skill root `DIR` (one subdirectory per skill, or one skill's own folder), user-level and trusted (repeatable)")
	fl.StringVar(&o.explain.home, "home", "", "the home `DIR` whose .agents/skills (and preset directories) are user-level roots (default: your home directory)")
	fl.StringVar(&o.explain.cwd, "cwd", "", "the session's working `DIR`, where project skills are looked for (default: the current directory)")
	fl.StringVar(&o.explain.agent, "agent", "agent:eval", "the calling agent's `SCOPE`")
	fl.Var(&o.explain.presets, "preset", "also scan and load as the `LAYOUT` does ("+presetNames()+"; repeatable)")
	fl.BoolVar(&o.explain.trustProject, "trust-project", false, "trust the project of -cwd, so its skills load")
	fl.IntVar(&o.explain.descriptionMaxLength, "description-max-length", 0, "the mount's descriptionMaxLength `N` (0: the default)")
	fl.IntVar(&o.explain.catalogBudget, "catalog-budget", 0, "the mount's catalogBudget `N` in characters (0: none)")
	fl.StringVar(&o.explain.relevantSkills, "relevant-skills", "", "the mount's relevantSkills `MODE`: auto (default), on, off")
	fl.StringVar(&o.skill, "skill", "", "the skill `NAME` cases that name none are about")
	fl.IntVar(&o.k, "k", render.DefaultSearchLimit, fmt.Sprintf("the search results `K` that count, 1 to %d", render.MaxSearchLimit))
	fl.BoolVar(&o.json, "json", false, "print JSON")
	fl.StringVar(&o.model, "model", "", "run the cases with a model instead: `API` anthropic or openai (through "+modelDriver+")")
	fl.StringVar(&o.modelName, "model-name", "", "with -model, the `MODEL` to call")
	fl.IntVar(&o.runs, "runs", 3, "with -model, how many times each request is sent")
	fl.Float64Var(&o.threshold, "threshold", 0.5, "with -model, the trigger rate at which a request counts as triggering")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), evalUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if o.k < 1 || o.k > render.MaxSearchLimit {
		return usageError(fl, stderr, "-k must be from 1 to %d, got %d", render.MaxSearchLimit, o.k)
	}
	if o.model != "" {
		return runModelDriver(ctx, o, fl.Args(), stdout, stderr)
	}
	ev, err := newEvaluator(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog eval: %v\n", err)
		return 1
	}
	defer ev.close()
	cases, err := ev.gather(ctx, fl.Args(), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog eval: %v\n", err)
		return 1
	}
	if len(cases) == 0 {
		fmt.Fprintln(stderr, "skillcatalog eval: no trigger cases found")
		return 1
	}
	report, err := ev.run(ctx, cases)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog eval: %v\n", err)
		return 1
	}
	if o.json {
		if !printJSON(stdout, stderr, "eval", report) {
			return 1
		}
	} else {
		printEvalTable(stdout, report)
	}
	if report.Failed > 0 {
		return 1
	}
	return 0
}

// evaluator is a host with the plugin in process, mounted as explain
// mounts it with the skill-search tool added, over the library.
type evaluator struct {
	o     evalOptions
	fsys  *agentskills.Provider
	reg   *skills.Registry
	host  *hostsdk.Host
	close func()
}

func newEvaluator(ctx context.Context, o evalOptions) (*evaluator, error) {
	roots, err := o.explain.resolvePaths()
	if err != nil {
		return nil, err
	}
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: roots, HomeDir: o.explain.home, Presets: o.explain.presets,
		TrustProject: func(string) bool { return o.explain.trustProject }})
	if err != nil {
		return nil, err
	}
	ev := &evaluator{o: o, fsys: fsys, close: func() { fsys.Close() }}
	reg, closeRemote, err := o.explain.registry(fsys)
	if err != nil {
		ev.close()
		return nil, err
	}
	ev.reg = reg
	tree := tools.NewTree()
	if err := tree.AddScope(o.explain.agent, tools.GlobalScope); err != nil {
		closeRemote()
		ev.close()
		return nil, err
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		closeRemote()
		ev.close()
		return nil, err
	}
	ev.host = host
	ev.close = func() { host.Close(); closeRemote(); fsys.Close() }
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err == nil {
		mo := o.explain.mountOptions()
		mo.SearchTool = true
		_, err = plugin.Mount(ctx, tools.GlobalScope, mo)
	}
	if err != nil {
		ev.close()
		return nil, err
	}
	return ev, nil
}

// gather reads the cases of every FILE or DIR of args, or, with none, of
// every skill of the library with an evals/ folder, each with its skill.
func (ev *evaluator) gather(ctx context.Context, args []string, stderr io.Writer) ([]fileCase, error) {
	if len(args) == 0 {
		local, _, err := ev.fsys.Skills(ctx, ev.o.explain.cwd)
		if err != nil {
			return nil, err
		}
		for _, s := range local {
			if st, err := os.Stat(filepath.Join(s.Dir, "evals")); err == nil && st.IsDir() {
				args = append(args, s.Dir)
			}
		}
		slices.Sort(args)
	}
	var out []fileCase
	for _, a := range args {
		files, err := evalFiles(a)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			cs, err := ev.readFile(f, stderr)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	return out, nil
}

// evalFiles are the trigger-eval files a FILE or DIR argument names: the
// file itself; the .json and .md files of a skill folder's evals/, or of
// a folder without a SKILL.md.
func evalFiles(arg string) ([]string, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{arg}, nil
	}
	dir := arg
	if _, err := os.Stat(filepath.Join(arg, "SKILL.md")); err == nil {
		dir = filepath.Join(arg, "evals")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read the eval files: %w", err)
	}
	var files []string
	for _, e := range entries {
		if ext := strings.ToLower(filepath.Ext(e.Name())); !e.IsDir() && (ext == ".json" || ext == ".md") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files, nil
}

// fileCase is a case and the file it came from.
type fileCase struct {
	triggereval.Case
	File string
}

// readFile reads one file's cases, each with its skill. A file without
// trigger cases (a README, output evals) is noted on stderr.
func (ev *evaluator) readFile(path string, stderr io.Writer) ([]fileCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, triggereval.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	cases, err := triggereval.ParseFile(path, data)
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		fmt.Fprintf(stderr, "skillcatalog eval: %s: no trigger cases; skipped\n", path)
	}
	folder := ""
	if d := filepath.Dir(path); filepath.Base(d) == "evals" {
		folder = filepath.Base(filepath.Dir(d))
	}
	out := make([]fileCase, len(cases))
	for i, c := range cases {
		c.Skill = cmp.Or(c.Skill, ev.o.skill, folder)
		if c.Skill == "" {
			return nil, fmt.Errorf("%s: the cases name no skill: give -skill NAME", path)
		}
		out[i] = fileCase{Case: c, File: path}
	}
	return out, nil
}

// Placements of a skill for a request.
const (
	placedCatalog  = "catalog"
	placedRelevant = "relevant"
	placedNowhere  = "nowhere"
)

// evalReport is what eval prints; -json prints it as is.
type evalReport struct {
	K       int          `json:"k"`
	Cases   []evalResult `json:"cases"`
	Passed  int          `json:"passed"`
	Failed  int          `json:"failed"`
	Unknown []string     `json:"unknownSkills,omitempty"`
}

// evalResult is one case's result.
type evalResult struct {
	File          string `json:"file"`
	Skill         string `json:"skill"`
	Request       string `json:"request"`
	ShouldTrigger bool   `json:"should_trigger"`
	// Placement is catalog, relevant, search@K or nowhere.
	Placement string `json:"placement"`
	// SearchRank is the skill's rank among skill_search's top K, 0 when
	// not among them.
	SearchRank int `json:"searchRank"`
	// OutrankedBy is the skill ranked first when it is not the case's:
	// the relevant-skills message's first, else the first search result.
	OutrankedBy string   `json:"outrankedBy,omitempty"`
	Relevant    []string `json:"relevant"`
	Pass        bool     `json:"pass"`
}

// run evaluates every case.
func (ev *evaluator) run(ctx context.Context, cases []fileCase) (evalReport, error) {
	report := evalReport{K: ev.o.k, Cases: []evalResult{}}
	full, err := ev.fullDescriptions(ctx)
	if err != nil {
		return report, err
	}
	known := make(map[string]bool)
	for n, c := range cases {
		r, err := ev.runCase(ctx, "eval-"+strconv.Itoa(n+1), c, full)
		if err != nil {
			return report, fmt.Errorf("%s: %q: %w", c.File, c.Request, err)
		}
		if _, ok := full[c.Skill]; !ok && !known[c.Skill] {
			known[c.Skill] = true
			report.Unknown = append(report.Unknown, c.Skill)
		}
		if r.Pass {
			report.Passed++
		} else {
			report.Failed++
		}
		report.Cases = append(report.Cases, r)
	}
	return report, nil
}

// fullDescriptions maps each skill of the agent's snapshot to the
// description the catalog lists in full (its when_to_use joined).
func (ev *evaluator) fullDescriptions(ctx context.Context) (map[string]string, error) {
	o := ev.o.explain
	snap, err := ev.reg.Snapshot(ctx, skills.Query{SessionID: "eval", Cwd: o.cwd, Chain: []string{o.agent, tools.GlobalScope}})
	if err != nil {
		return nil, err
	}
	full := make(map[string]string, len(snap.Skills))
	for _, s := range snap.Skills {
		full[s.Name] = render.NormalizeDescription(skill.ListedDescription(s), render.DefaultDescriptionMaxLength*1000)
	}
	return full, nil
}

// runCase runs one case's step and search in a session of its own.
func (ev *evaluator) runCase(ctx context.Context, session string, c fileCase, full map[string]string) (evalResult, error) {
	o := ev.o.explain
	defer ev.host.Session(session, nil).End(ctx)
	res, err := o.step(ctx, ev.host, session, c.Request)
	if err != nil {
		return evalResult{}, err
	}
	r := evalResult{File: c.File, Skill: c.Skill, Request: c.Request, ShouldTrigger: c.ShouldTrigger, Placement: placedNowhere,
		Relevant: relevantOf(c.Request, res).Skills}
	args, err := json.Marshal(map[string]any{"query": c.Request, "limit": ev.o.k})
	if err != nil {
		return evalResult{}, err
	}
	tr, err := ev.host.Session(session, &hostsdk.SessionOptions{Cwd: o.cwd, AgentScope: o.agent}).CallTool(ctx, hostsdk.ToolCall{Name: contract.SearchToolName, Arguments: args})
	if err != nil {
		return evalResult{}, err
	}
	if tr.IsError || tr.Search == nil {
		return evalResult{}, errors.New(tr.Text)
	}
	for i, h := range tr.Search.Hits {
		if h.Name == c.Skill {
			r.SearchRank = i + 1
			break
		}
	}
	inCatalog := false
	for _, m := range res.Decision.Messages {
		if es, ok := catalogRecord(m.Source); ok {
			inCatalog = slices.ContainsFunc(es, func(e catalogEntry) bool {
				return e.Name == c.Skill && e.Description != "" && e.Description == full[c.Skill]
			})
		}
	}
	inRelevant := slices.Contains(r.Relevant, c.Skill)
	switch {
	case inCatalog:
		r.Placement = placedCatalog
	case inRelevant:
		r.Placement = placedRelevant
	case r.SearchRank > 0:
		r.Placement = "search@" + strconv.Itoa(ev.o.k)
	}
	switch {
	case len(r.Relevant) > 0 && r.Relevant[0] != c.Skill:
		r.OutrankedBy = r.Relevant[0]
	case r.SearchRank != 1 && len(tr.Search.Hits) > 0 && !inRelevant:
		r.OutrankedBy = tr.Search.Hits[0].Name
	}
	if c.ShouldTrigger {
		r.Pass = r.Placement != placedNowhere
	} else {
		r.Pass = !inRelevant && r.SearchRank != 1
	}
	return r, nil
}

// printEvalTable prints a report for people: one row per case, then the
// totals.
func printEvalTable(w io.Writer, r evalReport) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RESULT\tSKILL\tTRIGGER\tPLACED\tRANK\tOUTRANKED BY\tREQUEST")
	for _, c := range r.Cases {
		result, trigger, rank := "FAIL", "no", "-"
		if c.Pass {
			result = "pass"
		}
		if c.ShouldTrigger {
			trigger = "yes"
		}
		if c.SearchRank > 0 {
			rank = strconv.Itoa(c.SearchRank)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", result, c.Skill, trigger, c.Placement, rank, cmp.Or(c.OutrankedBy, "-"), triggereval.OneLine(c.Request, 60))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d cases: %d passed, %d failed (search@%d).\n", len(r.Cases), r.Passed, r.Failed, r.K)
	if len(r.Unknown) > 0 {
		fmt.Fprintf(w, "Not in the library: %s.\n", strings.Join(r.Unknown, ", "))
	}
}
