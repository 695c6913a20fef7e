package skillgenkit

import (
	"encoding/json"
	"testing"

	"github.com/firebase/genkit/go/ai"
)

// A tool call takes the pending request with its name and its input as
// Genkit hands it over (null members dropped), identical requests in
// turn, and gets the ref and the input as the model sent them; requests
// of other tools are not pending, and a call with nothing pending is
// told so.
func TestClaim(t *testing.T) {
	b := &binding{id: "s1"}
	ours := map[string]*ai.ToolDefinition{"skill": {Name: "skill"}, "skill_resource": {Name: "skill_resource"}}
	msg := &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
		ai.NewTextPart("Let me look."),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "skill", Input: map[string]any{"name": "a", "extra": nil}}),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "skill", Input: map[string]any{"name": "b"}}),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "skill", Input: map[string]any{"name": "b"}}),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "weather", Input: map[string]any{"city": "Oslo"}}),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "skill_resource", Ref: "given", Input: map[string]any{"name": "a"}}),
	}}
	if n := b.expect(7, msg, ours); n != 5 {
		t.Fatalf("expect counted %d tool requests, want 5", n)
	}
	reqs := func(i int) *ai.ToolRequest { return msg.Content[i].ToolRequest }
	for i := 1; i <= 4; i++ {
		if want := deriveRef("s1", 7, i, reqs(i).Name, mustJSON(t, reqs(i).Input)); reqs(i).Ref != want {
			t.Errorf("request %d has the ref %q, want %q", i, reqs(i).Ref, want)
		}
	}
	if reqs(5).Ref != "given" {
		t.Errorf("the model's own ref became %q", reqs(5).Ref)
	}

	ref, sent := b.claim("skill", map[string]any{"name": "b"})
	ref2, _ := b.claim("skill", map[string]any{"name": "b"})
	if ref != reqs(2).Ref || ref2 != reqs(3).Ref || string(sent) != `{"name":"b"}` {
		t.Errorf("the identical requests were claimed as %q and %q, want %q and %q", ref, ref2, reqs(2).Ref, reqs(3).Ref)
	}
	ref, sent = b.claim("skill", map[string]any{"name": "a"})
	if ref != reqs(1).Ref || string(sent) != `{"extra":null,"name":"a"}` {
		t.Errorf("the request with a null member was claimed as %q with %s, want %q with the null member", ref, sent, reqs(1).Ref)
	}
	ref, sent = b.claim("skill_resource", map[string]any{"name": "changed by someone"})
	if ref != "given" || sent != nil {
		t.Errorf("a call that matches no input was claimed as %q with %s, want the tool's only pending request, without its input", ref, sent)
	}
	if ref, _ := b.claim("skill", map[string]any{"name": "b"}); ref != "" {
		t.Error("a request was claimed twice")
	}
	if ref, _ := b.claim("weather", map[string]any{"city": "Oslo"}); ref != "" {
		t.Error("another tool's request was pending")
	}
	if n := b.expect(9, ai.NewModelTextMessage("Done."), ours); n != 0 || len(b.calls) != 0 {
		t.Errorf("a final answer left %d requests pending", len(b.calls))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Requests that differ only by null members reach the tools alike, so no
// call can tell which one it runs: each goes with Genkit's input, and
// neither takes the other's.
func TestClaimAmbiguous(t *testing.T) {
	b := &binding{id: "s1"}
	msg := &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "skill", Input: map[string]any{}}),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "skill", Input: map[string]any{"name": nil}}),
	}}
	b.expect(3, msg, map[string]*ai.ToolDefinition{"skill": {Name: "skill"}})
	for range 2 {
		if ref, sent := b.claim("skill", map[string]any{}); ref == "" || sent != nil {
			t.Errorf("an ambiguous call was claimed as %q with %s, want a ref and Genkit's input", ref, sent)
		}
	}
}
