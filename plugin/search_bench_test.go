package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
)

// benchText returns a generator of pseudo-words drawn with a Zipf
// distribution, as words of real text are drawn.
func benchText(seed uint64) func(k int) string {
	rnd := rand.New(rand.NewPCG(seed, seed+1))
	syllables := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pra", "gon", "del", "fix", "tor", "mun", "bel"}
	words := make([]string, 20000)
	for i := range words {
		var b strings.Builder
		for range 2 + rnd.IntN(3) {
			b.WriteString(syllables[rnd.IntN(len(syllables))])
		}
		words[i] = b.String()
	}
	zipf := rand.NewZipf(rnd, 1.1, 2, uint64(len(words)-1))
	return func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = words[zipf.Uint64()]
		}
		return strings.Join(out, " ")
	}
}

// BenchmarkSearchTool is one skill_search call answered from the cache (the
// call names the snapshot the plugin holds) at 10,000 skills: the plugin's
// share of a call's cost.
func BenchmarkSearchTool(b *testing.B) {
	text := benchText(1)
	skills := make([]skill.Summary, 10000)
	for i := range skills {
		skills[i] = skill.Summary{Name: fmt.Sprintf("skill-%05d", i), Description: text(40) + ".", Invocation: skill.DefaultPolicy(), SearchText: text(300)}
	}
	h := newMemHost(skills...)
	e, m := newEngine(), searchMount()
	mustPreStep(&testing.T{}, e, h, m, step(h, enter()))
	q := benchText(7)
	calls := make([]json.RawMessage, 64)
	for i := range calls {
		calls[i], _ = json.Marshal(map[string]string{"query": q(8)})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		call := searchCall(string(calls[i%len(calls)]))
		call.SnapshotToken = h.token
		if _, err := e.executeSearchTool(context.Background(), h, m, call); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
