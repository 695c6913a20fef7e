package search

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// syntheticWords is a vocabulary for generated skills: pseudo-words drawn
// with a Zipf distribution, as words of real text are.
type syntheticWords struct {
	words []string
	zipf  *rand.Zipf
	rnd   *rand.Rand
}

func newSyntheticWords(seed uint64, n int) *syntheticWords {
	rnd := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	syllables := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pra", "gon", "del", "fix", "tor", "mun", "bel"}
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		for range 2 + rnd.IntN(3) {
			b.WriteString(syllables[rnd.IntN(len(syllables))])
		}
		words[i] = b.String()
	}
	return &syntheticWords{words: words, zipf: rand.NewZipf(rnd, 1.1, 2, uint64(n-1)), rnd: rnd}
}

func (w *syntheticWords) text(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.words[w.zipf.Uint64()])
	}
	return b.String()
}

// syntheticSkills returns n generated skills, sorted by name, with
// descriptions of about 40 words and search texts of about 400.
func syntheticSkills(seed uint64, n int) []skill.Summary {
	w := newSyntheticWords(seed, 20000)
	out := make([]skill.Summary, n)
	for i := range out {
		out[i] = skill.Summary{
			Name:        fmt.Sprintf("skill-%05d-%s", i, w.words[w.rnd.IntN(len(w.words))]),
			Description: w.text(30+w.rnd.IntN(20)) + ". Use when the user mentions '" + w.text(2) + "' or '" + w.text(3) + "'.",
			Invocation:  skill.DefaultPolicy(),
			SearchText:  skill.SearchTextOf(w.text(300 + w.rnd.IntN(200))),
		}
	}
	return out
}
