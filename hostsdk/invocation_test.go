package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestUserInvocationOverTheProtocol drives user invocation through the real
// plugin binary over go-plugin and through the in-process plugin, and
// requires both to give the runtime the same messages, errors and durable
// records: the direct-input flag and the user-invocation load cross the
// process boundary, a skill the model may not invoke reaches it only this
// way, and a provider failure is a HostError that adds nothing.
func TestUserInvocationOverTheProtocol(t *testing.T) {
	type run struct {
		Steps  [][]hostsdk.Message
		Errs   []string
		Tool   hostsdk.ToolResult
		Loads  []string
		Events []sessionlog.Event
	}
	session := func(opts *hostsdk.LoadOptions) run {
		tree := tools.NewTree()
		reg := skilltest.NewRegistry(t)
		store := sessionlog.NewMemoryStore()
		host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		defer host.Close()
		ctx := context.Background()
		p, err := host.Load(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.MountJSON(ctx, tools.GlobalScope, `{"userInvocation": true}`); err != nil {
			t.Fatal(err)
		}
		userOnly := skill.InvocationPolicy{UserInvocable: true}
		modelOnly := skill.InvocationPolicy{ModelInvocable: true}
		reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "First.", Content: "Alpha body."})
		reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "deploy", Description: "Deploys.", Invocation: &userOnly, Content: "Deploy body.",
			ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/skills/deploy"}})
		reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "lint", Description: "Lints.", Invocation: &modelOnly, Content: "Lint body."})
		remote := skilltest.New(&skilltest.Options{Label: "mcp"})
		remote.SetSkills(skilltest.Skill{Summary: skill.Summary{Name: "broken", Description: "Fails to load.", Invocation: skill.DefaultPolicy()},
			LoadErr: errors.New("remote server unreachable")})
		reg.AddProvider(tools.GlobalScope, remote, nil)

		var r run
		step := func(msgs ...hostsdk.Message) {
			res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{Messages: msgs}, nil)
			if err != nil {
				var herr *hostsdk.HostError
				if !errors.As(err, &herr) || res.Outcome != hostsdk.OutcomePluginError {
					t.Fatalf("PreStep: %v (%T), outcome %s; want a HostError and the plugin-error outcome", err, err, res.Outcome)
				}
				r.Errs = append(r.Errs, "host error")
			}
			r.Steps = append(r.Steps, res.Decision.Messages)
		}
		typed := func(id, text string) hostsdk.Message {
			return hostsdk.Message{ID: id, Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{{Type: "text", Text: text}}}
		}
		step(typed("u1", "/deploy, then /deploy /lint /alpha /deploy /nope"))
		if _, err := host.Session("s1", nil).Append(ctx, hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{{Type: "text", Text: "/alpha"}}}); err != nil {
			t.Fatal(err)
		}
		step() // a later step of the same turn
		step(typed("u2", "/alpha /broken"))
		r.Tool, err = host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: tools.GlobalScope}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"deploy"}`)})
		if err != nil {
			t.Fatal(err)
		}
		r.Loads = remote.Loads()
		log, err := store.Open(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		defer log.Close()
		page, err := log.ReadBackward(ctx, 0, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		r.Events = page.Events
		return r
	}

	proc := session(&hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	inproc := session(&hostsdk.LoadOptions{InProcess: true})
	if diff := cmp.Diff(proc, inproc); diff != "" {
		t.Errorf("the plugin binary and the in-process plugin differ (-binary +in-process):\n%s", diff)
	}

	first := proc.Steps[0]
	var ids, texts []string
	for _, m := range first {
		ids = append(ids, m.ID)
		texts = append(texts, m.Text())
	}
	if len(first) != 4 || ids[0] != "u1" || !strings.HasPrefix(ids[1], "skill-catalog-s1-0-") || ids[2] != "skill-invocation-s1-0-deploy" || ids[3] != "skill-invocation-s1-0-alpha" {
		t.Fatalf("first step's messages %q, want the user's, the catalog, then deploy and alpha", ids)
	}
	if !strings.Contains(texts[1], "-`alpha`: First.\n-`broken`: Fails to load.\n-`lint`: Lints.\n</available_skills>") || strings.Contains(texts[1], "deploy") {
		t.Errorf("catalog lists what the model may invoke only:\n%s", texts[1])
	}
	if !strings.HasSuffix(texts[1], "do not load that skill again with the `skill` tool.\n</system-reminder>") {
		t.Errorf("catalog lacks the user-invocation sentence:\n%s", texts[1])
	}
	wantDeploy := "<skill_content name=\"deploy\">\n<skill_resources>\nResource base directory: /skills/deploy\n"
	if !strings.HasPrefix(texts[2], wantDeploy) || !strings.HasSuffix(texts[2], "<skill_instructions>\nDeploy body.\n</skill_instructions>\n</skill_content>") {
		t.Errorf("deploy's injected text:\n%s", texts[2])
	}
	if !first[0].UserInput || first[2].UserInput || string(first[2].Source) != `{"kind":"skill-invocation","name":"deploy","digest":"`+events.ContentDigest("Deploy body.")+`"}` {
		t.Errorf("flags and sources: user %v, injected %v %s", first[0].UserInput, first[2].UserInput, first[2].Source)
	}
	if len(proc.Steps[1]) != 0 {
		t.Errorf("a later step of the same turn added %d message(s)", len(proc.Steps[1]))
	}
	if len(proc.Errs) != 1 || len(proc.Steps[2]) != 1 || proc.Steps[2][0].ID != "u2" {
		t.Errorf("the step whose invoked skill failed to load: errors %q, messages %+v; want one HostError and the downstream message alone", proc.Errs, proc.Steps[2])
	}
	if !proc.Tool.IsError || proc.Tool.Text != `Error: skill "deploy" is not available for model invocation` {
		t.Errorf("the tool still refuses a skill the model may not invoke: %+v", proc.Tool)
	}
	if diff := cmp.Diff([]string{"broken"}, proc.Loads); diff != "" {
		t.Errorf("provider loads (-want +got):\n%s", diff)
	}
	// The user's message, the catalog, two skills and the assistant's reply;
	// then the failed step's own message, which the step appended failing
	// open, and nothing of the plugin's.
	if len(proc.Events) != 6 {
		t.Fatalf("session log has %d events, want 6", len(proc.Events))
	}
	if last := proc.Events[0]; !strings.Contains(string(last.Body), `"id":"u2"`) || last.Source != nil {
		t.Errorf("the failed step's append = %s, source %s; want the user's message u2 alone", last.Body, last.Source)
	}
}
