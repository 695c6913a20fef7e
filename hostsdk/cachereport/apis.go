package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/openaiapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// reply is the model's reply to one call: a call of the skill tool that
// loads a skill (load, with the call's id), or an answer.
type reply struct {
	callID, load string
	answer       string
}

// replies returns the model's replies to the conversation's calls, in
// order: in each turn it loads the turn's skill, if it has one, then
// answers.
func replies(turns []turn) []reply {
	var out []reply
	for i, t := range turns {
		if t.load != "" {
			out = append(out, reply{callID: fmt.Sprintf("call_%02d", i+1), load: t.load})
		}
		out = append(out, reply{answer: t.answer})
	}
	return out
}

// sendFunc sends a session's conversation and tools to a model API and
// returns the model's reply.
type sendFunc func(ctx context.Context, session string, conv []hostsdk.Message, defs []tools.Definition) (hostsdk.Message, error)

// modelAPI is one model API as the table measures it: the adapter's
// request, sent through the API's official SDK client; the API's response
// to a scripted reply; how a request body reads as a prompt; the API's
// cache rule.
type modelAPI struct {
	name string
	rule measure.Rule
	// prices are the API's published ratios, for the bill.
	prices  measure.Prices
	connect func(url string) sendFunc
	respond func(n int, r reply) string
	prompt  func(body []byte) (modelapi.Prompt, error)
}

// resolved returns definitions as the adapters take them.
func resolved(defs []tools.Definition) []tools.ResolvedTool {
	out := make([]tools.ResolvedTool, len(defs))
	for i, d := range defs {
		out[i] = tools.ResolvedTool{Definition: d}
	}
	return out
}

// anthropicMessages is Anthropic's Messages API through anthropicapi.Request,
// with its default cache breakpoints.
func anthropicMessages() modelAPI {
	return modelAPI{name: "Anthropic Messages", rule: measure.Breakpoints, prices: measure.AnthropicPrices(), prompt: anthropicapi.Prompt,
		connect: func(url string) sendFunc {
			client := anthropic.NewClient(anthropicoption.WithBaseURL(url), anthropicoption.WithAPIKey("report"), anthropicoption.WithMaxRetries(0))
			return func(ctx context.Context, _ string, conv []hostsdk.Message, defs []tools.Definition) (hostsdk.Message, error) {
				params, err := anthropicapi.Request(conv, resolved(defs), nil)
				if err != nil {
					return hostsdk.Message{}, err
				}
				params.Model, params.MaxTokens = "claude-report", 1024
				resp, err := client.Messages.New(ctx, params)
				if err != nil {
					return hostsdk.Message{}, err
				}
				return anthropicapi.Message(resp)
			}
		},
		respond: func(n int, r reply) string {
			content, stop := []any{map[string]any{"type": "text", "text": r.answer}}, "end_turn"
			if r.load != "" {
				content = []any{map[string]any{"type": "tool_use", "id": r.callID, "name": "skill", "input": map[string]string{"name": r.load}}}
				stop = "tool_use"
			}
			return jsonText(map[string]any{"id": fmt.Sprintf("msg_%02d", n), "type": "message", "role": "assistant", "model": "claude-report",
				"stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}, "content": content})
		},
	}
}

// chatCompletions is OpenAI's Chat Completions API through
// openaiapi.ChatRequest, with the session's prompt_cache_key.
func chatCompletions() modelAPI {
	return modelAPI{name: "OpenAI Chat Completions", rule: measure.Automatic, prices: measure.OpenAIPrices(), prompt: openaiapi.ChatPrompt,
		connect: func(url string) sendFunc {
			client := openai.NewClient(openaioption.WithBaseURL(url+"/v1/"), openaioption.WithAPIKey("report"), openaioption.WithMaxRetries(0))
			return func(ctx context.Context, session string, conv []hostsdk.Message, defs []tools.Definition) (hostsdk.Message, error) {
				params, err := openaiapi.ChatRequest(session, conv, resolved(defs), nil)
				if err != nil {
					return hostsdk.Message{}, err
				}
				params.Model = "gpt-report"
				resp, err := client.Chat.Completions.New(ctx, params)
				if err != nil {
					return hostsdk.Message{}, err
				}
				return openaiapi.ChatMessage(resp)
			}
		},
		respond: func(n int, r reply) string {
			msg, finish := map[string]any{"role": "assistant", "content": r.answer, "refusal": nil}, "stop"
			if r.load != "" {
				msg["tool_calls"] = []any{map[string]any{"id": r.callID, "type": "function",
					"function": map[string]string{"name": "skill", "arguments": jsonText(map[string]string{"name": r.load})}}}
				finish = "tool_calls"
			}
			return jsonText(map[string]any{"id": fmt.Sprintf("chatcmpl-%02d", n), "object": "chat.completion", "created": 1, "model": "gpt-report",
				"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil, "message": msg}}})
		},
	}
}

// responsesAPI is OpenAI's Responses API through openaiapi.ResponsesRequest,
// with the session's prompt_cache_key.
func responsesAPI() modelAPI {
	return modelAPI{name: "OpenAI Responses", rule: measure.Automatic, prices: measure.OpenAIPrices(), prompt: openaiapi.ResponsesPrompt,
		connect: func(url string) sendFunc {
			client := openai.NewClient(openaioption.WithBaseURL(url+"/v1/"), openaioption.WithAPIKey("report"), openaioption.WithMaxRetries(0))
			return func(ctx context.Context, session string, conv []hostsdk.Message, defs []tools.Definition) (hostsdk.Message, error) {
				params, err := openaiapi.ResponsesRequest(session, conv, resolved(defs), nil)
				if err != nil {
					return hostsdk.Message{}, err
				}
				params.Model = "gpt-report"
				resp, err := client.Responses.New(ctx, params)
				if err != nil {
					return hostsdk.Message{}, err
				}
				return openaiapi.ResponsesMessage(resp)
			}
		},
		respond: func(n int, r reply) string {
			item := map[string]any{"type": "message", "id": fmt.Sprintf("msg_%02d", n), "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": r.answer, "annotations": []any{}}}}
			if r.load != "" {
				item = map[string]any{"type": "function_call", "id": "fc_" + r.callID, "call_id": r.callID, "name": "skill",
					"arguments": jsonText(map[string]string{"name": r.load}), "status": "completed"}
			}
			return jsonText(map[string]any{"id": fmt.Sprintf("resp_%02d", n), "object": "response", "created_at": 1, "status": "completed",
				"model": "gpt-report", "output": []any{item}, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{}})
		},
	}
}

func jsonText(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of strings, numbers and slices of them
	}
	return string(raw)
}

// recorder is a loopback HTTP server that plays a model API: it answers
// the nth request with the nth response and keeps every request's body.
type recorder struct {
	srv       *httptest.Server
	mu        sync.Mutex
	responses []string
	bodies    [][]byte
}

func newRecorder(responses []string) *recorder {
	r := &recorder{responses: responses}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

func (r *recorder) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	n := len(r.bodies)
	r.bodies = append(r.bodies, body)
	r.mu.Unlock()
	if n >= len(r.responses) {
		http.Error(w, `{"error":{"type":"report","message":"no response left"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, r.responses[n])
}

// prompts returns the recorded requests as prompts.
func (r *recorder) prompts(read func([]byte) (modelapi.Prompt, error)) ([]modelapi.Prompt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]modelapi.Prompt, len(r.bodies))
	for i, b := range r.bodies {
		p, err := read(b)
		if err != nil {
			return nil, fmt.Errorf("request %d: %w", i+1, err)
		}
		out[i] = p
	}
	return out, nil
}
