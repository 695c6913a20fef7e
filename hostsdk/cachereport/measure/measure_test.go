package measure_test

import (
	"math"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

func prompt(s string, breakpoints ...int) modelapi.Prompt {
	return modelapi.Prompt{Bytes: []byte(s), Breakpoints: breakpoints}
}

// TestCached: what each rule reads of a request after the previous one.
func TestCached(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prev, cur modelapi.Prompt
		rule      measure.Rule
		want      int
	}{
		{"automatic: the whole repeated prefix", prompt("abcdef"), prompt("abcdXY"), measure.Automatic, 4},
		{"automatic: a request that extends the previous", prompt("abc"), prompt("abcdef"), measure.Automatic, 3},
		{"breakpoints: the previous request's last one repeated", prompt("abcdef", 2, 6), prompt("abcdefgh", 6, 8), measure.Breakpoints, 6},
		{"breakpoints: the longest one within the repeated prefix", prompt("abcdef", 2, 4, 6), prompt("abcdXYZ", 2, 7), measure.Breakpoints, 4},
		{"breakpoints: none within the repeated prefix", prompt("abcdef", 5), prompt("abXY", 4), measure.Breakpoints, 0},
		{"breakpoints: the request has none at or after it", prompt("abcdef", 4), prompt("abcdefgh", 2), measure.Breakpoints, 0},
		{"breakpoints: the request has none", prompt("abcdef", 4), prompt("abcdefgh"), measure.Breakpoints, 0},
	} {
		if got := measure.Cached(tc.prev, tc.cur, tc.rule); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestWrittenTo: how far each rule writes the cache of a request that
// reads a part of it.
func TestWrittenTo(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cur    modelapi.Prompt
		cached int
		rule   measure.Rule
		want   int
	}{
		{"breakpoints: up to the last one", prompt("abcdefgh", 2, 6), 2, measure.Breakpoints, 6},
		{"breakpoints: nothing past what it reads", prompt("abcdefgh", 2, 4), 6, measure.Breakpoints, 6},
		{"breakpoints: none, nothing written", prompt("abcdefgh"), 3, measure.Breakpoints, 3},
		{"automatic: never a write", prompt("abcdefgh", 8), 2, measure.Automatic, 2},
	} {
		if got := measure.WrittenTo(tc.cur, tc.cached, tc.rule); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestMeasure: shares, broken prefixes and billed bytes of a conversation.
func TestMeasure(t *testing.T) {
	reqs := []modelapi.Prompt{prompt("abcd", 4), prompt("abcdefgh", 4, 8), prompt("XbcdefghIJ", 10), prompt("XbcdefghIJKL", 12)}
	r := measure.Measure(reqs, measure.Breakpoints)
	if want := []float64{0.5, 0, 10.0 / 12}; len(r.Shares) != 3 || r.Shares[0] != want[0] || r.Shares[1] != want[1] || r.Shares[2] != want[2] {
		t.Errorf("shares %v, want %v", r.Shares, want)
	}
	// Written: the first request up to its breakpoint (4), then what each
	// one adds up to its last breakpoint: 4, 10 (the prefix broke), 2.
	if r.Broken != 1 || r.Bytes != 34 || r.Cached != 4+0+10 || r.Written != 4+4+10+2 || r.LastBytes != 12 || r.Parts != nil {
		t.Errorf("%+v", r)
	}
	if r.Median() != 0.5 || r.Min() != 0 || r.InputTokens() != 8.5 || r.CachedTokens() != 3.5 || r.WrittenTokens() != 5 || r.UncachedTokens() != 0 {
		t.Errorf("median %v, min %v, tokens %v = %v + %v + %v", r.Median(), r.Min(), r.InputTokens(), r.CachedTokens(), r.WrittenTokens(), r.UncachedTokens())
	}
	if a := measure.Measure(reqs, measure.Automatic); a.Cached != 4+0+10 || a.Written != 0 || a.Uncached() != 34-14 {
		t.Errorf("automatic: %+v", a.Counts)
	}
	if e := measure.Measure(reqs[:2], measure.Automatic); e.Median() != 0.5 || measure.Measure(nil, measure.Automatic).Median() != 0 {
		t.Errorf("median of one %v", e.Median())
	}
}

// TestBill: the bill of each kind of input at a provider's prices, in
// tokens at the plain input rate.
func TestBill(t *testing.T) {
	c := measure.Counts{Bytes: 4000, Cached: 2000, Written: 800} // 1,000 tokens: 500 read, 200 written, 300 neither
	for _, tc := range []struct {
		name   string
		prices measure.Prices
		want   float64
	}{
		{"Anthropic: reads at 0.1, writes at 1.25", measure.AnthropicPrices(), 300 + 0.1*500 + 1.25*200},
		{"OpenAI: reads at 0.1, writes at the input rate", measure.OpenAIPrices(), 300 + 0.1*500 + 200},
		{"no cache discount", measure.Prices{Read: 1, Write: 1}, 1000},
		{"an older model: reads at 0.5", measure.Prices{Read: 0.5, Write: 1}, 300 + 250 + 200},
	} {
		if got := c.Bill(tc.prices); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if p := measure.AnthropicPrices(); p.Read != 0.1 || p.Write != 1.25 {
		t.Errorf("Anthropic's prices %+v", p)
	}
	if p := measure.OpenAIPrices(); p.Read != 0.1 || p.Write != 1 {
		t.Errorf("OpenAI's prices %+v", p)
	}
	if c.Uncached() != 1200 || c.InputTokens() != 1000 || c.CachedTokens() != 500 || c.WrittenTokens() != 200 || c.UncachedTokens() != 300 {
		t.Errorf("%+v: %v tokens = %v + %v + %v", c, c.InputTokens(), c.CachedTokens(), c.WrittenTokens(), c.UncachedTokens())
	}
}

// TestBillOfConversation: a conversation billed end to end at Anthropic's
// prices, written out by hand.
func TestBillOfConversation(t *testing.T) {
	// 400 bytes, then 800 that repeat them; a breakpoint at each end.
	first, second := make([]byte, 400), make([]byte, 800)
	for i := range second {
		second[i] = 'a'
	}
	copy(first, second)
	r := measure.Measure([]modelapi.Prompt{{Bytes: first, Breakpoints: []int{400}}, {Bytes: second, Breakpoints: []int{800}}}, measure.Breakpoints)
	// The first writes its 100 tokens; the second reads them and writes
	// its other 100.
	if want := 1.25*100 + 0.1*100 + 1.25*100; math.Abs(r.Bill(measure.AnthropicPrices())-want) > 1e-9 {
		t.Errorf("bill %v, want %v (%+v)", r.Bill(measure.AnthropicPrices()), want, r.Counts)
	}
	if want := 100 + 0.1*100 + 100; math.Abs(measure.Measure([]modelapi.Prompt{{Bytes: first}, {Bytes: second}}, measure.Automatic).Bill(measure.OpenAIPrices())-want) > 1e-9 {
		t.Errorf("automatic: want %v", want)
	}
}

// TestTextOffsets: escapes in JSON strings count what they stand for;
// everything else, quotes and structure included, counts byte for byte.
func TestTextOffsets(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`tools`, 5},
		{`{"a":"b"}`, 9},
		{`"\u003cx\u003e"`, 5},        // "<x>"
		{`"a\nb\"c\\"`, 8},            // "a, newline, b, ", c, \"
		{`"\u00e9\u20ac"`, 2 + 2 + 3}, // é (2 bytes), € (3)
		{`"\ud83d\ude00"`, 2 + 4},     // 😀: four bytes of UTF-8
		{`"é"`, 4},                    // raw UTF-8 as it is
		{`x\u003c`, 7},                // outside a string: bytes
		{`"\uZZZZ"`, 2 + 1 + 4},       // not an escape the decoder reads: the backslash's pair counts one
		{"\"a\\\"\"{\"b\":\"\\u003c\"}", 4 + 5 + 3 + 1}, // a string with an escaped quote, then an object
	} {
		off := measure.TextOffsets([]byte(tc.in))
		if len(off) != len(tc.in)+1 || off[len(tc.in)] != tc.want || off[0] != 0 {
			t.Errorf("%s: %v, want %d in all", tc.in, off, tc.want)
		}
		for i := 1; i < len(off); i++ {
			if off[i] < off[i-1] {
				t.Errorf("%s: offsets %v go back at %d", tc.in, off, i)
			}
		}
	}
	// An escape counts on its last byte: a prefix that ends inside one
	// counts none of it.
	if off := measure.TextOffsets([]byte(`"\u003c"`)); off[1] != 1 || off[6] != 1 || off[7] != 2 {
		t.Errorf("partial escape: %v", off)
	}
}

// TestMeasureParts: the counts of every part, and of the bytes no part
// names, add up to the whole, each billed as the bytes it holds.
func TestMeasureParts(t *testing.T) {
	reqs := []modelapi.Prompt{prompt("AAAAbbbb", 8), prompt("AAAAbbbbCCCCdd", 12)}
	spans := [][]measure.Span{
		{{Part: "A", Start: 0, End: 4}},
		{{Part: "A", Start: 0, End: 4}, {Part: "C", Start: 8, End: 12}},
	}
	r := measure.MeasureParts(reqs, spans, measure.Breakpoints)
	want := map[string]measure.Counts{
		"A":             {Bytes: 8, Cached: 4, Written: 4},     // written by the first, read by the second
		"C":             {Bytes: 4, Cached: 0, Written: 4},     // written by the second, up to its breakpoint
		measure.Unnamed: {Bytes: 4 + 6, Cached: 4, Written: 4}, // b: written, then read; dd: after the breakpoint
	}
	if len(r.Parts) != len(want) {
		t.Errorf("parts %v, want %v", r.Parts, want)
	}
	var sum measure.Counts
	for name, w := range want {
		if r.Parts[name] != w {
			t.Errorf("part %q: %+v, want %+v", name, r.Parts[name], w)
		}
		sum.Bytes, sum.Cached, sum.Written = sum.Bytes+w.Bytes, sum.Cached+w.Cached, sum.Written+w.Written
	}
	if sum != r.Counts {
		t.Errorf("parts add up to %+v, the whole is %+v", sum, r.Counts)
	}
	if r.Parts[measure.Unnamed].Uncached() != 2 {
		t.Errorf("the bytes after the last breakpoint: %+v", r.Parts[measure.Unnamed])
	}
}

// TestMeasureReusesOffsets: a conversation's counts are those of each
// request measured on its own, whether a request repeats the previous
// one's lines, breaks them in its first line, or in the middle of a
// string with escapes.
func TestMeasureReusesOffsets(t *testing.T) {
	lines := []string{"tools\n", `{"d":"\u003ca\u003e\n"}` + "\n", "messages\n", `{"t":"x\"y"}` + "\n", `{"t":"\u00e9\u00e9"}` + "\n"}
	join := func(ls ...string) modelapi.Prompt {
		var b []byte
		for _, l := range ls {
			b = append(b, l...)
		}
		return modelapi.Prompt{Bytes: b, Breakpoints: []int{len(b)}}
	}
	reqs := []modelapi.Prompt{
		join(lines[:3]...),
		join(lines[:4]...),
		join(lines...),
		join("tool\n", lines[1], lines[2]), // breaks the first line
		join("tool\n", `{"d":"\u003ca\u003e!"}`+"\n", lines[2], lines[3]), // breaks inside an escape's string
		join("tool\n", `{"d":"\u003ca\u003e!"}`+"\n", lines[2], lines[3], lines[4]),
		join(),
	}
	for _, rule := range []measure.Rule{measure.Breakpoints, measure.Automatic} {
		got := measure.Measure(reqs, rule)
		var want measure.Counts
		for i, cur := range reqs {
			text := measure.TextOffsets(cur.Bytes)
			cached := 0
			if i > 0 {
				cached = measure.Cached(reqs[i-1], cur, rule)
				share := 1.0
				if text[len(cur.Bytes)] > 0 {
					share = float64(text[modelapi.CommonPrefix(reqs[i-1], cur)]) / float64(text[len(cur.Bytes)])
				}
				if got.Shares[i-1] != share {
					t.Errorf("%v: request %d's share %v, want %v", rule, i+1, got.Shares[i-1], share)
				}
			}
			written := measure.WrittenTo(cur, cached, rule)
			want.Bytes += text[len(cur.Bytes)]
			want.Cached += text[cached]
			want.Written += text[written] - text[cached]
		}
		if got.Counts != want {
			t.Errorf("%v: %+v, want %+v", rule, got.Counts, want)
		}
	}
}
