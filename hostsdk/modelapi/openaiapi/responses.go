package openaiapi

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// ResponsesTools returns the tool definitions of offered (tools.Tree.Visible
// for the agent) as a Responses request's function tools: name,
// description and the parameters schema byte for byte, not strict (strict
// mode would make every property required, and the plugin's tools have
// optional ones).
func ResponsesTools(offered []tools.ResolvedTool) ([]responses.ToolUnionParam, error) {
	out := make([]responses.ToolUnionParam, 0, len(offered))
	for _, t := range offered {
		raw, err := functionJSON(t.Definition, map[string]any{"type": "function", "strict": false})
		if err != nil {
			return nil, err
		}
		fn := param.Override[responses.FunctionToolParam](raw)
		out = append(out, responses.ToolUnionParam{OfFunction: &fn})
	}
	return out, nil
}

// ResponsesInput returns msgs as a Responses request's input items, in
// order.
//
// A system message becomes a system message item. A user or tool message
// becomes, block by block, user message items (runs of text and images)
// and a function call output per "tool_result" block (its text, or its
// text and images as a list). An assistant message becomes assistant
// message items (its text), a function call item per "tool_use" block, and
// the items the model returned that the session keeps as they came (a
// reasoning item), as they are.
func ResponsesInput(msgs []hostsdk.Message) (responses.ResponseInputParam, error) {
	var out responses.ResponseInputParam
	for _, m := range msgs {
		var err error
		switch m.Role {
		case hostsdk.RoleSystem:
			var content responses.ResponseInputMessageContentListParam
			for _, b := range m.Content {
				if b.Type != hostsdk.BlockText {
					return nil, fmt.Errorf("system message %q: a %q block has no place in a system message", m.ID, b.Type)
				}
				if b.Text != "" {
					content = append(content, responses.ResponseInputContentParamOfInputText(b.Text))
				}
			}
			if len(content) > 0 {
				out = append(out, responses.ResponseInputItemParamOfMessage(content, responses.EasyInputMessageRoleSystem))
			}
		case hostsdk.RoleAssistant:
			out, err = appendResponsesAssistant(out, m)
		default:
			out, err = appendResponsesUser(out, m)
		}
		if err != nil {
			return nil, fmt.Errorf("message %q: %w", m.ID, err)
		}
	}
	return out, nil
}

func appendResponsesAssistant(out responses.ResponseInputParam, m hostsdk.Message) (responses.ResponseInputParam, error) {
	for _, b := range m.Content {
		switch b.Type {
		case hostsdk.BlockText:
			if b.Text != "" {
				out = append(out, responses.ResponseInputItemParamOfMessage(b.Text, responses.EasyInputMessageRoleAssistant))
			}
		case hostsdk.BlockToolUse:
			id, name, args, err := arguments(b)
			if err != nil {
				return nil, err
			}
			out = append(out, responses.ResponseInputItemParamOfFunctionCall(args, id, name))
		case blockReasoning:
			out = append(out, param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(b.Raw)))
		}
	}
	return out, nil
}

func appendResponsesUser(out responses.ResponseInputParam, m hostsdk.Message) (responses.ResponseInputParam, error) {
	var content responses.ResponseInputMessageContentListParam
	flush := func() {
		if len(content) > 0 {
			out = append(out, responses.ResponseInputItemParamOfMessage(content, responses.EasyInputMessageRoleUser))
			content = nil
		}
	}
	for _, b := range m.Content {
		switch b.Type {
		case hostsdk.BlockText:
			if b.Text != "" {
				content = append(content, responses.ResponseInputContentParamOfInputText(b.Text))
			}
		case hostsdk.BlockImage:
			img, ok := b.Image()
			if !ok {
				return nil, fmt.Errorf("an %q block of an unknown source", b.Type)
			}
			content = append(content, responses.ResponseInputContentUnionParam{OfInputImage: &responses.ResponseInputImageParam{
				Detail: responses.ResponseInputImageDetailAuto, ImageURL: param.NewOpt(imageURL(img)),
			}})
		case hostsdk.BlockToolResult:
			r, ok := b.ToolResult()
			if !ok {
				return nil, fmt.Errorf("a %q block that does not decode", b.Type)
			}
			flush()
			text, images := resultParts(r)
			item := responses.ResponseInputItemParamOfFunctionCallOutput(text)
			if len(images) > 0 {
				list := responses.ResponseFunctionCallOutputItemListParam{{OfInputText: &responses.ResponseInputTextContentParam{Text: text}}}
				for _, img := range images {
					list = append(list, responses.ResponseFunctionCallOutputItemUnionParam{OfInputImage: &responses.ResponseInputImageContentParam{
						ImageURL: param.NewOpt(imageURL(img)),
					}})
				}
				item = responses.ResponseInputItemParamOfFunctionCallOutput(list)
			}
			item.OfFunctionCallOutput.CallID = param.NewOpt(r.CallID)
			out = append(out, item)
		}
	}
	flush()
	return out, nil
}

// blockReasoning is the type of a Responses reasoning item, which the
// session keeps as it came.
const blockReasoning = "reasoning"

// ResponsesMessage returns a Responses response's output as an assistant
// message with the response's id: a text block per output text, a
// "refusal" block per refusal, a "tool_use" block per function call (the
// call id as its id), and a reasoning item as its JSON, unchanged, to be
// sent back as it is. Other output items (a hosted tool's) are not the
// host's to handle: they are an error. modelapi.Calls reads the tool calls
// from the message.
func ResponsesMessage(resp *responses.Response) (hostsdk.Message, error) {
	msg := hostsdk.Message{ID: resp.ID, Role: hostsdk.RoleAssistant}
	add := func(b hostsdk.ContentBlock, err error) error {
		if err != nil {
			return fmt.Errorf("response %q: %w", resp.ID, err)
		}
		msg.Content = append(msg.Content, b)
		return nil
	}
	for _, item := range resp.Output {
		var err error
		switch item.Type {
		case "message":
			for _, c := range item.AsMessage().Content {
				switch c.Type {
				case "output_text":
					err = add(hostsdk.TextBlock(c.Text), nil)
				case blockRefusal:
					err = add(refusalBlock(c.Refusal))
				}
				if err != nil {
					return hostsdk.Message{}, err
				}
			}
		case "function_call":
			call := item.AsFunctionCall()
			err = add(modelapi.ToolUseBlock(call.CallID, call.Name, call.Arguments))
		case blockReasoning:
			err = add(hostsdk.RawBlock(json.RawMessage(item.RawJSON())))
		default:
			err = fmt.Errorf("response %q: output item %q of type %q is not a message, function call or reasoning", resp.ID, item.ID, item.Type)
		}
		if err != nil {
			return hostsdk.Message{}, err
		}
	}
	return msg, nil
}
