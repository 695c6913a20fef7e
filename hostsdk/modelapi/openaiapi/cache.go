package openaiapi

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// CacheKey returns the prompt_cache_key of a session: "skillcatalog-" and
// the first 32 hex digits of the SHA-256 of its id. The same session
// always has the same key, every session its own, and an id that is long
// or says too much is not sent as it is. "" for no session.
func CacheKey(sessionID string) string {
	if sessionID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(sessionID))
	return "skillcatalog-" + hex.EncodeToString(sum[:16])
}

// Caching says what prompt_cache_key ChatRequest and ResponsesRequest
// send; nil means CacheKey of the session.
//
// OpenAI caches a prompt's prefix by itself, from 1,024 tokens on, on the
// machine a request is routed to; the route follows a hash of the prompt's
// first tokens and, when the request has one, its prompt_cache_key. One
// key per session keeps a session's requests, which share their whole
// prefix, together, and apart from other sessions' traffic.
type Caching struct {
	// Key is sent instead of CacheKey(sessionID): one key for the sessions
	// of an agent whose long system prompt they share, say.
	Key string
	// Off sends no prompt_cache_key.
	Off bool
}

// key returns the prompt_cache_key to send for a session.
func (c *Caching) key(sessionID string) param.Opt[string] {
	switch {
	case c == nil:
	case c.Off:
		return param.Opt[string]{}
	case c.Key != "":
		return param.NewOpt(c.Key)
	}
	if k := CacheKey(sessionID); k != "" {
		return param.NewOpt(k)
	}
	return param.Opt[string]{}
}

// ChatRequest returns a Chat Completions request for a session's
// conversation and the tools its agent sees: its Messages (ChatMessages),
// Tools (ChatTools) and PromptCacheKey (as caching says). The caller sets
// Model and the rest.
func ChatRequest(sessionID string, conv []hostsdk.Message, offered []tools.ResolvedTool, caching *Caching) (openai.ChatCompletionNewParams, error) {
	msgs, err := ChatMessages(conv)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	defs, err := ChatTools(offered)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	return openai.ChatCompletionNewParams{Messages: msgs, Tools: defs, PromptCacheKey: caching.key(sessionID)}, nil
}

// ResponsesRequest returns a Responses request for a session's
// conversation and the tools its agent sees: its Input (ResponsesInput),
// Tools (ResponsesTools) and PromptCacheKey (as caching says). The caller
// sets Model and the rest.
func ResponsesRequest(sessionID string, conv []hostsdk.Message, offered []tools.ResolvedTool, caching *Caching) (responses.ResponseNewParams, error) {
	input, err := ResponsesInput(conv)
	if err != nil {
		return responses.ResponseNewParams{}, err
	}
	defs, err := ResponsesTools(offered)
	if err != nil {
		return responses.ResponseNewParams{}, err
	}
	return responses.ResponseNewParams{
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}, Tools: defs,
		PromptCacheKey: caching.key(sessionID),
	}, nil
}

// ChatPrompt reads a Chat Completions request body as its prompt cache
// does: the tools, then the messages, each as the request holds it.
func ChatPrompt(body []byte) (modelapi.Prompt, error) {
	return modelapi.PromptOf(body, "tools", "messages")
}

// ResponsesPrompt reads a Responses request body as its prompt cache
// does: the tools, then the instructions, then the input items, each as
// the request holds it.
func ResponsesPrompt(body []byte) (modelapi.Prompt, error) {
	return modelapi.PromptOf(body, "tools", "instructions", "input")
}
