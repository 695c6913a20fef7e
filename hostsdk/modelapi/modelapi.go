// Package modelapi connects a host's session to the official Go SDKs of the
// model APIs: package anthropicapi to Anthropic's Messages API
// (github.com/anthropics/anthropic-sdk-go), package openaiapi to OpenAI's
// Chat Completions and Responses APIs (github.com/openai/openai-go). Each
// turns the tools an agent sees (tools.Tree.Visible) into the API's tool
// definitions, the step's messages (a session's Session.Transcript, say) into
// the API's request messages, and the model's response back into an
// assistant hostsdk.Message whose tool calls are "tool_use" blocks.
//
// This package holds what is the same for every API: the tool calls of an
// assistant message as hostsdk.ToolCall values for Session.CallTool (Calls),
// and the message that carries their results back (ResultMessage), which
// every adapter converts into the API's own form.
//
// It is a Go module of its own, so that the core module, and a host that
// reaches its model another way, does not depend on any model SDK.
package modelapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// ArgumentsMember is the member of a "tool_use" block that keeps a call's
// arguments as the model wrote them when they are not a JSON object (APIs
// that send arguments as text, such as OpenAI's, can return malformed
// ones). Calls hands them on unchanged, so the tool reports the error the
// model can correct.
const ArgumentsMember = "arguments"

// ToolUseBlock returns the "tool_use" block of a call whose arguments came
// as JSON text: with the arguments, compacted, as its input when they are a
// JSON object; else with an empty input and the text kept in
// ArgumentsMember.
func ToolUseBlock(id, name, arguments string) (hostsdk.ContentBlock, error) {
	var compact bytes.Buffer
	if json.Compact(&compact, []byte(arguments)) == nil && isObject(compact.Bytes()) {
		return hostsdk.ToolUseBlock(id, name, compact.Bytes())
	}
	raw, err := json.Marshal(struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		Arguments string          `json:"arguments"`
	}{hostsdk.BlockToolUse, id, name, json.RawMessage(`{}`), arguments})
	if err != nil {
		return hostsdk.ContentBlock{}, fmt.Errorf("tool call %q: %w", id, err)
	}
	return hostsdk.RawBlock(raw)
}

// Arguments returns the arguments of a "tool_use" block as the model sent
// them: the text ToolUseBlock kept for arguments that are not a JSON
// object, else the block's input.
func Arguments(b hostsdk.ContentBlock) (json.RawMessage, bool) {
	u, ok := b.ToolUse()
	if !ok {
		return nil, false
	}
	var v struct {
		Arguments *string `json:"arguments"`
	}
	if json.Unmarshal(b.Raw, &v) == nil && v.Arguments != nil {
		return json.RawMessage(*v.Arguments), true
	}
	return u.Input, true
}

// Calls returns the tool calls of an assistant message, one per "tool_use"
// block, in order, ready for Session.CallTool: CallID, Name and Arguments
// come from the block.
func Calls(msg hostsdk.Message) []hostsdk.ToolCall {
	var calls []hostsdk.ToolCall
	for _, b := range msg.Content {
		u, ok := b.ToolUse()
		if !ok {
			continue
		}
		call := hostsdk.ToolCall{CallID: u.ID, Name: u.Name}
		call.Arguments, _ = Arguments(b)
		calls = append(calls, call)
	}
	return calls
}

// Result is a tool call's result, with the id of the call it answers.
type Result struct {
	CallID string
	Result hostsdk.ToolResult
}

// ResultMessage returns the message that carries tool results to the model:
// role tool, one "tool_result" block per result, in order, each holding the
// result's text as one text block and its error flag. Append it to the
// session (Session.Append, or the messages proposed to Session.Step); the adapters turn
// it into the API's tool-result form.
func ResultMessage(id string, results ...Result) (hostsdk.Message, error) {
	msg := hostsdk.Message{ID: id, Role: hostsdk.RoleTool}
	for _, r := range results {
		b, err := hostsdk.ToolResultBlock(r.CallID, []hostsdk.ContentBlock{hostsdk.TextBlock(r.Result.Text)}, r.Result.IsError)
		if err != nil {
			return hostsdk.Message{}, fmt.Errorf("result of tool call %q: %w", r.CallID, err)
		}
		msg.Content = append(msg.Content, b)
	}
	return msg, nil
}

func isObject(raw []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
