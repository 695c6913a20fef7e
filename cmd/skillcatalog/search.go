package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

const searchUsage = `Usage: skillcatalog search -skills DIR [flags] QUERY
       skillcatalog search -skills DIR -queries FILE [-k N] [-json]

Searches skills as the plugin's skill_search tool does, for what a request
needs: the plugin's engine runs in this process on the given skill
directories and answers the tool's call. The ranking is the tool's, byte
for byte (BM25F over each skill's name, keywords, description and
when_to_use and the start of its instructions, with a bonus for the
trigger phrases a description names).

With a QUERY it prints the best matches, best first: rank, score, name and
full description; with -json, the tool's value {"query", "hits": [{"name",
"description", "origin", "score"}]}.

With -queries it reads FILE (JSON lines, each {"id": "...", "query": "..."};
"-" is the standard input) and prints one JSON line per query:
{"id": "...", "results": [{"name": "...", "score": ...}]}. A line that is not
such an object, or a query the tool refuses, is reported on the standard
error and skipped (the second makes the exit status 1).

Skill directories are read as explain reads them (-skills, -home, -cwd,
-preset, -trust-project).

Flags:
`

type searchOptions struct {
	skillsDirs   stringsFlag
	home         string
	cwd          string
	agent        string
	presets      presetFlags
	trustProject bool
	json         bool
	queries      string
	k            int
}

func searchCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("search", flag.ContinueOnError)
	var o searchOptions
	fl.Var(&o.skillsDirs, "skills", "a skill root `DIR` (one subdirectory per skill, or one skill's own folder), user-level and trusted (repeatable)")
	fl.StringVar(&o.home, "home", "", "the home `DIR` whose .agents/skills (and preset directories) are user-level roots (default: your home directory)")
	fl.StringVar(&o.cwd, "cwd", "", "the session's working `DIR`, where project skills are looked for (default: the current directory)")
	fl.StringVar(&o.agent, "agent", "agent:search", "the calling agent's `SCOPE`")
	fl.Var(&o.presets, "preset", "also scan and load as the `LAYOUT` does ("+presetNames()+"; repeatable)")
	fl.BoolVar(&o.trustProject, "trust-project", false, "trust the project of -cwd, so its skills load")
	fl.BoolVar(&o.json, "json", false, "print JSON")
	fl.StringVar(&o.queries, "queries", "", "read the queries from `FILE` (JSON lines {\"id\", \"query\"}; - for the standard input)")
	fl.IntVar(&o.k, "k", render.DefaultSearchLimit, fmt.Sprintf("the most skills to return for each query, 1 to %d", render.MaxSearchLimit))
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), searchUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if o.k < 1 || o.k > render.MaxSearchLimit {
		return usageError(fl, stderr, "-k must be from 1 to %d, got %d", render.MaxSearchLimit, o.k)
	}
	switch {
	case o.queries == "" && fl.NArg() != 1:
		return usageError(fl, stderr, "give one QUERY, or -queries FILE")
	case o.queries != "" && fl.NArg() > 0:
		return usageError(fl, stderr, "give -queries FILE or a QUERY, not both")
	}
	s, err := newSearcher(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog search: %v\n", err)
		return 1
	}
	defer s.close()
	if o.queries != "" {
		return s.batch(ctx, o, stdout, stderr)
	}
	res, err := s.search(ctx, fl.Arg(0), o.k)
	return report(stdout, stderr, "search", res, err, o.json, printSearch)
}

// searcher is a host with the plugin in process, mounted with the
// skill-search tool over the skill directories a search names.
type searcher struct {
	host  *hostsdk.Host
	fsys  *agentskills.Provider
	cwd   string
	agent string
}

func newSearcher(ctx context.Context, o searchOptions) (*searcher, error) {
	eo := explainOptions{skillsDirs: o.skillsDirs, home: o.home, cwd: o.cwd}
	roots, err := eo.resolvePaths()
	if err != nil {
		return nil, err
	}
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: roots, HomeDir: eo.home, Presets: o.presets,
		TrustProject: func(string) bool { return o.trustProject }})
	if err != nil {
		return nil, err
	}
	s := &searcher{fsys: fsys, cwd: eo.cwd, agent: o.agent}
	if err := s.start(ctx); err != nil {
		fsys.Close()
		return nil, err
	}
	return s, nil
}

// start builds the host and mounts the plugin with the search tool.
func (s *searcher) start(ctx context.Context) error {
	reg, _, err := explainOptions{}.registry(s.fsys) // no remote source to close
	if err != nil {
		return err
	}
	tree := tools.NewTree()
	if err := tree.AddScope(s.agent, tools.GlobalScope); err != nil {
		return err
	}
	if s.host, err = hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()}); err != nil {
		return err
	}
	plugin, err := s.host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err == nil {
		_, err = plugin.Mount(ctx, tools.GlobalScope, &hostsdk.MountOptions{SearchTool: true, RelevantSkills: contract.RelevantOff})
	}
	return err
}

func (s *searcher) close() {
	if s.host != nil {
		s.host.Close()
	}
	s.fsys.Close()
}

// search calls the skill-search tool with query and limit k.
func (s *searcher) search(ctx context.Context, query string, k int) (*skill.SearchResult, error) {
	args, err := json.Marshal(map[string]any{"query": query, "limit": k})
	if err != nil {
		return nil, err
	}
	res, err := s.host.Session("search", &hostsdk.SessionOptions{Cwd: s.cwd, AgentScope: s.agent}).CallTool(ctx, hostsdk.ToolCall{Name: contract.SearchToolName, Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, errors.New(res.Text)
	}
	return res.Search, nil
}

// batchResult is one line of a batch search's output.
type batchResult struct {
	ID      string         `json:"id"`
	Results []batchResult1 `json:"results"`
}

type batchResult1 struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// batch runs every query of o.queries and prints a line for each.
func (s *searcher) batch(ctx context.Context, o searchOptions, stdout, stderr io.Writer) int {
	return forEachQuery("search", o.queries, stdout, stderr, func(_ int, id, query string) (any, error) {
		res, err := s.search(ctx, query, o.k)
		if err != nil {
			return nil, err
		}
		out := batchResult{ID: id, Results: []batchResult1{}}
		for _, h := range res.Hits {
			out.Results = append(out.Results, batchResult1{Name: h.Name, Score: h.Score})
		}
		return out, nil
	})
}

// printSearch prints a search's hits for people.
func printSearch(w io.Writer, res *skill.SearchResult) {
	if len(res.Hits) == 0 {
		fmt.Fprintf(w, "No skill matches %q.\n", res.Query)
		return
	}
	for i, h := range res.Hits {
		origin := ""
		if h.Origin != "" {
			origin = " (" + h.Origin + ")"
		}
		fmt.Fprintf(w, "%d. %s%s  score %.3f\n   %s\n", i+1, h.Name, origin, h.Score, h.Description)
	}
}
