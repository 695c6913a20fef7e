package skillgenkit

import (
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// pluginKey marks, in Message.Metadata, a message the adapter put into a
// request for the plugin; its value is the plugin message's id. Genkit's
// ModelResponse.History returns the request the model answered, so a
// caller that feeds it back hands these messages back: Sync knows them by
// that id and leaves them out, and puts the current ones back at their
// places. A message whose id no plugin message of the session log has is
// the caller's.
const pluginKey = "skillcatalog_plugin"

// partBlock is the block type of a Genkit part the session log has no
// block for (media, data, reasoning, a resource, a custom part): the
// block holds the part as Genkit encodes it, in "part".
const partBlock = "genkit_part"

// toHost converts one of the framework's messages for the session log. It
// is a pure function of m, so a history sent again converts to the same
// messages, which Sync recognises as recorded.
func toHost(m *ai.Message) (hostsdk.Message, error) {
	out := hostsdk.Message{Role: hostsdk.RoleUser}
	switch m.Role {
	case ai.RoleUser:
	case ai.RoleModel:
		out.Role = hostsdk.RoleAssistant
	case ai.RoleTool:
		out.Role = hostsdk.RoleTool
	default:
		return hostsdk.Message{}, fmt.Errorf("role %q has no place in the session log", m.Role)
	}
	for i, p := range m.Content {
		b, ok, err := toBlock(p)
		if err != nil {
			return hostsdk.Message{}, fmt.Errorf("convert part %d of a %s message: %w", i, m.Role, err)
		}
		if ok {
			out.Content = append(out.Content, b)
		}
	}
	return out, nil
}

// toBlock converts one part: text, a tool request, a tool response, or
// any other part kept as its JSON. ok is false for a part with nothing in
// it.
func toBlock(p *ai.Part) (b hostsdk.ContentBlock, ok bool, err error) {
	switch {
	case p == nil || (p.IsText() && p.Text == "") || addedByGenkit(p):
		return b, false, nil
	case p.IsText():
		return hostsdk.TextBlock(p.Text), true, nil
	case p.IsToolRequest() && p.ToolRequest != nil:
		b, err = toolUse(p.ToolRequest)
	case p.IsToolResponse() && p.ToolResponse != nil:
		b, err = toolResult(p.ToolResponse)
	default:
		b, err = rawPart(p)
	}
	return b, err == nil, err
}

// addedByGenkit reports whether Genkit wrote p into a request itself: the
// documents of ai.WithDocs for a model without native context support
// (metadata purpose "context") and the instructions of an output format
// (purpose "output"). Genkit writes them into the caller's own messages,
// in place, while a Generate runs, and again into whichever message is
// then the last user message; kept, they would make a message the log
// holds differ from its record, which Sync takes for an edit.
func addedByGenkit(p *ai.Part) bool {
	purpose, _ := p.Metadata["purpose"].(string)
	return purpose == "context" || purpose == "output"
}

// toolUse is a model's tool request as a "tool_use" block. Input that is
// not a JSON object (a model can send a bare string) is kept as its JSON
// text in an "arguments" member, as the other adapters keep arguments
// that are not an object, and the tool itself reports the error.
func toolUse(r *ai.ToolRequest) (hostsdk.ContentBlock, error) {
	input, err := json.Marshal(r.Input)
	if err != nil {
		return hostsdk.ContentBlock{}, fmt.Errorf("the input of tool request %q: %w", r.Name, err)
	}
	if len(input) > 0 && input[0] == '{' {
		return hostsdk.ToolUseBlock(r.Ref, r.Name, input)
	}
	raw, err := json.Marshal(map[string]any{"type": hostsdk.BlockToolUse, "id": r.Ref, "name": r.Name,
		"input": struct{}{}, "arguments": string(input)})
	if err != nil {
		return hostsdk.ContentBlock{}, err
	}
	return hostsdk.RawBlock(raw)
}

// toolResult is a tool's response as a "tool_result" block: its output as
// text (a string as it is, anything else as its JSON), then any parts it
// carries. Genkit has no error flag on a response, so every result is
// logged as a success; the plugin's error texts say "Error".
func toolResult(r *ai.ToolResponse) (hostsdk.ContentBlock, error) {
	var content []hostsdk.ContentBlock
	text, isString := r.Output.(string)
	if !isString && r.Output != nil {
		out, err := json.Marshal(r.Output)
		if err != nil {
			return hostsdk.ContentBlock{}, fmt.Errorf("the output of tool %q: %w", r.Name, err)
		}
		text = string(out)
	}
	if text != "" {
		content = append(content, hostsdk.TextBlock(text))
	}
	for _, p := range r.Content {
		b, ok, err := toBlock(p)
		if err != nil {
			return hostsdk.ContentBlock{}, fmt.Errorf("the content of tool %q: %w", r.Name, err)
		}
		if ok {
			content = append(content, b)
		}
	}
	return hostsdk.ToolResultBlock(r.Ref, content, false)
}

// rawPart keeps a part as Genkit encodes it, in a block of its own type.
func rawPart(p *ai.Part) (hostsdk.ContentBlock, error) {
	part, err := json.Marshal(p)
	if err != nil {
		return hostsdk.ContentBlock{}, err
	}
	raw, err := json.Marshal(struct {
		Type string          `json:"type"`
		Part json.RawMessage `json:"part"`
	}{partBlock, part})
	if err != nil {
		return hostsdk.ContentBlock{}, err
	}
	return hostsdk.RawBlock(raw)
}

// fromPlugin converts a plugin message (catalog, replacement, tombstone, a
// user-invoked skill's instructions: user-role text) for the model,
// marked so that the next request recognises it.
func fromPlugin(m hostsdk.Message) *ai.Message {
	return &ai.Message{Role: ai.RoleUser, Content: []*ai.Part{ai.NewTextPart(m.Text())}, Metadata: map[string]any{pluginKey: m.ID}}
}
