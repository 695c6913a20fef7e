package mcpfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// OversizedSkill is the one skill an Oversized server lists.
const OversizedSkill = "big"

// Oversized is a streamable HTTP MCP server that answers reads with texts of
// a chosen size, generated while they are sent, so that it can send hundreds
// of megabytes without holding them: the hostile server a client's bounds
// are tested against. It speaks just enough of the protocol for the official
// SDK's client to connect: server/discover is refused, initialize is
// answered, notifications are accepted, and the standalone event stream is
// refused (405). Its fields must not change while it serves.
type Oversized struct {
	// IndexBytes is the size of the index text when positive; the index then
	// lists OversizedSkill with a description padded to that size. When zero
	// the index is small and lists OversizedSkill.
	IndexBytes int64
	// BodyBytes is the size of OversizedSkill's SKILL.md text.
	BodyBytes int64
	// InitializeBytes, when positive, pads the initialize response to about
	// that size.
	InitializeBytes int64
	// SSE makes reads answered as an event stream (one event carrying the
	// response) instead of a JSON body.
	SSE bool

	sent atomic.Int64
}

// Sent returns how many bytes of read responses the server has written so
// far. A client that stops reading a response early makes the server's
// writes fail soon after, so Sent stays well below the response's size.
func (o *Oversized) Sent() int64 { return o.sent.Load() }

type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (o *Oversized) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
		return
	}
	var req rpcRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted) // a notification
		return
	}
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		result, _ := json.Marshal(map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"resources": map[string]any{}},
			"serverInfo":      map[string]any{"name": "oversized", "version": "1"},
			"instructions":    strings.Repeat("a", int(max(o.InitializeBytes, 0))),
		})
		o.reply(w, req.ID, string(result))
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(req.Params, &p)
		o.read(w, req.ID, p.URI)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
	}
}

func (o *Oversized) reply(w http.ResponseWriter, id json.RawMessage, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// read answers with a text made of prefix, n filler bytes and suffix.
func (o *Oversized) read(w http.ResponseWriter, id json.RawMessage, uri string) {
	var prefix, suffix string
	var n int64
	switch uri {
	case IndexURI:
		prefix = `{"skills":[{"name":"` + OversizedSkill + `","type":"skill-md","url":"` + SkillURI(OversizedSkill) + `","description":"Big `
		suffix = `"}]}`
		n = max(o.IndexBytes-int64(len(prefix)+len(suffix)), 0)
	case SkillURI(OversizedSkill):
		prefix, suffix = "# Big\n", "\n"
		n = max(o.BodyBytes-int64(len(prefix)+len(suffix)), 0)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32002,"message":"resource not found"}}`, id)
		return
	}
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"contents":[{"uri":%s,"text":"%s`, id, quote(uri), escape(prefix))
	tail := escape(suffix) + `"}]}}`
	if o.SSE {
		w.Header().Set("Content-Type", "text/event-stream")
		head = "event: message\ndata: " + head
		tail += "\n\n"
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	flusher, _ := w.(http.Flusher)
	write := func(b []byte) bool {
		k, err := w.Write(b)
		o.sent.Add(int64(k))
		return err == nil
	}
	if !write([]byte(head)) {
		return
	}
	filler := bytes.Repeat([]byte("a"), 64<<10)
	for n > 0 {
		chunk := filler[:min(n, int64(len(filler)))]
		if !write(chunk) {
			return
		}
		n -= int64(len(chunk))
		if flusher != nil {
			flusher.Flush()
		}
	}
	write([]byte(tail))
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// escape returns s as the inside of a JSON string literal.
func escape(s string) string {
	return strings.TrimSuffix(strings.TrimPrefix(quote(s), `"`), `"`)
}
