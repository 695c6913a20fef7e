package skillgenkit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
)

// Genkit v1.4 runs a tool with its input alone: the ai.ToolContext holds
// no tool request, so a tool learns neither the call's id (ToolRequest.Ref)
// nor the input as the model sent it (Genkit drops null members first).
// The middleware sees every model response before Genkit runs its tools,
// so it gives each tool request without a ref a derived one, and keeps the
// requests of the adapter's tools in the Generate's binding; each tool
// call then takes the request that matches its name and input.

// pendingCall is a request of one of the adapter's tools in the newest
// model response.
type pendingCall struct {
	name string
	// key is the input as Genkit hands it to the tool (see inputKey).
	key string
	ref string
	// input is the input as the model sent it, as JSON.
	input json.RawMessage
	taken bool
}

// expect reads the tool requests of a model response that came at
// position (the number of messages the model was sent): each request
// without a ref gets a derived one, before Genkit gives it a random one,
// and those of the adapter's tools (ours) replace the previous response's
// in the binding. It returns the number of tool requests. Genkit runs all
// of a response's tools before it calls the model again, so the binding
// never holds two responses' requests.
func (b *binding) expect(position int, msg *ai.Message, ours map[string]*ai.ToolDefinition) int {
	var calls []pendingCall
	n := 0
	for i, p := range msg.Content {
		if !p.IsToolRequest() || p.ToolRequest == nil {
			continue
		}
		n++
		req := p.ToolRequest
		input, err := json.Marshal(req.Input)
		if err != nil {
			input = nil
		}
		if req.Ref == "" {
			req.Ref = deriveRef(b.id, position, i, req.Name, input)
		}
		if _, ok := ours[req.Name]; ok {
			calls = append(calls, pendingCall{name: req.Name, key: inputKey(req.Input), ref: req.Ref, input: input})
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = calls
	return n
}

// claim takes the pending request of tool name whose input is input as
// Genkit hands it over, or else the first pending request of that tool,
// and returns its ref and the input as the model sent it. Identical
// requests are taken in turn. The model's input is returned only when it
// is certainly this call's: when the request matched by input, and no
// other request of the tool in the response differs from it only by null
// members (Genkit hands both over alike); else sent is nil, and the call
// goes with Genkit's input. ref is "" when nothing is pending (the
// middleware did not run).
func (b *binding) claim(name string, input any) (ref string, sent json.RawMessage) {
	key := inputKey(input)
	b.mu.Lock()
	defer b.mu.Unlock()
	pick, exact := -1, false
	for i, c := range b.calls {
		if c.taken || c.name != name {
			continue
		}
		if c.key == key {
			pick, exact = i, true
			break
		}
		if pick < 0 {
			pick = i
		}
	}
	if pick < 0 {
		return "", nil
	}
	c := &b.calls[pick]
	c.taken = true
	if !exact {
		return c.ref, nil
	}
	for _, o := range b.calls {
		if o.name == c.name && o.key == c.key && !bytes.Equal(o.input, c.input) {
			return c.ref, nil
		}
	}
	return c.ref, c.input
}

// deriveRef is the call id of a tool request that came without one: a
// hash of the session, the response's position in the conversation the
// model was sent, the request's position among the response's parts, and
// its name and input. The same conversation derives the same ids, and
// requests at different places of a session's conversation different ones.
func deriveRef(session string, position, part int, name string, input []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %d %d %q ", session, position, part, name)
	h.Write(input)
	return "call_" + hex.EncodeToString(h.Sum(nil)[:12])
}

// inputKey is v as JSON without the null members of its objects, at any
// depth: Genkit drops them from a tool's input before the tool runs, so
// a request and the tool call that runs it have the same key.
func inputKey(v any) string {
	b, err := json.Marshal(dropNulls(v))
	if err != nil {
		return ""
	}
	return string(b)
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}
