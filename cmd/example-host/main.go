// Command example-host is a minimal agent runtime that embeds the
// skill-catalog plugin: it loads the plugin binary, offers the model the
// `skill` tool, feeds the messages the plugin adds into the conversation,
// runs the tool calls, pre-approves the tools a loaded skill asks for, and
// records a context compaction. A scripted stand-in plays the model. The host SDK's README (hostsdk/README.md) shows this file
// as it is.
//
//	go build -o bin/ ./cmd/skillcatalog-plugin ./cmd/example-host
//	bin/example-host -plugin bin/skillcatalog-plugin -skills testdata/skills
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

const (
	agent   = "agent:reviewer" // one agent's composition, below the global scope
	session = "session-1"
)

func main() {
	pluginPath := flag.String("plugin", "bin/skillcatalog-plugin", "the plugin binary")
	skillsDir := flag.String("skills", "testdata/skills", "a directory of Agent Skills, one subdirectory per skill")
	sessionDir := flag.String("sessions", "", "keep session logs in this directory (default: a temporary one)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *pluginPath, *skillsDir, *sessionDir); err != nil {
		fmt.Fprintln(os.Stderr, "example-host:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, pluginPath, skillsDir, sessionDir string) error {
	// Scopes, and the tools registered into them.
	tree := tools.NewTree()
	if err := tree.AddScope(agent, tools.GlobalScope); err != nil {
		return err
	}

	// Skills: one the runtime defines itself, and Agent Skills on disk.
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		return err
	}
	if err := registry.Register(tools.GlobalScope, skills.RuntimeSkill{
		Name: "code-review", Description: "Review a change for correctness.", Content: "Read the diff twice.",
		// It asks that these tools run without approval while it is active,
		// and that WebFetch not be used.
		Directives: &skill.Directives{AllowedTools: []string{"Bash(git diff *)", "Read"}, DisallowedTools: []string{"WebFetch"}},
	}); err != nil {
		return err
	}
	root, err := filepath.Abs(skillsDir)
	if err != nil {
		return err
	}
	disk, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root}, Watch: true})
	if err != nil {
		return err
	}
	defer disk.Close()
	registry.AddProvider(tools.GlobalScope, disk, nil)

	// The session log is the runtime's durable transcript.
	if sessionDir == "" {
		if sessionDir, err = os.MkdirTemp("", "example-host-"); err != nil {
			return err
		}
		defer os.RemoveAll(sessionDir)
	}
	store, err := sessionlog.NewFileStore(sessionDir, nil)
	if err != nil {
		return err
	}

	// ToolGrantsEnforce: while a skill is active in the turn, the tools its
	// disallowed-tools name are not offered, and a call of one is refused
	// (Session.OfferedTools, Session.CheckToolCall).
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: registry, Sessions: store, ToolGrants: hostsdk.ToolGrantsEnforce})
	if err != nil {
		return err
	}
	defer host.Close()
	// This runtime acts on what a trusted skill asks for in allowed-tools
	// (see preApprove), not on a fork or a model: the text of a skill that
	// asks for those says so.
	host.HandleDirectives(func(context.Context, hostsdk.DirectiveRequest) skill.DirectiveSet {
		return skill.DirectiveAllowedTools
	})
	// In production, also pass the binary's SHA-256 as pluginproc.Binary.Checksum.
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		return err
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, &hostsdk.MountOptions{DescriptionMaxLength: 300}); err != nil {
		return err
	}
	// The session's handle: its steps, tool calls and transcript go through
	// it. The tools this agent sees: the plugin's `skill` tool is among them.
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	s := host.Session(session, &hostsdk.SessionOptions{Cwd: cwd, AgentScope: agent})
	if err := converse(ctx, s, s.Tools()); err != nil {
		return err
	}
	return compact(ctx, s)
}

// compact compacts the session's context as a runtime would: everything
// so far is replaced by a summary. Recording it lets the plugin see that
// the catalog is gone.
func compact(ctx context.Context, s *hostsdk.Session) error {
	logged, err := s.Transcript(ctx)
	if err != nil {
		return err
	}
	summary := text("s1", hostsdk.RoleUser, "Summary: the change in main.go was reviewed with the code-review skill.")
	if _, err := s.RecordCompaction(ctx, hostsdk.Compaction{
		Hide: sessionlog.Range{From: 1, To: logged[len(logged)-1].Seq}, Summary: &summary}); err != nil {
		return err
	}
	conversation := []hostsdk.Message{summary}
	res, err := s.Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		return err
	}
	conversation = append(conversation, res.Decision.Messages...)
	fmt.Printf("after compaction: %s, %d messages in the conversation\n", res.Outcome, len(conversation))
	return nil
}

