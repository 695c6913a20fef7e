// Package measure computes what a provider's prompt cache makes of the
// requests of one conversation, from the requests alone: how much of each
// request is a byte-identical prefix of the one before; how much of its
// input the provider reads from its cache, how much it writes to it, and
// how much it bills at the plain input rate; what that comes to at a
// provider's prices; and, for parts of the requests a caller names, the
// same for each part. It does no I/O.
//
// The requests are modelapi.Prompt values: the tools, system prompt and
// messages of each request as the request serialized them, in the order
// the provider reads them (anthropicapi.Prompt, openaiapi.ChatPrompt,
// openaiapi.ResponsesPrompt). Which bytes the cache reads is decided on
// those bytes; how many tokens they are is estimated from the text the
// API reads in them: the JSON with every string's escapes decoded (an
// escaped "<", six bytes on the wire, is one character to the model), in
// bytes, divided by 4.
package measure

import (
	"bytes"
	"slices"
	"unicode/utf8"

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
	// own at that offset or after it, and writes what it does not read up
	// to its last breakpoint. (The API also looks for an entry only 20
	// blocks back from a breakpoint; this rule does not count blocks, and
	// the model API adapter puts a breakpoint exactly where the previous
	// request ended.)
	Breakpoints Rule = iota + 1
	// Automatic is OpenAI's automatic caching: a request reads the whole
	// prefix it repeats, and writing costs nothing. (The API caches
	// nothing below 1,024 tokens and reads in steps of 128; this rule
	// applies neither.)
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

// WrittenTo returns the offset in cur up to which the provider writes its
// cache when it reads the first cached bytes of cur, under rule: the last
// breakpoint of cur under Breakpoints (cached itself when that comes
// before it, or there is none); cached under Automatic, which bills no
// writes.
func WrittenTo(cur modelapi.Prompt, cached int, rule Rule) int {
	if rule != Breakpoints || len(cur.Breakpoints) == 0 {
		return cached
	}
	return max(cached, cur.Breakpoints[len(cur.Breakpoints)-1])
}

// Prices are a provider's rates for input, as multiples of its rate for
// input it neither reads from its cache nor writes to it.
type Prices struct {
	// Read is the rate of input read from the cache.
	Read float64
	// Write is the rate of input written to the cache: 1 where writing
	// costs nothing more.
	Write float64
}

// AnthropicPrices are Anthropic's published ratios for every current
// model: a write to the cache with the default five-minute lifetime costs
// 1.25 times the input rate, a read from it 0.1 times.
func AnthropicPrices() Prices { return Prices{Read: 0.1, Write: 1.25} }

// OpenAIPrices are OpenAI's published ratio for its current (GPT-5 family)
// models: cached input costs 0.1 times the input rate, and writing the
// cache costs nothing more.
func OpenAIPrices() Prices { return Prices{Read: 0.1, Write: 1} }

// Counts are sizes of input, in bytes of text (see Tokens), by how the
// provider bills them.
type Counts struct {
	// Bytes is all of it.
	Bytes int
	// Cached is the part read from the cache.
	Cached int
	// Written is the part written to the cache, not read from it.
	Written int
}

// Uncached is the part neither read from the cache nor written to it.
func (c Counts) Uncached() int { return c.Bytes - c.Cached - c.Written }

// InputTokens estimates all of the input, in tokens.
func (c Counts) InputTokens() float64 { return Tokens(c.Bytes) }

// CachedTokens estimates the input read from the cache.
func (c Counts) CachedTokens() float64 { return Tokens(c.Cached) }

// WrittenTokens estimates the input written to the cache.
func (c Counts) WrittenTokens() float64 { return Tokens(c.Written) }

// UncachedTokens estimates the input billed at the plain input rate.
func (c Counts) UncachedTokens() float64 { return Tokens(c.Uncached()) }

// Bill returns what the input costs at prices, in tokens at the plain
// input rate: the uncached input at that rate, the cached input at
// prices.Read, the written input at prices.Write.
func (c Counts) Bill(prices Prices) float64 {
	return c.UncachedTokens() + prices.Read*c.CachedTokens() + prices.Write*c.WrittenTokens()
}

func (c *Counts) add(d Counts) {
	c.Bytes += d.Bytes
	c.Cached += d.Cached
	c.Written += d.Written
}

// Span names a part of a request: the bytes [Start, End) of its
// Prompt.Bytes.
type Span struct {
	Part       string
	Start, End int
}

// Unnamed is the part of Result.Parts that holds every byte no span names.
const Unnamed = ""

// Result is the measure of a conversation's requests.
type Result struct {
	// Counts add up every request's input.
	Counts
	// Shares holds, for each request after the first, the share of its
	// text that is a byte-identical prefix of the request before it.
	Shares []float64
	// Broken counts the requests after the first that do not hold the
	// whole previous request as their prefix.
	Broken int
	// LastBytes is the size of the last request's text.
	LastBytes int
	// Parts divides Counts among the parts the spans name (MeasureParts),
	// and Unnamed; nil without spans.
	Parts map[string]Counts
}

// Measure measures a conversation's requests, in order, under rule.
func Measure(reqs []modelapi.Prompt, rule Rule) Result { return MeasureParts(reqs, nil, rule) }

// MeasureParts measures a conversation's requests, in order, under rule,
// and divides what it counts among the parts spans names: spans[i] names
// parts of reqs[i], in order and not overlapping.
func MeasureParts(reqs []modelapi.Prompt, spans [][]Span, rule Rule) Result {
	var r Result
	if spans != nil {
		r.Parts = make(map[string]Counts)
	}
	// The text offsets of a request, and of the one before: a request's
	// first lines are often the previous one's, and keep their offsets.
	var text, prevText []int
	for i, cur := range reqs {
		cached, from := 0, 0
		if i > 0 {
			prev := reqs[i-1]
			common := modelapi.CommonPrefix(prev, cur)
			from = bytes.LastIndexByte(cur.Bytes[:common], '\n') + 1
			text = textOffsetsFrom(cur.Bytes, text, prevText, from)
			if total := text[len(cur.Bytes)]; total > 0 {
				r.Shares = append(r.Shares, float64(text[common])/float64(total))
			} else {
				r.Shares = append(r.Shares, 1)
			}
			if !cur.Extends(prev) {
				r.Broken++
			}
			cached = Cached(prev, cur, rule)
		} else {
			text = textOffsetsFrom(cur.Bytes, text, nil, 0)
		}
		written := WrittenTo(cur, cached, rule)
		whole := billed(text, 0, len(cur.Bytes), cached, written)
		r.add(whole)
		r.LastBytes = whole.Bytes
		if spans != nil {
			r.addParts(spans[i], text, whole, cached, written)
		}
		text, prevText = prevText, text
	}
	return r
}

// addParts adds the counts of a request's spans, given its TextOffsets,
// to their parts, and the rest of whole to Unnamed.
func (r *Result) addParts(spans []Span, text []int, whole Counts, cached, written int) {
	for _, s := range spans {
		c := billed(text, s.Start, s.End, cached, written)
		p := r.Parts[s.Part]
		p.add(c)
		r.Parts[s.Part] = p
		whole.add(Counts{-c.Bytes, -c.Cached, -c.Written})
	}
	u := r.Parts[Unnamed]
	u.add(whole)
	r.Parts[Unnamed] = u
}

// billed returns the counts of the bytes [start, end) of a request that
// reads its first cached bytes from the cache and writes them up to
// written, given its TextOffsets.
func billed(text []int, start, end, cached, written int) Counts {
	in := func(from, to int) int {
		from, to = max(from, start), min(to, end)
		if to <= from {
			return 0
		}
		return text[to] - text[from]
	}
	return Counts{Bytes: text[end] - text[start], Cached: in(0, cached), Written: in(cached, written)}
}

// TextOffsets returns, for each offset in b (a request's prompt: compact
// JSON values and the lines naming its parts), how many bytes of text the
// bytes before it are once the escapes of JSON strings are decoded: n+1
// values for n bytes. An escape counts the bytes of what it stands for,
// on its last byte.
func TextOffsets(b []byte) []int { return textOffsetsFrom(b, nil, nil, 0) }

// textOffsetsFrom returns the TextOffsets of b in buf (grown as needed),
// taking those of its first from bytes, which start a line, from known,
// the offsets of bytes that begin with the same from bytes. A line of a
// prompt starts outside any string: JSON strings hold no raw newline.
func textOffsetsFrom(b []byte, buf, known []int, from int) []int {
	out := slices.Grow(buf[:0], len(b)+1)[:len(b)+1]
	out[0] = 0
	copy(out[:from+1], known)
	n, inString := out[from], false
	for i := from; i < len(b); {
		out[i] = n
		c := b[i]
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(b):
			size, width := escape(b[i:])
			for j := 1; j < width; j++ {
				out[i+j] = n
			}
			n += size
			i += width
			continue
		}
		n++
		i++
	}
	out[len(b)] = n
	return out
}

// escape returns how many bytes of text the JSON escape at the start of b
// stands for, and its width.
func escape(b []byte) (size, width int) {
	if b[1] != 'u' || len(b) < 6 {
		return 1, 2
	}
	var r rune
	for _, h := range b[2:6] {
		switch {
		case '0' <= h && h <= '9':
			r = r<<4 | rune(h-'0')
		case 'a' <= h && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case 'A' <= h && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 1, 2
		}
	}
	if 0xD800 <= r && r < 0xE000 {
		return 2, 6 // half of a surrogate pair: four bytes of UTF-8
	}
	return utf8.RuneLen(r), 6
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

// Tokens estimates a number of bytes of text as tokens: bytes/4.
func Tokens(bytes int) float64 { return float64(bytes) / 4 }
