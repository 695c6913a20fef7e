package modelapi_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

// TestPromptOf reads request bodies as prompts: parts in the order given,
// an item a line, cache_control members left out wherever they are in an
// object, and the offsets just after the objects that held them.
func TestPromptOf(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		parts      []string
		want       string
		ends       []string // the bytes just before each breakpoint
	}{{
		name:  "parts in the order given, whatever the body's order; a string part is one item; a missing or null one is empty",
		body:  `{"messages":[{"role":"user","content":"Hi"}], "model":"m", "system":"Be brief.", "tools":null}`,
		parts: []string{"tools", "system", "messages", "input"},
		want:  "tools\nsystem\n\"Be brief.\"\nmessages\n{\"role\":\"user\",\"content\":\"Hi\"}\ninput\n",
	}, {
		name:  "first, middle, last and only member; nested; items compacted",
		body:  `{"tools":[{"cache_control":{"type":"ephemeral"},"name":"a"}, {"name":"b","cache_control":{"type":"ephemeral","ttl":"1h"}}], "messages":[{"content":[{"type":"tool_result","content":[{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}],"x":1},{"cache_control":{"type":"ephemeral"}}]}]}`,
		parts: []string{"tools", "messages"},
		want:  "tools\n{\"name\":\"a\"}\n{\"name\":\"b\"}\nmessages\n{\"content\":[{\"type\":\"tool_result\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"x\":1},{}]}\n",
		ends:  []string{`{"name":"a"}`, `{"name":"b"}`, `"text":"x"}`, `,{}`},
	}, {
		name:  "the name in a string, a longer name, and a value named so are kept",
		body:  `{"messages":[{"text":"\"cache_control\":{}","cache_control_x":1,"k":"cache_control"}]}`,
		parts: []string{"messages"},
		want:  "messages\n{\"text\":\"\\\"cache_control\\\":{}\",\"cache_control_x\":1,\"k\":\"cache_control\"}\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := modelapi.PromptOf([]byte(tc.body), tc.parts...)
			if err != nil {
				t.Fatal(err)
			}
			if string(p.Bytes) != tc.want {
				t.Errorf("bytes\n%s\nwant\n%s", p.Bytes, tc.want)
			}
			if len(p.Breakpoints) != len(tc.ends) {
				t.Fatalf("breakpoints %v, want %d", p.Breakpoints, len(tc.ends))
			}
			for i, b := range p.Breakpoints {
				if !strings.HasSuffix(string(p.Bytes[:b]), tc.ends[i]) {
					t.Errorf("breakpoint %d ends %q, want just after %q", i, p.Bytes[max(0, b-20):b], tc.ends[i])
				}
			}
		})
	}
	if _, err := modelapi.PromptOf([]byte(`[1]`), "messages"); err == nil {
		t.Error("a body that is not an object reads")
	}
}

// TestCommonPrefix: the bytes two prompts share, wherever they first
// differ: in the first byte, around the blocks CommonPrefix compares at a
// time, at the end of the shorter one.
func TestCommonPrefix(t *testing.T) {
	base := make([]byte, 1000)
	for i := range base {
		base[i] = byte('a' + i%26)
	}
	for _, at := range []int{0, 1, 255, 256, 257, 511, 512, 999} {
		other := append([]byte(nil), base...)
		other[at] = '#'
		p, q := modelapi.Prompt{Bytes: base}, modelapi.Prompt{Bytes: other}
		if got := modelapi.CommonPrefix(p, q); got != at {
			t.Errorf("differing at %d: %d", at, got)
		}
		if got := modelapi.CommonPrefix(q, p); got != at {
			t.Errorf("differing at %d, the other way: %d", at, got)
		}
	}
	for _, n := range []int{0, 1, 256, 300, 1000} {
		p, q := modelapi.Prompt{Bytes: base[:n]}, modelapi.Prompt{Bytes: base}
		if got := modelapi.CommonPrefix(p, q); got != n {
			t.Errorf("a prefix of %d bytes: %d", n, got)
		}
		if got := modelapi.CommonPrefix(q, p); got != n {
			t.Errorf("a prefix of %d bytes, the other way: %d", n, got)
		}
	}
}

// BenchmarkCommonPrefix compares two prompts of 500 KB that differ in their
// last byte, as a session's consecutive requests do.
func BenchmarkCommonPrefix(b *testing.B) {
	p := modelapi.Prompt{Bytes: bytes.Repeat([]byte("0123456789abcdef"), 500<<10/16)}
	q := modelapi.Prompt{Bytes: append(append([]byte(nil), p.Bytes[:len(p.Bytes)-1]...), '#')}
	b.SetBytes(int64(len(p.Bytes)))
	for b.Loop() {
		modelapi.CommonPrefix(p, q)
	}
}

// TestPromptExtends: a prompt extends another when it holds all of its
// bytes first; CommonPrefix counts what two share.
func TestPromptExtends(t *testing.T) {
	read := func(body string) modelapi.Prompt {
		p, err := modelapi.PromptOf([]byte(body), "tools", "messages")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := read(`{"tools":[{"name":"a"}],"messages":[{"c":"x"}]}`)
	two := read(`{"tools":[{"name":"a"}],"messages":[{"c":"x"},{"c":"y"}]}`)
	other := read(`{"tools":[{"name":"b"}],"messages":[{"c":"x"},{"c":"y"}]}`)
	switch {
	case !two.Extends(one) || !one.Extends(one) || one.Extends(two) || other.Extends(one):
		t.Error("Extends")
	case modelapi.CommonPrefix(one, two) != len(one.Bytes) || modelapi.CommonPrefix(two, other) != len("tools\n{\"name\":\""):
		t.Errorf("CommonPrefix %d, %d", modelapi.CommonPrefix(one, two), modelapi.CommonPrefix(two, other))
	}
}
