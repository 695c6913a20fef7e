// Package anthropicapi connects a host's session to Anthropic's Messages API
// through its official Go SDK (github.com/anthropics/anthropic-sdk-go): Tools
// gives the API the tools an agent sees, Messages the step's messages,
// Message reads the model's response back.
//
// A session's content blocks are in the Messages API's own shapes, so most
// go across as they are: text, "tool_use" (its input byte for byte),
// "tool_result" (with its error flag), "image" (inline or by URL), and any
// other block the model returned (thinking, redacted thinking, a server
// tool's blocks) as its JSON, unchanged, as the API asks a conversation to
// send them back. System messages become the request's system prompt; the
// plugin's catalog messages are user text and arrive as user content;
// tool-role messages (modelapi.ResultMessage) become user turns.
package anthropicapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// Tools returns the tool definitions of tools (tools.Tree.Visible for the
// agent) as the request's tools: name, description, and the input schema
// byte for byte ({"type":"object"} when a tool has none).
func Tools(offered []tools.ResolvedTool) []anthropic.ToolUnionParam {
	out := make([]anthropic.ToolUnionParam, 0, len(offered))
	for _, t := range offered {
		schema := t.Definition.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		tool := anthropic.ToolParam{
			Name:        t.Definition.Name,
			InputSchema: param.Override[anthropic.ToolInputSchemaParam](schema),
		}
		if t.Definition.Description != "" {
			tool.Description = anthropic.String(t.Definition.Description)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tool})
	}
	return out
}

// Messages returns msgs as a request's system prompt and messages.
//
// A text block goes as its text (with its citations when it has any), a
// "tool_use" block with its input byte for byte, a "tool_result" block
// with its content and error flag, an image inline or by URL; any other
// block goes as its JSON, unchanged.
//
// The text of system messages, wherever they are, becomes the system
// prompt, in order (the API takes no system turns). User and tool messages
// become user turns, assistant messages assistant turns; consecutive turns
// of one role are joined (the API would join them too), with the
// "tool_result" blocks of a user turn first, as the API requires after a
// turn with tool calls. Empty text blocks, and messages left with no
// content, are left out. A system message holding anything but text is an
// error.
func Messages(msgs []hostsdk.Message) ([]anthropic.TextBlockParam, []anthropic.MessageParam, error) {
	var system []anthropic.TextBlockParam
	var out []anthropic.MessageParam
	var role hostsdk.Role
	for _, m := range msgs {
		if m.Role == hostsdk.RoleSystem {
			for _, b := range m.Content {
				if b.Type != hostsdk.BlockText {
					return nil, nil, fmt.Errorf("system message %q: a %q block has no place in the system prompt", m.ID, b.Type)
				}
				if b.Text != "" {
					system = append(system, anthropic.TextBlockParam{Text: b.Text})
				}
			}
			continue
		}
		blocks, err := contentBlocks(m.Content)
		if err != nil {
			return nil, nil, fmt.Errorf("message %q: %w", m.ID, err)
		}
		if len(blocks) == 0 {
			continue
		}
		r := hostsdk.RoleUser
		if m.Role == hostsdk.RoleAssistant {
			r = hostsdk.RoleAssistant
		}
		switch {
		case len(out) > 0 && r == role && r == hostsdk.RoleAssistant:
			last := out[len(out)-1].OfAssistant
			last.Content = append(last.Content, blocks...)
		case len(out) > 0 && r == role:
			last := out[len(out)-1].OfUser
			last.Content = append(last.Content, blocks...)
		case r == hostsdk.RoleAssistant:
			out = append(out, anthropic.MessageParam{OfAssistant: &anthropic.AssistantMessageParam{Content: blocks}})
		default:
			out = append(out, anthropic.MessageParam{OfUser: &anthropic.UserMessageParam{Content: blocks}})
		}
		role = r
	}
	for _, m := range out {
		if m.OfUser != nil {
			// Stable: results keep their order, and so does the rest.
			slices.SortStableFunc(m.OfUser.Content, func(a, b anthropic.ContentBlockParamUnion) int {
				return resultRank(a) - resultRank(b)
			})
		}
	}
	return system, out, nil
}

func resultRank(b anthropic.ContentBlockParamUnion) int {
	if b.OfToolResult != nil {
		return 0
	}
	return 1
}

