package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Block types the typed constructors and readers know. Any other type (a
// model's "thinking", a "document", a provider's own) is kept as it is:
// build it with RawBlock.
const (
	BlockText       = "text"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	BlockImage      = "image"
)

// TextBlock returns a plain text block.
func TextBlock(text string) ContentBlock {
	return ContentBlock{Type: BlockText, Text: text}
}

// RawBlock returns the block raw encodes, kept byte for byte: a JSON object
// with a string member "type" (and, for a text block, "text").
func RawBlock(raw json.RawMessage) (ContentBlock, error) {
	var b ContentBlock
	err := b.UnmarshalJSON(raw)
	if err != nil {
		return ContentBlock{}, err
	}
	if b.Raw == nil {
		// A plain {"type", "text"} object: keep its bytes all the same.
		if b.Raw, err = canonical(raw); err != nil {
			return ContentBlock{}, err
		}
	}
	return b, nil
}

// ToolUse is a model's call of a tool, as a "tool_use" block holds it.
type ToolUse struct {
	// ID is the call's id, which the result names.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Input is the call's arguments, a JSON object.
	Input json.RawMessage `json:"input"`
}

// ToolUseBlock returns a "tool_use" block:
// {"type":"tool_use","id":…,"name":…,"input":{…}}. input must be a JSON
// object; nil means {}.
func ToolUseBlock(id, name string, input json.RawMessage) (ContentBlock, error) {
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	if !isObject(input) {
		return ContentBlock{}, fmt.Errorf("tool_use block %q: input is not a JSON object", id)
	}
	return encodeBlock(struct {
		Type string `json:"type"`
		ToolUse
	}{BlockToolUse, ToolUse{ID: id, Name: name, Input: input}})
}

// ToolUse reads a "tool_use" block; ok is false for any other block.
func (b ContentBlock) ToolUse() (ToolUse, bool) {
	var u ToolUse
	if b.Type != BlockToolUse || json.Unmarshal(b.Raw, &u) != nil {
		return ToolUse{}, false
	}
	return u, true
}

// ToolOutput is the result of a tool call, as a "tool_result" block holds
// it.
type ToolOutput struct {
	// CallID is the id of the "tool_use" block it answers.
	CallID  string         `json:"tool_use_id"`
	Content []ContentBlock `json:"content"`
	IsError bool           `json:"is_error,omitempty"`
}

// ToolResultBlock returns a "tool_result" block:
// {"type":"tool_result","tool_use_id":…,"content":[…],"is_error":true}
// (is_error only when set).
func ToolResultBlock(callID string, content []ContentBlock, isError bool) (ContentBlock, error) {
	if content == nil {
		content = []ContentBlock{}
	}
	return encodeBlock(struct {
		Type string `json:"type"`
		ToolOutput
	}{BlockToolResult, ToolOutput{CallID: callID, Content: content, IsError: isError}})
}

// ToolResult reads a "tool_result" block; ok is false for any other block.
// A result whose content is a plain string reads as one text block.
func (b ContentBlock) ToolResult() (ToolOutput, bool) {
	if b.Type != BlockToolResult {
		return ToolOutput{}, false
	}
	var r struct {
		CallID  string          `json:"tool_use_id"`
		Content json.RawMessage `json:"content"`
		IsError bool            `json:"is_error"`
	}
	if json.Unmarshal(b.Raw, &r) != nil {
		return ToolOutput{}, false
	}
	out := ToolOutput{CallID: r.CallID, IsError: r.IsError}
	var s string
	switch {
	case len(r.Content) == 0 || string(r.Content) == "null":
	case json.Unmarshal(r.Content, &s) == nil:
		out.Content = []ContentBlock{TextBlock(s)}
	case json.Unmarshal(r.Content, &out.Content) != nil:
		return ToolOutput{}, false
	}
	return out, true
}

// Image is an image, as an "image" block holds it: inline bytes with their
// media type, or a URL.
type Image struct {
	MediaType string
	Data      []byte
	URL       string
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      []byte `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// ImageBlock returns an "image" block: inline, base64-encoded
// ({"type":"image","source":{"type":"base64","media_type":…,"data":…}}) when
// img has Data, else by URL ({"source":{"type":"url","url":…}}).
func ImageBlock(img Image) (ContentBlock, error) {
	src := imageSource{Type: "base64", MediaType: img.MediaType, Data: img.Data}
	switch {
	case len(img.Data) > 0 && img.MediaType == "":
		return ContentBlock{}, errors.New("image block: inline data without a media type")
	case len(img.Data) == 0:
		if img.URL == "" {
			return ContentBlock{}, errors.New("image block: neither data nor a URL")
		}
		src = imageSource{Type: "url", URL: img.URL}
	}
	return encodeBlock(struct {
		Type   string      `json:"type"`
		Source imageSource `json:"source"`
	}{BlockImage, src})
}

// Image reads an "image" block; ok is false for any other block, or an
// image of a source type other than "base64" and "url".
func (b ContentBlock) Image() (Image, bool) {
	var v struct {
		Source imageSource `json:"source"`
	}
	if b.Type != BlockImage || json.Unmarshal(b.Raw, &v) != nil {
		return Image{}, false
	}
	switch v.Source.Type {
	case "base64":
		return Image{MediaType: v.Source.MediaType, Data: v.Source.Data}, true
	case "url":
		return Image{URL: v.Source.URL}, true
	}
	return Image{}, false
}

// Equal reports whether two blocks are the same block: same type and text,
// and the same bytes when either keeps them.
func (b ContentBlock) Equal(o ContentBlock) bool {
	return b.Type == o.Type && b.Text == o.Text && bytes.Equal(b.Raw, o.Raw)
}

func encodeBlock(v any) (ContentBlock, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return ContentBlock{}, err
	}
	return RawBlock(raw)
}

// MarshalJSON encodes the block: Raw when it is set, else
// {"type":…,"text":…}.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	if b.Raw != nil {
		return b.Raw, nil
	}
	type plain ContentBlock // without the methods
	return json.Marshal(plain(b))
}

// UnmarshalJSON decodes a block: a JSON object with a string member
// "type". One with members besides "type" and "text" keeps its bytes in Raw.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil || members == nil {
		return fmt.Errorf("content block: not a JSON object")
	}
	var out ContentBlock
	if err := json.Unmarshal(members["type"], &out.Type); err != nil || out.Type == "" {
		return fmt.Errorf("content block: no string member \"type\"")
	}
	if t, ok := members["text"]; ok {
		if err := json.Unmarshal(t, &out.Text); err != nil {
			return fmt.Errorf("content block of type %q: member \"text\" is not a string", out.Type)
		}
	}
	delete(members, "type")
	delete(members, "text")
	if len(members) > 0 {
		raw, err := canonical(data)
		if err != nil {
			return err
		}
		out.Raw = raw
	}
	*b = out
	return nil
}

// canonical returns raw as encoding/json writes it inside a message
// (compact, HTML characters escaped), so a block's bytes are the same in
// memory, in the log and read back from it.
func canonical(raw []byte) (json.RawMessage, error) {
	out, err := json.Marshal(json.RawMessage(raw))
	if err != nil {
		return nil, fmt.Errorf("content block: %w", err)
	}
	return out, nil
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
