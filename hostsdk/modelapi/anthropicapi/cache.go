package anthropicapi

import (
	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// MaxBreakpoints is the most cache_control breakpoints the Messages API
// takes in one request.
const MaxBreakpoints = 4

// Place names a place of a request where Cache can put a cache_control
// breakpoint. The API reads a request's prompt as its tools, then its
// system prompt, then its messages; a breakpoint caches everything before
// it and the block it is on.
type Place string

const (
	// PlaceTools is the last tool definition: the tools are cached, and
	// stay cached when the system prompt changes.
	PlaceTools Place = "tools"
	// PlaceSystem is the last block of the system prompt: the tools and
	// the system prompt are cached, and stay cached when the conversation
	// is compacted.
	PlaceSystem Place = "system"
	// PlaceHistory is the last block of the newest user turn that came
	// before the model's newest reply: where the previous request of a
	// loop or a conversation ended. That request wrote the cache there
	// (PlaceLast), so this one reads it back, however many blocks came
	// after it (the API looks for an earlier entry only 20 blocks back
	// from a breakpoint).
	PlaceHistory Place = "history"
	// PlaceLast is the last block of the last user turn: the whole
	// conversation is written to the cache, for the next request to
	// read.
	PlaceLast Place = "last"
)

// DefaultPlaces returns the places Cache uses when Caching.Places is nil,
// in the order it gives them up when the request has breakpoints of its
// own: the last user turn, the end of the previous request, the system
// prompt, the tools.
func DefaultPlaces() []Place { return []Place{PlaceLast, PlaceHistory, PlaceSystem, PlaceTools} }

// Caching says where Request and Cache put cache_control breakpoints; nil
// means every default.
type Caching struct {
	// Off puts none.
	Off bool
	// Places are the places to put a breakpoint on, the one to keep first
	// when there are not enough left (the API takes MaxBreakpoints in a
	// request, the caller's own included); nil means DefaultPlaces. A
	// place the request does not have (no system prompt, no earlier turn)
	// takes none.
	Places []Place
	// TTL is the breakpoints' time to live: "" for the API's default (5
	// minutes), or anthropic.CacheControlEphemeralTTLTTL1h. The API wants
	// a breakpoint of a longer TTL before any of a shorter one; the
	// caller's own breakpoints must agree with it.
	TTL anthropic.CacheControlEphemeralTTL
}

// Request returns a Messages API request for a conversation and the tools
// an agent sees: its System and Messages (Messages), its Tools (Tools),
// with cache_control breakpoints where caching says (Cache). The caller
// sets Model, MaxTokens and the rest.
//
// With the default breakpoints, every request of a session whose
// conversation only grows (as the plugin keeps it: a change of skills is
// an appended message) reads back from the cache everything the previous
// request sent, and writes what it adds.
func Request(conv []hostsdk.Message, offered []tools.ResolvedTool, caching *Caching) (anthropic.MessageNewParams, error) {
	system, msgs, err := Messages(conv)
	if err != nil {
		return anthropic.MessageNewParams{}, err
	}
	params := anthropic.MessageNewParams{System: system, Messages: msgs, Tools: Tools(offered)}
	Cache(&params, caching)
	return params, nil
}

// Cache puts cache_control breakpoints into params, whose System, Tools
// and Messages are set, as caching says, and returns the places that hold
// one, in caching's order. A breakpoint goes on the last block of a place
// that can carry one (not on thinking, nor on a block passed as raw JSON).
// Breakpoints the request already has (on any block, or the top-level
// cache_control of automatic caching) stay and count against
// MaxBreakpoints; a place whose block already has one keeps it.
func Cache(params *anthropic.MessageNewParams, caching *Caching) []Place {
	var c Caching
	if caching != nil {
		c = *caching
	}
	if c.Off {
		return nil
	}
	places := c.Places
	if places == nil {
		places = DefaultPlaces()
	}
	free := MaxBreakpoints - countBreakpoints(params)
	var held []Place
	seen := map[*anthropic.CacheControlEphemeralParam]bool{}
	for _, p := range places {
		cc := target(params, p)
		if cc == nil || seen[cc] {
			continue
		}
		seen[cc] = true
		if !param.IsOmitted(*cc) {
			held = append(held, p)
			continue
		}
		if free <= 0 {
			continue
		}
		*cc = anthropic.NewCacheControlEphemeralParam()
		cc.TTL = c.TTL
		free--
		held = append(held, p)
	}
	return held
}

// target returns the cache control of the block a place names, or nil.
func target(params *anthropic.MessageNewParams, p Place) *anthropic.CacheControlEphemeralParam {
	switch p {
	case PlaceTools:
		for i := len(params.Tools) - 1; i >= 0; i-- {
			if cc := params.Tools[i].GetCacheControl(); cc != nil {
				return cc
			}
		}
	case PlaceSystem:
		for i := len(params.System) - 1; i >= 0; i-- {
			if params.System[i].Text != "" {
				return &params.System[i].CacheControl
			}
		}
	case PlaceLast, PlaceHistory:
		last := lastTurn(params.Messages, len(params.Messages), false)
		if p == PlaceHistory {
			last = lastTurn(params.Messages, lastTurn(params.Messages, last, true), false)
		}
		if last < 0 {
			return nil
		}
		return lastMarkable(params.Messages[last].OfUser)
	}
	return nil
}

// lastTurn returns the index of the last user turn (or, with assistant,
// assistant turn) before before, or -1.
func lastTurn(msgs []anthropic.MessageParam, before int, assistant bool) int {
	for i := before - 1; i >= 0; i-- {
		if (assistant && msgs[i].OfAssistant != nil) || (!assistant && msgs[i].OfUser != nil) {
			return i
		}
	}
	return -1
}

// lastMarkable returns the cache control of the last block of a user turn
// that can carry one.
func lastMarkable(turn *anthropic.UserMessageParam) *anthropic.CacheControlEphemeralParam {
	for i := len(turn.Content) - 1; i >= 0; i-- {
		if cc := turn.Content[i].GetCacheControl(); cc != nil {
			return cc
		}
	}
	return nil
}

// countBreakpoints counts the breakpoints a request already has.
func countBreakpoints(params *anthropic.MessageNewParams) int {
	n := 0
	set := func(cc *anthropic.CacheControlEphemeralParam) {
		if cc != nil && !param.IsOmitted(*cc) {
			n++
		}
	}
	set(&params.CacheControl)
	for _, t := range params.Tools {
		set(t.GetCacheControl())
	}
	for i := range params.System {
		set(&params.System[i].CacheControl)
	}
	for _, m := range params.Messages {
		var content []anthropic.ContentBlockParamUnion
		switch {
		case m.OfUser != nil:
			content = m.OfUser.Content
		case m.OfAssistant != nil:
			content = m.OfAssistant.Content
		}
		for _, b := range content {
			set(b.GetCacheControl())
			if r := b.OfToolResult; r != nil {
				for _, c := range r.Content {
					set(c.GetCacheControl())
				}
			}
		}
	}
	return n
}

// Prompt reads a Messages API request body as its prompt cache does: the
// tools, the system prompt and the messages, in that order, each item as
// the request holds it but for its cache_control member, with the offsets
// where its breakpoints end a cached prefix. A top-level cache_control
// (automatic caching) is not among them.
func Prompt(body []byte) (modelapi.Prompt, error) {
	return modelapi.PromptOf(body, "tools", "system", "messages")
}
