package skilleino

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// pluginKey marks, in Message.Extra, a message the adapter spliced in for
// the plugin; its value is the plugin message's id. Eino keeps the
// adapter's rewrite of the messages for the rest of a Run, so the next
// model call of the Run hands these back: Sync knows them by that id and
// leaves them out, and splices the current ones in again. The mark is
// trusted no further: a message whose id no plugin message of the session
// log has is the caller's.
const pluginKey = "skillcatalog_plugin"

// einoIDKey is where Eino v0.9 and later keep a message's id in Extra.
// Handing it to Sync lets the session log name a message as the framework
// does; earlier versions leave it unset and Sync derives ids.
const einoIDKey = "_eino_msg_id"

// toHost converts one of the framework's messages for the session log:
// text, multimodal parts (kept as their JSON), tool calls and tool
// results; not a model's reasoning, which models are not sent back. It is
// a pure function of m, so a history sent again converts to the same
// messages, which Sync recognises as recorded.
func toHost(m *schema.Message) (hostsdk.Message, error) {
	id, _ := m.Extra[einoIDKey].(string)
	out := hostsdk.Message{ID: id, Role: hostsdk.RoleUser}
	var err error
	switch m.Role {
	case schema.Assistant:
		out.Role = hostsdk.RoleAssistant
		fallthrough
	case schema.User:
		if m.Content != "" {
			out.Content = append(out.Content, hostsdk.TextBlock(m.Content))
		}
		out.Content, err = appendParts(out.Content, m.UserInputMultiContent, m.AssistantGenMultiContent, m.MultiContent)
		for i := 0; i < len(m.ToolCalls) && err == nil; i++ {
			var b hostsdk.ContentBlock
			b, err = toolUse(m.ToolCalls[i])
			out.Content = append(out.Content, b)
		}
	case schema.Tool:
		// Eino hands a tool's result on as text only: whether it was an
		// error is lost, so the log records every result as a success.
		out.Role = hostsdk.RoleTool
		out.Content = make([]hostsdk.ContentBlock, 1)
		out.Content[0], err = hostsdk.ToolResultBlock(m.ToolCallID, []hostsdk.ContentBlock{hostsdk.TextBlock(m.Content)}, false)
	default:
		err = fmt.Errorf("role %q has no place in the session log", m.Role)
	}
	if err != nil {
		return hostsdk.Message{}, fmt.Errorf("convert a %s message: %w", m.Role, err)
	}
	return out, nil
}

// appendParts appends each multimodal part of every list as a block of its
// own JSON (every Eino part has a "type").
func appendParts(blocks []hostsdk.ContentBlock, lists ...any) ([]hostsdk.ContentBlock, error) {
	for _, list := range lists {
		var parts []json.RawMessage
		b, err := json.Marshal(list)
		if err == nil {
			err = json.Unmarshal(b, &parts)
		}
		if err != nil {
			return nil, err
		}
		for _, p := range parts {
			block, err := hostsdk.RawBlock(p)
			if err != nil {
				return nil, err
			}
			blocks = append(blocks, block)
		}
	}
	return blocks, nil
}

// toolUse is a model's tool call as a "tool_use" block. Eino carries
// arguments as text, which a model can get wrong: arguments that are not a
// JSON object are kept as written in an "arguments" member (as
// hostsdk/modelapi does), and the tool itself reports the error.
func toolUse(c schema.ToolCall) (hostsdk.ContentBlock, error) {
	var args bytes.Buffer
	if json.Compact(&args, []byte(c.Function.Arguments)) == nil && bytes.HasPrefix(args.Bytes(), []byte("{")) {
		return hostsdk.ToolUseBlock(c.ID, c.Function.Name, args.Bytes())
	}
	raw, err := json.Marshal(map[string]any{"type": hostsdk.BlockToolUse, "id": c.ID, "name": c.Function.Name,
		"input": struct{}{}, "arguments": c.Function.Arguments})
	if err != nil {
		return hostsdk.ContentBlock{}, err
	}
	return hostsdk.RawBlock(raw)
}

// fromPlugin converts a plugin message (catalog, replacement, tombstone, a
// user-invoked skill's instructions: user-role text) for the model, marked
// so that the next call recognises it.
func fromPlugin(m hostsdk.Message) *schema.Message {
	return &schema.Message{Role: schema.User, Content: m.Text(), Extra: map[string]any{pluginKey: m.ID}}
}
