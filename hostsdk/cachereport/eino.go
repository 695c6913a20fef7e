package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// einoConversed returns a row's run through an Eino ADK agent with the
// skilleino middleware over the plugin mounted with mount (einoRun).
func einoConversed(mount hostsdk.MountOptions) func(context.Context, *scenario, string, sendFunc) error {
	return func(ctx context.Context, sc *scenario, dir string, send sendFunc) error {
		return einoRun(ctx, sc, dir, mount, send)
	}
}

// einoRun runs the scenario's conversation through an Eino ADK agent with
// the skilleino middleware: the caller keeps its history and passes all
// of it to every Run, one Run a turn. The agent's model is einoModel,
// which sends what the agent hands it through send.
func einoRun(ctx context.Context, sc *scenario, dir string, mount hostsdk.MountOptions, send sendFunc) error {
	h, err := openPluginHost(ctx, dir, mount)
	if err != nil {
		return err
	}
	defer h.close()
	skills, err := skilleino.New(ctx, h.host, &skilleino.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "A software engineering assistant.", Instruction: systemPrompt,
		Model: &einoModel{send: send}, Middlewares: []adk.AgentMiddleware{skills.Middleware()},
	})
	if err != nil {
		return err
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent})
	var history []*schema.Message
	for i, t := range sc.turns {
		if t.change != nil {
			if err := t.change(filepath.Join(dir, "skills")); err != nil {
				return err
			}
			h.changed()
		}
		history = append(history, schema.UserMessage(t.user))
		iter := runner.Run(ctx, history, skilleino.WithSession(sessionID))
		for {
			ev, ok := iter.Next()
			if !ok {
				break
			}
			if ev.Err != nil {
				return fmt.Errorf("turn %d: %w", i+1, ev.Err)
			}
			if ev.Output != nil && ev.Output.MessageOutput != nil {
				msg, err := ev.Output.MessageOutput.GetMessage()
				if err != nil {
					return err
				}
				history = append(history, msg)
			}
		}
	}
	return nil
}

// einoModel is an Eino chat model that sends each call's messages and
// tools, converted to the session log's messages, with send, and returns
// the reply as an Eino message.
type einoModel struct {
	send  sendFunc
	tools []tools.Definition
}

func (m *einoModel) Generate(ctx context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	conv := make([]hostsdk.Message, 0, len(input))
	for i, in := range input {
		msg, err := fromEino(fmt.Sprintf("eino-%d", i), in)
		if err != nil {
			return nil, err
		}
		conv = append(conv, msg)
	}
	reply, err := m.send(ctx, sessionID, conv, m.tools)
	if err != nil {
		return nil, err
	}
	out := schema.AssistantMessage(reply.Text(), nil)
	for _, c := range modelapi.Calls(reply) {
		out.ToolCalls = append(out.ToolCalls, schema.ToolCall{ID: c.CallID, Type: "function",
			Function: schema.FunctionCall{Name: c.Name, Arguments: string(c.Arguments)}})
	}
	return out, nil
}

func (m *einoModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *einoModel) WithTools(infos []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	defs := make([]tools.Definition, 0, len(infos))
	for _, info := range infos {
		d := tools.Definition{Name: info.Name, Description: info.Desc}
		if info.ParamsOneOf != nil {
			s, err := info.ToJSONSchema()
			if err != nil {
				return nil, fmt.Errorf("tool %q: %w", info.Name, err)
			}
			if d.InputSchema, err = json.Marshal(s); err != nil {
				return nil, fmt.Errorf("tool %q: %w", info.Name, err)
			}
		}
		defs = append(defs, d)
	}
	return &einoModel{send: m.send, tools: defs}, nil
}

// fromEino converts an Eino message: text, tool calls, a tool's result.
func fromEino(id string, m *schema.Message) (hostsdk.Message, error) {
	out := hostsdk.Message{ID: id, Role: hostsdk.RoleUser}
	text := []hostsdk.ContentBlock{hostsdk.TextBlock(m.Content)}
	switch m.Role {
	case schema.System:
		out.Role, out.Content = hostsdk.RoleSystem, text
	case schema.Assistant:
		out.Role = hostsdk.RoleAssistant
		if m.Content != "" {
			out.Content = text
		}
		for _, c := range m.ToolCalls {
			b, err := modelapi.ToolUseBlock(c.ID, c.Function.Name, c.Function.Arguments)
			if err != nil {
				return hostsdk.Message{}, err
			}
			out.Content = append(out.Content, b)
		}
	case schema.Tool:
		b, err := hostsdk.ToolResultBlock(m.ToolCallID, text, false)
		if err != nil {
			return hostsdk.Message{}, err
		}
		out.Role, out.Content = hostsdk.RoleTool, []hostsdk.ContentBlock{b}
	default:
		out.Content = text
	}
	return out, nil
}
