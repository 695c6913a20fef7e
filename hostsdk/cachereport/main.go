// Command cachereport measures what a provider's prompt cache makes of the
// requests a model sees when it is given skills, and what they cost: this
// project's adapters (hostsdk/modelapi for Anthropic's and OpenAI's APIs,
// hostsdk/eino for an Eino agent, hostsdk/genkit for Genkit's generate
// loop) beside the two ways agent frameworks commonly give a model its
// skills (the catalog in the skill tool's description, or in the system
// prompt, rebuilt before every call), on the same scripted conversations:
// a short one (15 turns of two model calls, the model loads a skill, then
// answers; a skill added, a description edited and a skill removed on disk
// in between), and a long one that grows past 100,000 tokens over a
// library of 120 skills, whose catalog is over its budget, with two
// changes of skills.
//
// Every row runs the real thing (the plugin in process over real skill
// files in a temporary directory; the official SDK clients) against a
// loopback server that plays the model API and records the request bodies,
// and measures them with package measure. It prints Markdown tables: what
// the cache reads, the bill at the providers' published prices, and where
// the input and the bill go, part by part:
//
//	cd hostsdk/cachereport && go run .
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

func main() {
	results, err := run(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "cachereport:", err)
		os.Exit(1)
	}
	fmt.Print(report(results))
}

// row is one line of a table: a way of giving a model its skills,
// measured on a conversation's requests to one model API.
type row struct {
	name string
	api  modelAPI
	// run runs the scenario's conversation over the skills in dir/skills,
	// sending every model call with send.
	run func(ctx context.Context, sc *scenario, dir string, send sendFunc) error
	// ours marks this project's adapters; the other rows are the
	// alternatives.
	ours bool
	// mount is what this project's rows mount the plugin with.
	mount hostsdk.MountOptions
}

// The names of this project's rows, and what a row's name adds when it
// mounts the plugin otherwise.
const (
	nameModelAPI = "skillcatalog, hostsdk/modelapi"
	nameEino     = "skillcatalog, hostsdk/eino (Eino ADK agent)"
	nameGenkit   = "skillcatalog, hostsdk/genkit (Genkit flow)"
	// withoutRelevant names a row mounted with relevantSkills "off".
	withoutRelevant = ", relevant skills off"
	// asOpenMounts names a row mounted as hostsdk.Open mounts the plugin:
	// the skill_resource tool and `/name` on.
	asOpenMounts = ", with skill_resource and /name (hostsdk.Open's mount)"
)

// rows returns a scenario's rows, in the table's order: this project's
// adapters with the plugin mounted with the skill tool alone, as the
// alternatives offer it (relevantSkills "auto", the default budget); over
// a library whose catalog is over its budget, the same without the
// relevant-skills message; the plugin as hostsdk.Open mounts it; then the
// alternatives. An adapter of this project adds its rows here, with a run
// function that drives the conversation through it (as einoConversed does
// through an Eino agent, genkitConversed through Genkit) and sends each
// model call with the send it is given.
func rows(sc *scenario) []row {
	messages, chat, responses := anthropicMessages(), chatCompletions(), responsesAPI()
	plain, off := hostsdk.MountOptions{}, hostsdk.MountOptions{RelevantSkills: contract.RelevantOff}
	open := hostsdk.MountOptions{ResourceTool: true, UserInvocation: true}
	var out []row
	for _, m := range []struct {
		suffix string
		mount  hostsdk.MountOptions
	}{{"", plain}, {withoutRelevant, off}} {
		if m.suffix == withoutRelevant && !sc.overBudget {
			continue // "auto" adds no relevant-skills message within the budget
		}
		out = append(out,
			row{name: nameModelAPI + m.suffix, api: messages, run: withWay(newOurs(m.mount)), ours: true, mount: m.mount},
			row{name: nameModelAPI + m.suffix, api: chat, run: withWay(newOurs(m.mount)), ours: true, mount: m.mount},
			row{name: nameModelAPI + m.suffix, api: responses, run: withWay(newOurs(m.mount)), ours: true, mount: m.mount},
			row{name: nameEino + m.suffix, api: chat, run: einoConversed(m.mount), ours: true, mount: m.mount},
			row{name: nameGenkit + m.suffix, api: chat, run: genkitConversed(m.mount), ours: true, mount: m.mount},
		)
	}
	return append(out,
		row{name: nameModelAPI + asOpenMounts, api: messages, run: withWay(newOurs(open)), ours: true, mount: open},
		row{name: nameModelAPI + asOpenMounts, api: chat, run: withWay(newOurs(open)), ours: true, mount: open},
		row{name: altTool, api: messages, run: withWay(newAlternative(inToolDescription))},
		row{name: altTool, api: chat, run: withWay(newAlternative(inToolDescription))},
		row{name: altTool, api: responses, run: withWay(newAlternative(inToolDescription))},
		row{name: altSystem, api: messages, run: withWay(newAlternative(inSystemPrompt))},
		row{name: altSystem, api: chat, run: withWay(newAlternative(inSystemPrompt))},
		row{name: altSystem, api: responses, run: withWay(newAlternative(inSystemPrompt))},
	)
}