// contentBlocks converts a message's blocks.
func contentBlocks(in []hostsdk.ContentBlock) ([]anthropic.ContentBlockParamUnion, error) {
	out := make([]anthropic.ContentBlockParamUnion, 0, len(in))
	for _, b := range in {
		switch b.Type {
		case hostsdk.BlockText:
			switch {
			case cited(b):
				out = append(out, param.Override[anthropic.ContentBlockParamUnion](b.Raw))
			case b.Text != "":
				out = append(out, anthropic.NewTextBlock(b.Text))
			}
		case hostsdk.BlockToolUse:
			u, ok := b.ToolUse()
			if !ok {
				return nil, fmt.Errorf("a %q block that does not decode", b.Type)
			}
			out = append(out, anthropic.ContentBlockParamUnion{OfToolUse: &anthropic.ToolUseBlockParam{
				ID: u.ID, Name: u.Name, Input: u.Input,
			}})
		case hostsdk.BlockToolResult:
			r, ok := b.ToolResult()
			if !ok {
				return nil, fmt.Errorf("a %q block that does not decode", b.Type)
			}
			res := anthropic.ToolResultBlockParam{ToolUseID: r.CallID}
			if r.IsError {
				res.IsError = anthropic.Bool(true)
			}
			for _, c := range r.Content {
				part, err := resultContent(c)
				if err != nil {
					return nil, fmt.Errorf("result of tool call %q: %w", r.CallID, err)
				}
				res.Content = append(res.Content, part)
			}
			out = append(out, anthropic.ContentBlockParamUnion{OfToolResult: &res})
		case hostsdk.BlockImage:
			img, err := image(b)
			if err != nil {
				return nil, err
			}
			out = append(out, anthropic.ContentBlockParamUnion{OfImage: img})
		default:
			raw, err := json.Marshal(b)
			if err != nil {
				return nil, fmt.Errorf("a %q block: %w", b.Type, err)
			}
			out = append(out, param.Override[anthropic.ContentBlockParamUnion](json.RawMessage(raw)))
		}
	}
	return out, nil
}

// cited reports whether a text block has citations, which go back with
// it.
func cited(b hostsdk.ContentBlock) bool {
	var v struct {
		Citations []json.RawMessage `json:"citations"`
	}
	return b.Raw != nil && json.Unmarshal(b.Raw, &v) == nil && len(v.Citations) > 0
}

// resultContent converts one block of a tool result's content.
func resultContent(b hostsdk.ContentBlock) (anthropic.ToolResultBlockParamContentUnion, error) {
	switch b.Type {
	case hostsdk.BlockText:
		return anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: b.Text}}, nil
	case hostsdk.BlockImage:
		img, err := image(b)
		if err != nil {
			return anthropic.ToolResultBlockParamContentUnion{}, err
		}
		return anthropic.ToolResultBlockParamContentUnion{OfImage: img}, nil
	}
	raw, err := json.Marshal(b)
	if err != nil {
		return anthropic.ToolResultBlockParamContentUnion{}, fmt.Errorf("a %q block: %w", b.Type, err)
	}
	return param.Override[anthropic.ToolResultBlockParamContentUnion](json.RawMessage(raw)), nil
}

func image(b hostsdk.ContentBlock) (*anthropic.ImageBlockParam, error) {
	img, ok := b.Image()
	switch {
	case !ok:
		return nil, fmt.Errorf("an %q block of an unknown source", b.Type)
	case img.URL != "":
		return &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{
			OfURL: &anthropic.URLImageSourceParam{URL: img.URL},
		}}, nil
	}
	return &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{
		OfBase64: &anthropic.Base64ImageSourceParam{
			Data:      base64.StdEncoding.EncodeToString(img.Data),
			MediaType: anthropic.Base64ImageSourceMediaType(img.MediaType),
		},
	}}, nil
}

// Message returns the model's response as an assistant message with the
// response's id: a text block per text (a text with citations kept as its
// JSON), a "tool_use" block per tool call (its input byte for byte, as
// compact JSON), and every other block (thinking, redacted thinking, a
// server tool's blocks) as its JSON, unchanged, to be sent back as it is.
// modelapi.Calls reads the tool calls from it.
func Message(resp *anthropic.Message) (hostsdk.Message, error) {
	msg := hostsdk.Message{ID: resp.ID, Role: hostsdk.RoleAssistant}
	for i, c := range resp.Content {
		var b hostsdk.ContentBlock
		var err error
		switch c.Type {
		case "text":
			if t := c.AsText(); len(t.Citations) == 0 {
				b = hostsdk.TextBlock(t.Text)
				break
			}
			b, err = hostsdk.RawBlock(json.RawMessage(c.RawJSON()))
		case "tool_use":
			u := c.AsToolUse()
			b, err = hostsdk.ToolUseBlock(u.ID, u.Name, u.Input)
		default:
			b, err = hostsdk.RawBlock(json.RawMessage(c.RawJSON()))
		}
		if err != nil {
			return hostsdk.Message{}, fmt.Errorf("response %q, content block %d (%s): %w", resp.ID, i, c.Type, err)
		}
		msg.Content = append(msg.Content, b)
	}
	return msg, nil
}
