package openaiapi

import (
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// ChatTools returns the tool definitions of offered (tools.Tree.Visible for
// the agent) as a Chat Completions request's function tools: name,
// description and the parameters schema byte for byte.
func ChatTools(offered []tools.ResolvedTool) ([]openai.ChatCompletionToolUnionParam, error) {
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(offered))
	for _, t := range offered {
		raw, err := functionJSON(t.Definition, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, openai.ChatCompletionFunctionTool(param.Override[shared.FunctionDefinitionParam](raw)))
	}
	return out, nil
}

// ChatMessages returns msgs as a Chat Completions request's messages, in
// order.
//
// A system message becomes a system message. A user or tool message
// becomes a tool message per "tool_result" block (the result's text;
// images of a result, which a tool message cannot hold, follow in the user
// message), then one user message with its text and images. An assistant
// message becomes one assistant message: its text, its refusal, and a
// function call per "tool_use" block. A single text goes as a string, more
// as text parts. Messages left with no content are left out.
func ChatMessages(msgs []hostsdk.Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	var out []openai.ChatCompletionMessageParamUnion
	for _, m := range msgs {
		var err error
		switch m.Role {
		case hostsdk.RoleSystem:
			var parts []openai.ChatCompletionContentPartTextParam
			for _, b := range m.Content {
				if b.Type != hostsdk.BlockText {
					return nil, fmt.Errorf("system message %q: a %q block has no place in a system message", m.ID, b.Type)
				}
				if b.Text != "" {
					parts = append(parts, openai.ChatCompletionContentPartTextParam{Text: b.Text})
				}
			}
			switch len(parts) {
			case 0:
			case 1:
				out = append(out, openai.SystemMessage(parts[0].Text))
			default:
				out = append(out, openai.SystemMessage(parts))
			}
		case hostsdk.RoleAssistant:
			out, err = appendChatAssistant(out, m)
		default:
			out, err = appendChatUser(out, m)
		}
		if err != nil {
			return nil, fmt.Errorf("message %q: %w", m.ID, err)
		}
	}
	return out, nil
}

func appendChatAssistant(out []openai.ChatCompletionMessageParamUnion, m hostsdk.Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	var a openai.ChatCompletionAssistantMessageParam
	var texts []openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion
	for _, b := range m.Content {
		switch b.Type {
		case hostsdk.BlockText:
			if b.Text != "" {
				texts = append(texts, openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{
					OfText: &openai.ChatCompletionContentPartTextParam{Text: b.Text}})
			}
		case hostsdk.BlockToolUse:
			id, name, args, err := arguments(b)
			if err != nil {
				return nil, err
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: id, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: name, Arguments: args},
				}})
		case blockRefusal:
			if text, ok := refusal(b); ok {
				a.Refusal = openai.String(text)
			}
		}
	}
	switch len(texts) {
	case 0:
		if a.ToolCalls == nil && !a.Refusal.Valid() {
			return out, nil
		}
	case 1:
		a.Content.OfString = openai.String(texts[0].OfText.Text)
	default:
		a.Content.OfArrayOfContentParts = texts
	}
	return append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a}), nil
}

func appendChatUser(out []openai.ChatCompletionMessageParamUnion, m hostsdk.Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	var parts []openai.ChatCompletionContentPartUnionParam
	var resultImages []openai.ChatCompletionContentPartUnionParam
	image := func(img hostsdk.Image) openai.ChatCompletionContentPartUnionParam {
		return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: imageURL(img)})
	}
	for _, b := range m.Content {
		switch b.Type {
		case hostsdk.BlockText:
			if b.Text != "" {
				parts = append(parts, openai.TextContentPart(b.Text))
			}
		case hostsdk.BlockImage:
			img, ok := b.Image()
			if !ok {
				return nil, fmt.Errorf("an %q block of an unknown source", b.Type)
			}
			parts = append(parts, image(img))
		case hostsdk.BlockToolResult:
			r, ok := b.ToolResult()
			if !ok {
				return nil, fmt.Errorf("a %q block that does not decode", b.Type)
			}
			text, images := resultParts(r)
			out = append(out, openai.ToolMessage(text, r.CallID))
			for _, img := range images {
				resultImages = append(resultImages, image(img))
			}
		}
	}
	parts = append(resultImages, parts...)
	switch {
	case len(parts) == 0:
	case len(parts) == 1 && parts[0].OfText != nil:
		out = append(out, openai.UserMessage(parts[0].OfText.Text))
	default:
		out = append(out, openai.UserMessage(parts))
	}
	return out, nil
}

// ChatMessage returns the first choice of a Chat Completions response as an
// assistant message with the response's id: its text, its refusal (a
// "refusal" block), and a "tool_use" block per function call.
// modelapi.Calls reads the tool calls from it.
func ChatMessage(resp *openai.ChatCompletion) (hostsdk.Message, error) {
	if len(resp.Choices) == 0 {
		return hostsdk.Message{}, fmt.Errorf("chat completion %q has no choice", resp.ID)
	}
	c := resp.Choices[0].Message
	msg := hostsdk.Message{ID: resp.ID, Role: hostsdk.RoleAssistant}
	if c.Content != "" {
		msg.Content = append(msg.Content, hostsdk.TextBlock(c.Content))
	}
	if c.Refusal != "" {
		b, err := refusalBlock(c.Refusal)
		if err != nil {
			return hostsdk.Message{}, fmt.Errorf("chat completion %q: %w", resp.ID, err)
		}
		msg.Content = append(msg.Content, b)
	}
	for _, call := range c.ToolCalls {
		if call.Type != "function" {
			return hostsdk.Message{}, fmt.Errorf("chat completion %q: tool call %q is of type %q, not a function call", resp.ID, call.ID, call.Type)
		}
		b, err := modelapi.ToolUseBlock(call.ID, call.Function.Name, call.Function.Arguments)
		if err != nil {
			return hostsdk.Message{}, fmt.Errorf("chat completion %q: %w", resp.ID, err)
		}
		msg.Content = append(msg.Content, b)
	}
	return msg, nil
}
