// Package openaiapi connects a host's session to OpenAI's APIs through
// their official Go SDK (github.com/openai/openai-go): the Chat Completions
// API (ChatTools, ChatMessages, ChatMessage) and the Responses API
// (ResponsesTools, ResponsesInput, ResponsesMessage). A runtime uses one of
// the two for a session.
//
// The session keeps its content blocks in the shapes the hostsdk package
// names ("tool_use", "tool_result", "image"); the converters map them onto
// each API: an assistant's "tool_use" blocks to function calls (their
// input as the arguments text), "tool_result" blocks to tool outputs
// answering the call with the same id, images to image parts (inline
// images as data URLs). Neither API has an error flag on a tool output: an
// error result goes as its text (the plugin's error texts start with
// "Error:"). Blocks an API has no form for (another API's thinking, a
// refusal in the Responses API) are left out of its requests. The plugin's
// catalog messages are user text and arrive as user content; system
// messages stay in place as system messages.
//
// The model's function calls come back as "tool_use" blocks made by
// modelapi.ToolUseBlock: arguments that are a JSON object become the
// block's input, compacted; any other text is kept as it came, for the
// tool to report.
package openaiapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// blockRefusal is the type of the block that keeps a model's refusal.
const blockRefusal = "refusal"

// functionJSON returns a tool as a function definition's JSON, its
// parameters schema byte for byte ({"type":"object"} when it has none),
// with the extra members of the API's form.
func functionJSON(d tools.Definition, extra map[string]any) (json.RawMessage, error) {
	schema := d.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	v := map[string]any{"name": d.Name, "parameters": schema}
	if d.Description != "" {
		v["description"] = d.Description
	}
	for k, x := range extra {
		v[k] = x
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", d.Name, err)
	}
	return raw, nil
}

// resultParts splits a tool result's content into its text (the text
// blocks joined) and its images.
func resultParts(r hostsdk.ToolOutput) (string, []hostsdk.Image) {
	var text strings.Builder
	var images []hostsdk.Image
	for _, c := range r.Content {
		switch c.Type {
		case hostsdk.BlockText:
			text.WriteString(c.Text)
		case hostsdk.BlockImage:
			if img, ok := c.Image(); ok {
				images = append(images, img)
			}
		}
	}
	return text.String(), images
}

// imageURL returns an image's URL: its own, or a data URL of its bytes.
func imageURL(img hostsdk.Image) string {
	if img.URL != "" {
		return img.URL
	}
	return "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

// refusal returns the text of a refusal block.
func refusal(b hostsdk.ContentBlock) (string, bool) {
	var v struct {
		Refusal string `json:"refusal"`
	}
	if b.Type != blockRefusal || json.Unmarshal(b.Raw, &v) != nil {
		return "", false
	}
	return v.Refusal, true
}

func refusalBlock(text string) (hostsdk.ContentBlock, error) {
	raw, err := json.Marshal(struct {
		Type    string `json:"type"`
		Refusal string `json:"refusal"`
	}{blockRefusal, text})
	if err != nil {
		return hostsdk.ContentBlock{}, err
	}
	return hostsdk.RawBlock(raw)
}

// arguments returns a "tool_use" block's call id, name and arguments text.
func arguments(b hostsdk.ContentBlock) (id, name, args string, err error) {
	u, ok := b.ToolUse()
	raw, _ := modelapi.Arguments(b)
	if !ok {
		return "", "", "", fmt.Errorf("a %q block that does not decode", b.Type)
	}
	return u.ID, u.Name, string(raw), nil
}
