package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// genkitConversed returns a row's run through Genkit's generate loop with
// the skillgenkit tools and middleware over the plugin mounted with mount
// (genkitRun).
func genkitConversed(mount hostsdk.MountOptions) func(context.Context, *scenario, string, sendFunc) error {
	return func(ctx context.Context, sc *scenario, dir string, send sendFunc) error {
		return genkitRun(ctx, sc, dir, mount, send)
	}
}

// genkitRun runs the scenario's conversation through Genkit's generate
// loop with the skillgenkit tools and middleware: the caller keeps its
// history as Genkit's users do (the system prompt first, then
// resp.History() after every Generate) and passes all of it to every
// Generate, one Generate a turn. The model is genkitModel's, which sends
// what Genkit hands it through send.
func genkitRun(ctx context.Context, sc *scenario, dir string, mount hostsdk.MountOptions, send sendFunc) error {
	h, err := openPluginHost(ctx, dir, mount)
	if err != nil {
		return err
	}
	defer h.close()
	skills, err := skillgenkit.New(ctx, h.host, &skillgenkit.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "cachereport/model", &ai.ModelOptions{
		Label:    "cachereport",
		Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true},
	}, genkitModel(send))
	history := []*ai.Message{ai.NewSystemTextMessage(systemPrompt)}
	for i, t := range sc.turns {
		if t.change != nil {
			if err := t.change(filepath.Join(dir, "skills")); err != nil {
				return err
			}
			h.changed()
		}
		history = append(history, ai.NewUserTextMessage(t.user))
		resp, err := genkit.Generate(skillgenkit.WithSession(ctx, sessionID), g, ai.WithModel(model),
			ai.WithMessages(history...), ai.WithTools(skills.Tools()...), ai.WithMiddleware(skills.Middleware()))
		if err != nil {
			return fmt.Errorf("turn %d: %w", i+1, err)
		}
		history = resp.History()
	}
	return nil
}

// genkitModel is the function of a Genkit model that sends each call's
// messages and tools, converted to the session log's messages, with send,
// and returns the reply as a Genkit response to that request (so that
// resp.History() holds it, as with a model plugin).
func genkitModel(send sendFunc) ai.ModelFunc {
	return func(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		conv := make([]hostsdk.Message, 0, len(req.Messages))
		for i, m := range req.Messages {
			msg, err := fromGenkit(fmt.Sprintf("genkit-%d", i), m)
			if err != nil {
				return nil, err
			}
			conv = append(conv, msg)
		}
		defs, err := genkitTools(req.Tools)
		if err != nil {
			return nil, err
		}
		reply, err := send(ctx, sessionID, conv, defs)
		if err != nil {
			return nil, err
		}
		out := &ai.Message{Role: ai.RoleModel}
		if text := reply.Text(); text != "" {
			out.Content = append(out.Content, ai.NewTextPart(text))
		}
		for _, c := range modelapi.Calls(reply) {
			var input any
			if err := json.Unmarshal(c.Arguments, &input); err != nil {
				return nil, fmt.Errorf("tool call %q: %w", c.Name, err)
			}
			out.Content = append(out.Content, ai.NewToolRequestPart(&ai.ToolRequest{Ref: c.CallID, Name: c.Name, Input: input}))
		}
		return &ai.ModelResponse{Message: out, Request: req, FinishReason: ai.FinishReasonStop}, nil
	}
}

// genkitTools converts a request's tools, their input schemas as JSON.
func genkitTools(in []*ai.ToolDefinition) ([]tools.Definition, error) {
	defs := make([]tools.Definition, 0, len(in))
	for _, t := range in {
		d := tools.Definition{Name: t.Name, Description: t.Description}
		if t.InputSchema != nil {
			var err error
			if d.InputSchema, err = json.Marshal(t.InputSchema); err != nil {
				return nil, fmt.Errorf("tool %q: %w", t.Name, err)
			}
		}
		defs = append(defs, d)
	}
	return defs, nil
}

// fromGenkit converts a Genkit message: text, tool requests, tool
// responses. A tool's output that is a string is sent as its text, as
// the other rows send a tool's result; any other output as its JSON.
func fromGenkit(id string, m *ai.Message) (hostsdk.Message, error) {
	out := hostsdk.Message{ID: id, Role: hostsdk.RoleUser}
	switch m.Role {
	case ai.RoleSystem:
		out.Role = hostsdk.RoleSystem
	case ai.RoleModel:
		out.Role = hostsdk.RoleAssistant
	case ai.RoleTool:
		out.Role = hostsdk.RoleTool
	}
	for _, p := range m.Content {
		b, err := genkitBlock(p)
		if err != nil {
			return hostsdk.Message{}, err
		}
		if b != nil {
			out.Content = append(out.Content, *b)
		}
	}
	return out, nil
}

// genkitBlock converts one part; it returns nil for a part with nothing
// the model reads.
func genkitBlock(p *ai.Part) (*hostsdk.ContentBlock, error) {
	var (
		b   hostsdk.ContentBlock
		err error
	)
	switch {
	case p.IsText() && p.Text != "":
		b = hostsdk.TextBlock(p.Text)
	case p.IsToolRequest():
		input, merr := json.Marshal(p.ToolRequest.Input)
		if merr != nil {
			return nil, fmt.Errorf("tool request %q: %w", p.ToolRequest.Name, merr)
		}
		b, err = modelapi.ToolUseBlock(p.ToolRequest.Ref, p.ToolRequest.Name, string(input))
	case p.IsToolResponse():
		text, ok := p.ToolResponse.Output.(string)
		if !ok {
			js, merr := json.Marshal(p.ToolResponse.Output)
			if merr != nil {
				return nil, fmt.Errorf("tool response %q: %w", p.ToolResponse.Name, merr)
			}
			text = string(js)
		}
		b, err = hostsdk.ToolResultBlock(p.ToolResponse.Ref, []hostsdk.ContentBlock{hostsdk.TextBlock(text)}, false)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &b, nil
}
