package measure_test

import (
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

// TestMeasure: shares, broken prefixes and billed bytes of a conversation.
func TestMeasure(t *testing.T) {
	reqs := []modelapi.Prompt{prompt("abcd", 4), prompt("abcdefgh", 4, 8), prompt("XbcdefghIJ", 10), prompt("XbcdefghIJKL", 12)}
	r := measure.Measure(reqs, measure.Breakpoints)
	if want := []float64{0.5, 0, 10.0 / 12}; len(r.Shares) != 3 || r.Shares[0] != want[0] || r.Shares[1] != want[1] || r.Shares[2] != want[2] {
		t.Errorf("shares %v, want %v", r.Shares, want)
	}
	if r.Broken != 1 || r.Bytes != 34 || r.CachedBytes != 4+0+10 || r.LastBytes != 12 {
		t.Errorf("%+v", r)
	}
	if r.Median() != 0.5 || r.Min() != 0 || r.InputTokens() != 8.5 || r.CachedTokens() != 3.5 || r.FullTokens() != 5 {
		t.Errorf("median %v, min %v, tokens %v = %v + %v", r.Median(), r.Min(), r.InputTokens(), r.CachedTokens(), r.FullTokens())
	}
	if a := measure.Measure(reqs, measure.Automatic); a.CachedBytes != 4+0+10 {
		t.Errorf("automatic: %d cached", a.CachedBytes)
	}
	if e := measure.Measure(reqs[:2], measure.Automatic); e.Median() != 0.5 || measure.Measure(nil, measure.Automatic).Median() != 0 {
		t.Errorf("median of one %v", e.Median())
	}
}
