package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// relevantOf reads, from a step given request, what its relevant-skills
// message holds, or why it added none.
func relevantOf(request string, res hostsdk.StepResult) *explainedRelevant {
	r := &explainedRelevant{Request: request, Skills: []string{}}
	for _, m := range res.Decision.Messages {
		if rec, ok := events.ParseRelevant(m.Source); ok {
			r.Skills, r.Message = rec.Names, m.Text()
			return r
		}
	}
	r.Reason = "no skill matches it well enough, or every one that does is described in full in the catalog"
	if res.Outcome == hostsdk.OutcomeIncomplete {
		r.Reason = "the skills could not all be read"
	}
	return r
}

// explainRequests runs, for every request of o.requests, a session's first
// step with that request, and prints the skills its relevant-skills
// message describes.
func explainRequests(ctx context.Context, o explainOptions, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "skillcatalog explain: %v\n", err)
		return 1
	}
	roots, err := o.resolvePaths()
	if err != nil {
		return fail(err)
	}
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: roots, HomeDir: o.home, Presets: o.presets,
		TrustProject: func(string) bool { return o.trustProject }})
	if err != nil {
		return fail(err)
	}
	defer fsys.Close()
	reg, closeRemote, err := o.registry(fsys)
	if err != nil {
		return fail(err)
	}
	defer closeRemote()
	tree := tools.NewTree()
	if err := tree.AddScope(o.agent, tools.GlobalScope); err != nil {
		return fail(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		return fail(err)
	}
	defer host.Close()
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		return fail(err)
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, o.mountOptions()); err != nil {
		return fail(err)
	}
	return forEachQuery("explain", o.requests, stdout, stderr, func(n int, id, query string) (any, error) {
		session := "explain-" + strconv.Itoa(n)
		res, err := o.step(ctx, host, session, query)
		if err != nil {
			return nil, err
		}
		host.Session(session, nil).End(ctx)
		return struct {
			ID       string   `json:"id"`
			Relevant []string `json:"relevant"`
		}{id, relevantOf(query, res).Skills}, nil
	})
}

// forEachQuery reads file (JSON lines {"id", "query"}; "-" is the standard
// input), calls do for each query with its line number and id, and prints
// what do returns as one JSON line. A line that is not such an object is
// reported on stderr and skipped; a query do fails is reported and
// printed nothing for, and fails the command (status 1) at the end.
func forEachQuery(command, file string, stdout, stderr io.Writer, do func(n int, id, query string) (any, error)) int {
	in := io.Reader(os.Stdin)
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "skillcatalog %s: %v\n", command, err)
			return 1
		}
		defer f.Close()
		in = f
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	code := 0
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var q struct {
			ID    string  `json:"id"`
			Query *string `json:"query"`
		}
		if err := json.Unmarshal([]byte(line), &q); err != nil || q.Query == nil {
			fmt.Fprintf(stderr, "skillcatalog %s: %s:%d: not a {\"id\", \"query\"} object; skipped\n", command, file, n)
			continue
		}
		v, err := do(n, q.ID, *q.Query)
		if err != nil {
			fmt.Fprintf(stderr, "skillcatalog %s: %s:%d: %v\n", command, file, n, err)
			code = 1
			continue
		}
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(stderr, "skillcatalog %s: %v\n", command, err)
			return 1
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "skillcatalog %s: %s: %v\n", command, file, err)
		return 1
	}
	return code
}
