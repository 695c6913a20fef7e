// Package measure computes what a provider's prompt cache makes of the
// requests of one conversation, from the requests alone: how much of each
// request is a byte-identical prefix of the one before, and how much of
// its input the provider would bill at the full rate and how much at the
// cached rate. It does no I/O.
//
// The requests are modelapi.Prompt values: the tools, system prompt and
// messages of each request as the request serialized them, in the order
// the provider reads them (anthropicapi.Prompt, openaiapi.ChatPrompt,
// openaiapi.ResponsesPrompt). Tokens are estimated as bytes divided by 4.
package measure

import (
	"slices"

	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

// Rule is how a provider decides which part of a request it reads from its
// cache. A request never reads more than it shares, byte for byte, with
// the request before it; the first request reads nothing.
type Rule int

const (
	// Breakpoints is Anthropic's explicit caching: the previous request
	// wrote the cache at each of its breakpoints; a request reads the
	// longest of those prefixes it repeats, if it has a breakpoint of its
	// own at that offset or after it. (The API also looks for an entry
	// only 20 blocks back from a breakpoint; this rule does not count
	// blocks, and the model API adapter puts a breakpoint exactly where
	// the previous request ended.)
	Breakpoints Rule = iota + 1
	// Automatic is OpenAI's automatic caching: a request reads the whole
	// prefix it repeats. (The API caches nothing below 1,024 tokens and
	// reads in steps of 128; this rule applies neither.)
	Automatic
)

// String names the rule.
func (r Rule) String() string {
	switch r {
	case Breakpoints:
		return "up to the last breakpoint repeated"
	case Automatic:
		return "whole repeated prefix"
	}
	return "no rule"
}

// Cached returns how many bytes of cur the provider reads from its cache
// after prev, under rule.
func Cached(prev, cur modelapi.Prompt, rule Rule) int {
	common := modelapi.CommonPrefix(prev, cur)
	switch rule {
	case Automatic:
		return common
	case Breakpoints:
		if len(cur.Breakpoints) == 0 {
			return 0
		}
		last, best := cur.Breakpoints[len(cur.Breakpoints)-1], 0
		for _, b := range prev.Breakpoints {
			if b <= common && b <= last {
				best = max(best, b)
			}
		}
		return best
	}
	return 0
}

// Result is the measure of a conversation's requests.
type Result struct {
	// Shares holds, for each request after the first, the share of its
	// bytes that is a byte-identical prefix of the request before it.
	Shares []float64
	// Broken counts the requests after the first that do not hold the
	// whole previous request as their prefix.
	Broken int
	// Bytes is the size of every request's prompt together; CachedBytes
	// the part of it the provider reads from its cache.
	Bytes, CachedBytes int
	// LastBytes is the size of the last request's prompt.
	LastBytes int
}

// Measure measures a conversation's requests, in order, under rule.
func Measure(reqs []modelapi.Prompt, rule Rule) Result {
	var r Result
	for i, cur := range reqs {
		r.Bytes += len(cur.Bytes)
		r.LastBytes = len(cur.Bytes)
		if i == 0 {
			continue
		}
		prev := reqs[i-1]
		share := 1.0
		if len(cur.Bytes) > 0 {
			share = float64(modelapi.CommonPrefix(prev, cur)) / float64(len(cur.Bytes))
		}
		r.Shares = append(r.Shares, share)
		if !cur.Extends(prev) {
			r.Broken++
		}
		r.CachedBytes += Cached(prev, cur, rule)
	}
	return r
}

// Median returns the median share (the mean of the middle two of an even
// count), or 0 when there is none.
func (r Result) Median() float64 {
	s := slices.Sorted(slices.Values(r.Shares))
	switch n := len(s); {
	case n == 0:
		return 0
	case n%2 == 1:
		return s[n/2]
	default:
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// Min returns the smallest share, or 0 when there is none.
func (r Result) Min() float64 {
	if len(r.Shares) == 0 {
		return 0
	}
	return slices.Min(r.Shares)
}

// Tokens estimates a number of bytes as tokens: bytes/4.
func Tokens(bytes int) float64 { return float64(bytes) / 4 }

// InputTokens estimates the input of every request together, in tokens.
func (r Result) InputTokens() float64 { return Tokens(r.Bytes) }

// CachedTokens estimates the input billed at the cached rate.
func (r Result) CachedTokens() float64 { return Tokens(r.CachedBytes) }

// FullTokens estimates the input billed at the full rate: everything not
// read from the cache (Anthropic bills the part a request writes to its
// cache at 1.25 times the full rate; this counts it at the full rate).
func (r Result) FullTokens() float64 { return Tokens(r.Bytes - r.CachedBytes) }