// The names of the alternatives' rows.
const (
	altTool   = "catalog in the skill tool's description"
	altSystem = "catalog in the system prompt, rebuilt each call"
)

// scenarios returns the scenarios the report runs, in its order.
func scenarios() []*scenario { return []*scenario{shortScenario(), longScenario()} }

// withWay runs the conversation with the way open makes.
func withWay(open func(ctx context.Context, dir string) (way, error)) func(context.Context, *scenario, string, sendFunc) error {
	return func(ctx context.Context, sc *scenario, dir string, send sendFunc) error {
		w, err := open(ctx, dir)
		if err != nil {
			return err
		}
		defer w.close()
		return conversed(ctx, sc, dir, w, send)
	}
}

func newAlternative(where string) func(context.Context, string) (way, error) {
	return func(_ context.Context, dir string) (way, error) { return &alternative{dir: dir, where: where}, nil }
}

// result is a row of a scenario and what its requests measured.
type result struct {
	row
	sc *scenario
	measure.Result
	// suggested holds, for each request, the skills the relevant-skills
	// message it adds names, if it adds one.
	suggested [][]string
	// outputSchemas counts the requests that carry an output schema of
	// the plugin's tools.
	outputSchemas int
}

// run measures every row of every scenario, one after the other.
func run(ctx context.Context) ([]result, error) {
	var out []result
	for _, sc := range scenarios() {
		for _, r := range rows(sc) {
			res, err := measureRow(ctx, sc, r)
			if err != nil {
				return nil, fmt.Errorf("%s scenario: %s, %s: %w", sc.name, r.name, r.api.name, err)
			}
			out = append(out, res)
		}
	}
	return out, nil
}

// measureRow runs a scenario's conversation through one row in a
// workspace of its own against a recorder that answers as the row's API,
// and measures the requests, part by part.
func measureRow(ctx context.Context, sc *scenario, r row) (result, error) {
	dir, err := sc.workspace()
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	var responses []string
	for i, rep := range replies(sc.turns) {
		responses = append(responses, r.api.respond(i+1, rep))
	}
	rec := newRecorder(responses)
	defer rec.srv.Close()
	if err := r.run(ctx, sc, dir, r.api.connect(rec.srv.URL)); err != nil {
		return result{}, err
	}
	prompts, err := rec.prompts(r.api.prompt)
	if err != nil {
		return result{}, err
	}
	if len(prompts) != len(responses) {
		return result{}, fmt.Errorf("%d model calls, want %d", len(prompts), len(responses))
	}
	res := result{row: r, sc: sc, suggested: make([][]string, len(prompts))}
	l, schemas := newLabeler(sc), encodings(outputSchemaTexts())
	spans := make([][]measure.Span, len(prompts))
	var prev modelapi.Prompt
	for i, p := range prompts {
		spans[i] = l.spans(p)
		res.suggested[i] = relevantNames(prev, p)
		if toolsHold(p, schemas) {
			res.outputSchemas++
		}
		prev = p
	}
	res.Result = measure.MeasureParts(prompts, spans, r.api.rule)
	return res, nil
}
