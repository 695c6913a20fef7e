// Command cachereport measures what a provider's prompt cache makes of the
// requests a model sees when it is given skills: this project's adapters
// (hostsdk/modelapi for Anthropic's and OpenAI's APIs, hostsdk/eino for an
// Eino agent, hostsdk/genkit for Genkit's generate loop) beside the two
// ways agent frameworks commonly give a model its skills (the catalog in
// the skill tool's description, or in the system prompt, rebuilt before
// every call), on the same scripted
// conversation: 15 turns of two model calls (the model loads a skill,
// then answers), with a skill added, a description edited and a skill
// removed on disk in between.
//
// Every row runs the real thing (the plugin in process over real skill
// files in a temporary directory; the official SDK clients) against a
// loopback server that plays the model API and records the request bodies,
// and measures them with package measure. It prints a Markdown table:
//
//	cd hostsdk/cachereport && go run .
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
)

func main() {
	results, err := run(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "cachereport:", err)
		os.Exit(1)
	}
	fmt.Print(report(results))
}

// row is one line of the table: a way of giving a model its skills,
// measured on the conversation's requests to one model API.
type row struct {
	name string
	api  modelAPI
	// run runs the conversation over the skills in dir/skills, sending
	// every model call with send.
	run func(ctx context.Context, dir string, send sendFunc) error
	// ours marks this project's adapters; the other rows are the
	// alternatives.
	ours bool
}

// rows returns the table's rows, in its order. An adapter of this project
// adds its row here, with a run function that drives the conversation
// through it (as einoConversed does through an Eino agent, genkitConversed
// through Genkit) and sends each model call with the send it is given.
func rows() []row {
	messages, chat, responses := anthropicMessages(), chatCompletions(), responsesAPI()
	return []row{
		{name: "skillcatalog, hostsdk/modelapi", api: messages, run: withWay(newOurs), ours: true},
		{name: "skillcatalog, hostsdk/modelapi", api: chat, run: withWay(newOurs), ours: true},
		{name: "skillcatalog, hostsdk/modelapi", api: responses, run: withWay(newOurs), ours: true},
		{name: "skillcatalog, hostsdk/eino (Eino ADK agent)", api: chat, run: einoConversed, ours: true},
		{name: "skillcatalog, hostsdk/genkit (Genkit flow)", api: chat, run: genkitConversed, ours: true},
		{name: "catalog in the skill tool's description", api: messages, run: withWay(newAlternative(inToolDescription))},
		{name: "catalog in the skill tool's description", api: chat, run: withWay(newAlternative(inToolDescription))},
		{name: "catalog in the system prompt, rebuilt each call", api: messages, run: withWay(newAlternative(inSystemPrompt))},
		{name: "catalog in the system prompt, rebuilt each call", api: chat, run: withWay(newAlternative(inSystemPrompt))},
	}
}

// withWay runs the conversation with the way open makes.
func withWay(open func(ctx context.Context, dir string) (way, error)) func(context.Context, string, sendFunc) error {
	return func(ctx context.Context, dir string, send sendFunc) error {
		w, err := open(ctx, dir)
		if err != nil {
			return err
		}
		defer w.close()
		return conversed(ctx, dir, w, send)
	}
}

func newAlternative(where string) func(context.Context, string) (way, error) {
	return func(_ context.Context, dir string) (way, error) { return &alternative{dir: dir, where: where}, nil }
}

// result is a row and what its requests measured.
type result struct {
	row
	measure.Result
}

// run measures every row, one after the other.
func run(ctx context.Context) ([]result, error) {
	var out []result
	for _, r := range rows() {
		m, err := measureRow(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", r.name, r.api.name, err)
		}
		out = append(out, result{row: r, Result: m})
	}
	return out, nil
}

// measureRow runs one row's conversation in a workspace of its own against
// a recorder that answers as the row's API, and measures the requests.
func measureRow(ctx context.Context, r row) (measure.Result, error) {
	dir, err := workspace()
	if err != nil {
		return measure.Result{}, err
	}
	defer os.RemoveAll(dir)
	turns := conversation()
	var responses []string
	for i, rep := range replies(turns) {
		responses = append(responses, r.api.respond(i+1, rep))
	}
	rec := newRecorder(responses)
	defer rec.srv.Close()
	if err := r.run(ctx, dir, r.api.connect(rec.srv.URL)); err != nil {
		return measure.Result{}, err
	}
	prompts, err := rec.prompts(r.api.prompt)
	if err != nil {
		return measure.Result{}, err
	}
	if len(prompts) != len(responses) {
		return measure.Result{}, fmt.Errorf("%d model calls, want %d", len(prompts), len(responses))
	}
	return measure.Measure(prompts, r.api.rule), nil
}
