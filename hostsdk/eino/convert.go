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
// model call of the Run hands these back: the adapter drops them before
// Sync, which splices the current ones in again.
const pluginKey = "skillcatalog_plugin"

// einoIDKey is where Eino v0.9 and later keep a message's id in Extra.
// Handing it to Sync lets the session log name a message as the framework
// does; earlier versions leave it unset and Sync derives ids.
const einoIDKey = "_eino_msg_id"

// isPlugin reports whether m is a plugin message the adapter spliced in.
func isPlugin(m *schema.Message) bool {
	_, ok := m.Extra[pluginKey]
	return ok
}

// toHost converts one of the framework's messages for the session log. It
// is a pure function of m, so a history sent again converts to the same
// messages, which Sync recognises as already recorded.
func toHost(m *schema.Message) (hostsdk.Message, error) {
	id, _ := m.Extra[einoIDKey].(string)
	out := hostsdk.Message{ID: id, Role: hostsdk.RoleUser, UserInput: m.Role == schema.User}
	var err error
	switch m.Role {
	case schema.User:
		out.Content, err = textAndParts(m.Content, m.UserInputMultiContent, m.MultiContent)
	case schema.Assistant:
		out.Role = hostsdk.RoleAssistant
		out.Content, err = textAndParts(m.Content, m.AssistantGenMultiContent, m.MultiContent)
		for _, c := range m.ToolCalls {
			if err != nil {
				break
			}
			var b hostsdk.ContentBlock
			b, err = toolUseBlock(c)
			out.Content = append(out.Content, b)
		}
	case schema.Tool:
		// Eino hands a tool's result on as text only: whether it was an
		// error is not kept, so the log records every result as a success.
		out.Role = hostsdk.RoleTool
		var b hostsdk.ContentBlock
		b, err = hostsdk.ToolResultBlock(m.ToolCallID, []hostsdk.ContentBlock{hostsdk.TextBlock(m.Content)}, false)
		out.Content = []hostsdk.ContentBlock{b}
	default:
		return hostsdk.Message{}, fmt.Errorf("a message of role %q has no place in the session log", m.Role)
	}
	if err != nil {
		return hostsdk.Message{}, fmt.Errorf("convert a %s message: %w", m.Role, err)
	}
	return out, nil
}

// textAndParts returns a message's text, then its multimodal parts: text
// parts as text blocks, others kept as their JSON (each part has a "type").
func textAndParts[P, Q any](text string, parts []P, legacy []Q) ([]hostsdk.ContentBlock, error) {
	var blocks []hostsdk.ContentBlock
	if text != "" {
		blocks = append(blocks, hostsdk.TextBlock(text))
	}
	for _, p := range append(asAny(parts), asAny(legacy)...) {
		raw, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		b, err := hostsdk.RawBlock(raw)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func asAny[P any](parts []P) []any {
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// toolUseBlock records a model's tool call. Eino carries arguments as
// text, which a model can get wrong; arguments that are not a JSON object
// are kept as written in an "arguments" member (as hostsdk/modelapi does),
// and the tool itself reports the error to the model.
func toolUseBlock(c schema.ToolCall) (hostsdk.ContentBlock, error) {
	var compact bytes.Buffer
	if json.Compact(&compact, []byte(c.Function.Arguments)) == nil && compact.Len() > 0 && compact.Bytes()[0] == '{' {
		return hostsdk.ToolUseBlock(c.ID, c.Function.Name, compact.Bytes())
	}
	raw, err := json.Marshal(map[string]any{"type": hostsdk.BlockToolUse, "id": c.ID, "name": c.Function.Name,
		"input": json.RawMessage(`{}`), "arguments": c.Function.Arguments})
	if err != nil {
		return hostsdk.ContentBlock{}, err
	}
	return hostsdk.RawBlock(raw)
}

// fromPlugin converts a plugin message (catalog, replacement, tombstone, a
// user-invoked skill: user-role text) for the model, marked so that the
// next call recognises it.
func fromPlugin(m hostsdk.Message) *schema.Message {
	role := schema.User
	if m.Role == hostsdk.RoleSystem {
		role = schema.System
	}
	return &schema.Message{Role: role, Content: m.Text(), Extra: map[string]any{pluginKey: m.ID}}
}
