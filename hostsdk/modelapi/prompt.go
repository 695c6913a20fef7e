package modelapi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Prompt is a serialized request as a prompt cache reads it: the parts of
// the request that make up the prompt, in the order the provider reads
// them, each item exactly as the request holds it. Two requests share a
// cached prefix only as far as their Prompts share leading bytes.
// anthropicapi.Prompt, openaiapi.ChatPrompt and openaiapi.ResponsesPrompt
// read one from a request body, so that a host can check in its tests what
// its requests give the cache.
type Prompt struct {
	// Bytes holds, for each part in order, a line naming it ("tools",
	// "system", "messages", ...), then each of its items (a tool, a
	// system block, a message) on a line of its own, as the request
	// serialized it, with every "cache_control" member left out: a
	// breakpoint marks where a cached prefix ends, and is not part of it.
	Bytes []byte
	// Breakpoints are the offsets in Bytes where the request's
	// cache_control breakpoints end a cacheable prefix, in order: just
	// after the item or content block that carries one.
	Breakpoints []int
}

// Extends reports whether p holds every byte of prev, in the same places,
// and perhaps more: whether the request of p sends its prompt cache
// everything the request of prev sent.
func (p Prompt) Extends(prev Prompt) bool { return bytes.HasPrefix(p.Bytes, prev.Bytes) }

// CommonPrefix returns how many leading bytes p and q share.
func CommonPrefix(p, q Prompt) int {
	a, b := p.Bytes, q.Bytes
	n := min(len(a), len(b))
	// A block at a time while they agree (bytes.Equal is the runtime's
	// vectorized comparison): prompts of a session share hundreds of
	// kilobytes, and a host's tests compare every request with the one
	// before.
	i := 0
	for i+prefixBlock <= n && bytes.Equal(a[i:i+prefixBlock], b[i:i+prefixBlock]) {
		i += prefixBlock
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// prefixBlock is how many bytes CommonPrefix compares at a time.
const prefixBlock = 256

// PromptOf reads a request body (a JSON object) as a Prompt whose parts
// are the body's members named by parts, in that order. A member that is
// an array gives one item per element; any other value (a string system
// prompt, say) is one item; a member that is missing or null gives none.
func PromptOf(body []byte, parts ...string) (Prompt, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return Prompt{}, fmt.Errorf("modelapi: a request body that is not a JSON object: %w", err)
	}
	var p Prompt
	for _, name := range parts {
		p.Bytes = append(append(p.Bytes, name...), '\n')
		items, err := partItems(members[name])
		if err != nil {
			return Prompt{}, fmt.Errorf("modelapi: request member %q: %w", name, err)
		}
		for _, item := range items {
			var compact bytes.Buffer
			if err := json.Compact(&compact, item); err != nil {
				return Prompt{}, fmt.Errorf("modelapi: request member %q: %w", name, err)
			}
			stripped, ends := stripCacheControl(compact.Bytes())
			for _, e := range ends {
				p.Breakpoints = append(p.Breakpoints, len(p.Bytes)+e)
			}
			p.Bytes = append(append(p.Bytes, stripped...), '\n')
		}
	}
	return p, nil
}

// partItems splits a member's value into its items.
func partItems(raw json.RawMessage) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	switch {
	case len(trimmed) == 0 || string(trimmed) == "null":
		return nil, nil
	case trimmed[0] != '[':
		return []json.RawMessage{trimmed}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(trimmed, &items); err != nil {
		return nil, err
	}
	return items, nil
}

// cacheControlKey is the member stripCacheControl leaves out, with the
// colon that ends a member's name in compact JSON.
const cacheControlKey = `"cache_control":`

// stripCacheControl returns in, a compact JSON value, without its
// "cache_control" members, at any depth; and, in the returned bytes, the
// offsets just after each object that held one.
func stripCacheControl(in []byte) ([]byte, []int) {
	out := make([]byte, 0, len(in))
	var ends []int
	type open struct{ object, marked bool }
	var stack []open
	for i := 0; i < len(in); {
		switch c := in[i]; c {
		case '"':
			if n := len(stack); n > 0 && stack[n-1].object && (in[i-1] == '{' || in[i-1] == ',') &&
				bytes.HasPrefix(in[i:], []byte(cacheControlKey)) {
				end := valueEnd(in, i+len(cacheControlKey))
				stack[n-1].marked = true
				if in[i-1] == ',' {
					out = out[:len(out)-1] // the comma before the member
				} else if end < len(in) && in[end] == ',' {
					end++ // the comma after it
				}
				i = end
				continue
			}
			j := stringEnd(in, i)
			out = append(out, in[i:j]...)
			i = j
		case '{', '[':
			stack = append(stack, open{object: c == '{'})
			out = append(out, c)
			i++
		case '}', ']':
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out = append(out, c)
			i++
			if top.marked {
				ends = append(ends, len(out))
			}
		default:
			out = append(out, c)
			i++
		}
	}
	return out, ends
}

// stringEnd returns the offset just after the JSON string that starts at
// in[i].
func stringEnd(in []byte, i int) int {
	for j := i + 1; j < len(in); j++ {
		switch in[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(in)
}

// valueEnd returns the offset just after the compact JSON value that
// starts at in[i].
func valueEnd(in []byte, i int) int {
	depth := 0
	for j := i; j < len(in); {
		switch in[j] {
		case '"':
			j = stringEnd(in, j)
			if depth == 0 {
				return j
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
		j++
	}
	return len(in)
}
