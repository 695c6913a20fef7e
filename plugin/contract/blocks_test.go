package contract_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

func TestBlockConstructorsWriteTheAPIShapes(t *testing.T) {
	must := func(b contract.ContentBlock, err error) contract.ContentBlock {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name  string
		block contract.ContentBlock
		want  string
	}{
		{"text", contract.TextBlock("hi <b>"), `{"type":"text","text":"hi \u003cb\u003e"}`},
		{"tool use", must(contract.ToolUseBlock("c1", "skill", json.RawMessage(`{"name": "pdf"}`))), `{"type":"tool_use","id":"c1","name":"skill","input":{"name":"pdf"}}`},
		{"tool use without input", must(contract.ToolUseBlock("c1", "now", nil)), `{"type":"tool_use","id":"c1","name":"now","input":{}}`},
		{"tool result", must(contract.ToolResultBlock("c1", []contract.ContentBlock{contract.TextBlock("ok")}, false)), `{"type":"tool_result","tool_use_id":"c1","content":[{"type":"text","text":"ok"}]}`},
		{"error result", must(contract.ToolResultBlock("c1", nil, true)), `{"type":"tool_result","tool_use_id":"c1","content":[],"is_error":true}`},
		{"inline image", must(contract.ImageBlock(contract.Image{MediaType: "image/png", Data: []byte{1, 2, 3}})), `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AQID"}}`},
		{"image by url", must(contract.ImageBlock(contract.Image{URL: "https://x/y.png"})), `{"type":"image","source":{"type":"url","url":"https://x/y.png"}}`},
		{"raw, made canonical", must(contract.RawBlock(json.RawMessage(`{ "type" : "thinking", "thinking": "a<b" }`))), `{"type":"thinking","thinking":"a\u003cb"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.block)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("encodes as %s, want %s", got, tt.want)
			}
			var back contract.ContentBlock
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(back)
			if !bytes.Equal(again, got) {
				t.Errorf("read back and encoded again: %s, want %s", again, got)
			}
		})
	}
}

// TestRawTextBlockKeepsItsBytes: a plain text block given raw encodes as it
// came (compacted), its members in its order, where a text block read from
// JSON is written in the canonical order.
func TestRawTextBlockKeepsItsBytes(t *testing.T) {
	raw := json.RawMessage(`{ "text": "hi", "type": "text" }`)
	b, err := contract.RawBlock(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(b); string(got) != `{"text":"hi","type":"text"}` {
		t.Errorf("raw text block encodes as %s, want its own bytes", got)
	}
	var read contract.ContentBlock
	if err := json.Unmarshal(raw, &read); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(read); string(got) != `{"type":"text","text":"hi"}` {
		t.Errorf("text block read from JSON encodes as %s, want the canonical order", got)
	}
}

func TestBlockConstructorsRefuseWhatNoAPIAccepts(t *testing.T) {
	if _, err := contract.ToolUseBlock("c1", "x", json.RawMessage(`[1]`)); err == nil {
		t.Error("a tool_use input that is not an object was accepted")
	}
	if _, err := contract.ImageBlock(contract.Image{Data: []byte{1}}); err == nil {
		t.Error("inline image data without a media type was accepted")
	}
	if _, err := contract.ImageBlock(contract.Image{}); err == nil {
		t.Error("an image with neither data nor URL was accepted")
	}
	for _, raw := range []string{`[]`, `"text"`, `null`, `{}`, `{"type":1}`, `{"type":""}`, `{"type":"text","text":5}`, `{"type":"x"`} {
		if _, err := contract.RawBlock(json.RawMessage(raw)); err == nil {
			t.Errorf("RawBlock(%s) was accepted", raw)
		}
	}
}

func TestBlockReaders(t *testing.T) {
	var blocks []contract.ContentBlock
	if err := json.Unmarshal([]byte(`[
		{"type":"text","text":"plain"},
		{"type":"tool_use","id":"c1","name":"skill","input":{"name":"pdf"}},
		{"type":"tool_result","tool_use_id":"c1","content":"a string result","is_error":true},
		{"type":"image","source":{"type":"base64","media_type":"image/gif","data":"R0lG"}},
		{"type":"image","source":{"type":"file","file_id":"f1"}}
	]`), &blocks); err != nil {
		t.Fatal(err)
	}
	if blocks[0].Raw != nil || blocks[0].Text != "plain" {
		t.Errorf("plain text block read as %+v", blocks[0])
	}
	if _, ok := blocks[0].ToolUse(); ok {
		t.Error("a text block read as a tool_use")
	}
	if u, ok := blocks[1].ToolUse(); !ok || u.ID != "c1" || string(u.Input) != `{"name":"pdf"}` {
		t.Errorf("tool_use read as %+v, %v", u, ok)
	}
	if r, ok := blocks[2].ToolResult(); !ok || r.CallID != "c1" || !r.IsError || len(r.Content) != 1 || r.Content[0].Text != "a string result" {
		t.Errorf("tool_result with string content read as %+v, %v", r, ok)
	}
	if img, ok := blocks[3].Image(); !ok || img.MediaType != "image/gif" || string(img.Data) != "GIF" {
		t.Errorf("image read as %+v, %v", img, ok)
	}
	if _, ok := blocks[4].Image(); ok {
		t.Error("an image of an unknown source type read as an image")
	}
	// Text() reads text blocks only: a tool result's text is not the message's.
	m := contract.Message{Content: blocks}
	if m.Text() != "plain" {
		t.Errorf("Text() = %q", m.Text())
	}
}

func TestPlainTextBlockFromALogStaysPlain(t *testing.T) {
	var b contract.ContentBlock
	if err := json.Unmarshal([]byte(`{"type":"text","text":"x"}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.Raw != nil {
		t.Errorf("kept raw bytes %s for a plain text block", b.Raw)
	}
	b.Text = "edited"
	got, _ := json.Marshal(b)
	if string(got) != `{"type":"text","text":"edited"}` {
		t.Errorf("an edited plain text block encodes as %s", got)
	}
}

// FuzzContentBlockJSON: a block read from untrusted JSON either fails with
// an error or encodes to bytes that read back to the same block.
func FuzzContentBlockJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"text","text":"x"}`, `{"type":"tool_use","id":"a","name":"b","input":{}}`,
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}`,
		`{"type":"x","y":[1,2,{"z":null}]}`, `{"type":"text","text":"\u003c"}`, `{"type":"t","text":""}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b contract.ContentBlock
		if err := json.Unmarshal([]byte(s), &b); err != nil {
			return
		}
		if b.Type == "" {
			t.Fatalf("%q read as a block without a type", s)
		}
		enc, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("%q read, but does not encode: %v", s, err)
		}
		var back contract.ContentBlock
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("%q encoded as %s, which does not read: %v", s, enc, err)
		}
		if !back.Equal(b) {
			t.Fatalf("%q: %+v encoded as %s and read back as %+v", s, b, enc, back)
		}
		if strings.Contains(string(enc), "\n") {
			t.Fatalf("%q encoded with a newline: %s", s, enc)
		}
	})
}
