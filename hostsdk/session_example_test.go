package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// exampleHost is a host with two skills, the plugin in process and mounted
// globally, sessions in memory: what the examples of a session need.
func exampleHost(ctx context.Context) *hostsdk.Host {
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []skills.RuntimeSkill{
		{Name: "code-review", Description: "Review a change.", Content: "Read the diff twice."},
		{Name: "release-notes", Description: "Write release notes.", Content: "List what users notice."},
	} {
		if err := registry.Register(tools.GlobalScope, s); err != nil {
			log.Fatal(err)
		}
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: registry, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		log.Fatal(err)
	}
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, nil); err != nil {
		log.Fatal(err)
	}
	return host
}

// firstLine is the first line of a message's text.
func firstLine(m hostsdk.Message) string {
	line, _, _ := strings.Cut(m.Text(), "\n")
	return line
}

// A session's handle is where its operations go; handles are cheap, and
// two of one session share its state: what one step published, a step
// through another handle does not publish again.
func ExampleHost_Session() {
	ctx := context.Background()
	host := exampleHost(ctx)
	defer host.Close()

	session := host.Session("session-1", &hostsdk.SessionOptions{Cwd: "/src/project"})
	fmt.Println(session.ID(), session.Cwd(), session.AgentScope())
	first, err := session.Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	again, err := host.Session("session-1", &hostsdk.SessionOptions{Cwd: "/src/project"}).Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(first.Outcome, again.Outcome)
	// Output:
	// session-1 /src/project global
	// initial unchanged
}

// A runtime that keeps its transcript in the session log proposes the
// user's message to the step, sends the model what the step decided, and
// appends the model's reply; StepOptions numbers the step for telemetry.
func ExampleSession_Step() {
	ctx := context.Background()
	host := exampleHost(ctx)
	defer host.Close()
	session := host.Session("session-1", nil)

	user := hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, UserInput: true,
		Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Review my change.")}}
	res, err := session.Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{user}}, &hostsdk.StepOptions{Turn: 1, Step: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Outcome, len(res.Appended), "messages appended")
	for _, m := range res.Decision.Messages {
		fmt.Printf("%s, plugin %v: %s\n", m.Role, hostsdk.IsPluginMessage(m), firstLine(m))
	}
	reply := hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Looking.")}}
	if _, err := session.Append(ctx, reply); err != nil {
		log.Fatal(err)
	}
	entries, err := session.Transcript(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(entries), "messages in the transcript")
	// Output:
	// initial 2 messages appended
	// user, plugin false: Review my change.
	// user, plugin true: <system-reminder>
	// 3 messages in the transcript
}

// A framework that owns the history hands it to Sync at every model call
// and sends the View: the history with the plugin's catalog spliced in.
// The same history sent again changes nothing.
func ExampleSession_Sync() {
	ctx := context.Background()
	host := exampleHost(ctx)
	defer host.Close()
	session := host.Session("session-1", nil)

	history := []hostsdk.Message{{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Write the release notes.")}}}
	res, err := session.Sync(ctx, history)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Outcome)
	for _, v := range res.View {
		fmt.Printf("plugin %v, history index %d: %s\n", v.Plugin, v.HistoryIndex, firstLine(v.Message))
	}
	again, err := session.Sync(ctx, history)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(again.Outcome, len(again.View))
	// Output:
	// initial
	// plugin false, history index 0: Write the release notes.
	// plugin true, history index -1: <system-reminder>
	// unchanged 2
}

// The model's call of the `skill` tool goes to the plugin through the
// session; a tool that is not the plugin's is the runtime's to run.
func ExampleSession_CallTool() {
	ctx := context.Background()
	host := exampleHost(ctx)
	defer host.Close()
	session := host.Session("session-1", nil)
	if _, err := session.Step(ctx, hostsdk.Decision{}, nil); err != nil {
		log.Fatal(err)
	}
	for _, t := range session.Tools() {
		fmt.Println("offer:", t.Name)
	}

	res, err := session.CallTool(ctx, hostsdk.ToolCall{CallID: "call-1", Name: "skill", Arguments: json.RawMessage(`{"name":"code-review"}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, res.Value.Content)
	_, err = session.CallTool(ctx, hostsdk.ToolCall{CallID: "call-2", Name: "shell", Arguments: json.RawMessage(`{}`)})
	var notPlugins *hostsdk.ToolNotFoundError
	fmt.Println(errors.As(err, &notPlugins))
	// Output:
	// offer: skill
	// false Read the diff twice.
	// true
}