// converse runs the model's steps of one turn until it answers, offering it
// the tools in offered.
func converse(ctx context.Context, s *hostsdk.Session, offered []hostsdk.ToolDefinition) error {
	var conversation []hostsdk.Message // what the model is sent, in order
	var approved []string              // tools that need no approval until the turn ends
	input := []hostsdk.Message{text("u1", hostsdk.RoleUser, "Please review the change in main.go.")}
	for step := 1; step <= 3; step++ {
		// The step's new input goes in as the downstream decision; the step
		// appends it to the log with whatever the plugin adds.
		res, err := s.Step(ctx, hostsdk.Decision{Messages: input}, nil)
		var pluginErr *hostsdk.PluginError
		var hostErr *hostsdk.HostError
		switch {
		case errors.As(err, &pluginErr), errors.As(err, &hostErr):
			// The plugin, or a provider or store it needed, failed: the step
			// proceeds without the plugin, and its input is logged as it is.
			fmt.Fprintln(os.Stderr, "example-host: skill catalog skipped:", err)
		case err != nil:
			return err
		}
		if res.Decision.Reject != nil {
			return fmt.Errorf("step %d rejected: %s", step, res.Decision.Reject.Reason)
		}
		conversation = append(conversation, res.Decision.Messages...)
		fmt.Printf("step %d: %s, %d messages in the conversation\n", step, res.Outcome, len(conversation))
		for _, inv := range res.Invocations { // skills the user invoked by name
			approved = preApprove(approved, inv.Directives)
		}

		fmt.Printf("tools offered: %s\n", strings.Join(s.OfferedTools(toolNames(offered)), ", "))
		call, answer := model(conversation, offered)
		if call == nil {
			reply := text(fmt.Sprintf("a%d", step), hostsdk.RoleAssistant, answer)
			if _, err := s.Append(ctx, reply); err != nil {
				return err
			}
			conversation = append(conversation, reply)
			fmt.Printf("model: %s\n", answer)
			break
		}
		out, err := callTool(ctx, s, fmt.Sprintf("call-%d", step), call)
		if err != nil {
			return err
		}
		first, _, _ := strings.Cut(out.Text, "\n")
		fmt.Printf("model called %s %s: %s (error %v)\n", call.name, call.arguments, first, out.IsError)
		approved = preApprove(approved, out.Directives)
		input = []hostsdk.Message{
			text(fmt.Sprintf("a%d", step), hostsdk.RoleAssistant, fmt.Sprintf("%s %s", call.name, call.arguments)),
			text(fmt.Sprintf("r%d", step), hostsdk.RoleTool, out.Text),
		}
	}

	return nil
}

// runtimeTools are the runtime's own tools, offered beside the plugin's.
var runtimeTools = []string{"Read", "Bash", "WebFetch"}

// toolNames returns the names of the runtime's tools and of the plugin's
// tools in offered.
func toolNames(offered []hostsdk.ToolDefinition) []string {
	names := slices.Clone(runtimeTools)
	for _, t := range offered {
		names = append(names, t.Name)
	}
	return names
}

// callTool runs the model's call, unless the active skill's grants
// withhold the tool: then the refusal is the call's result. The runtime's
// own tools are not run in this example.
func callTool(ctx context.Context, s *hostsdk.Session, id string, call *toolCall) (hostsdk.ToolResult, error) {
	if refusal, ok := s.CheckToolCall(call.name); !ok {
		return hostsdk.ToolResult{Text: refusal, IsError: true}, nil
	}
	return s.CallTool(ctx, hostsdk.ToolCall{CallID: id, Name: call.name, Arguments: call.arguments})
}

// preApprove adds the tools a loaded skill asks for to those approved for
// the rest of the turn, when the runtime acts on them (the skill is
// trusted, and the directive handler said so), and says which.
func preApprove(approved []string, d *skill.Directives) []string {
	if !d.Acted().Has(skill.DirectiveAllowedTools) {
		return approved
	}
	fmt.Printf("pre-approved for the rest of the turn: %s\n", strings.Join(d.AllowedTools, ", "))
	return append(approved, d.AllowedTools...)
}

// toolCall is a tool call the model asked for.
type toolCall struct {
	name      string
	arguments json.RawMessage
}

// model stands in for the model: while the catalog lists code-review and
// the `skill` tool is offered, it loads that skill; after the tool's result,
// it answers.
func model(conversation []hostsdk.Message, offered []hostsdk.ToolDefinition) (*toolCall, string) {
	if conversation[len(conversation)-1].Role == hostsdk.RoleTool {
		return nil, "Done: the change is reviewed, following the code-review skill."
	}
	listed := slices.ContainsFunc(conversation, func(m hostsdk.Message) bool {
		return strings.Contains(m.Text(), "`code-review`")
	})
	offeredSkill := slices.ContainsFunc(offered, func(t hostsdk.ToolDefinition) bool {
		return t.Name == "skill"
	})
	if listed && offeredSkill {
		return &toolCall{name: "skill", arguments: json.RawMessage(`{"name":"code-review"}`)}, ""
	}
	return nil, "I have no skill for code review."
}

func text(id string, role hostsdk.Role, s string) hostsdk.Message {
	return hostsdk.Message{ID: id, Role: role, Content: []hostsdk.ContentBlock{{Type: "text", Text: s}}}
}
