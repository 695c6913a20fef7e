package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// stopWords are words so common in requests and descriptions that they
// say nothing about which skill applies. The list is the usual English
// function words plus the words of asking for help ("help", "want",
// "please"), which every request holds.
var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, w := range strings.Fields(`a about all also am an and any are as at be been being but by can could
		do does for from had has have help how i if in into is it its just me more most my need no not of on
		or other our out please should so some such than that the their then there these they this to too
		up us use using very want was we what when where which who why will with would you your`) {
		m[w] = struct{}{}
	}
	return m
}()

// analyzer turns text into the terms the index holds: words (runs of
// letters and digits) lower-cased, stop words left out, each reduced to
// its English stem (Snowball's Porter2), so "deploying" finds "deploy".
// An abbreviation written with a slash between single letters ("A/B",
// "I/O") is one word. An analyzer remembers the stems it computed; it is
// not safe for concurrent use.
type analyzer struct {
	stems    map[string]string
	maxStems int // bounds stems
	env      *snowballstem.Env
	word     []byte
}

// Bounds of the stems an analyzer remembers: one that indexes skills
// meets most words of a language; one that reads queries, kept in a pool
// between searches, only those of requests.
const (
	maxStemCache      = 1 << 16
	maxQueryStemCache = 1 << 12
)

func newAnalyzer() *analyzer {
	return &analyzer{stems: make(map[string]string), maxStems: maxStemCache, env: snowballstem.NewEnv("")}
}

// queryAnalyzers are the analyzers of ParseQuery: a query is short, and
// making an analyzer would cost more than reading it.
var queryAnalyzers = sync.Pool{New: func() any {
	a := newAnalyzer()
	a.maxStems = maxQueryStemCache
	return a
}}

// terms calls yield with each term of text, in order.
func (a *analyzer) terms(text string, yield func(term string)) {
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		a.word = a.word[:0]
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if isWordRune(r) {
				a.word = utf8.AppendRune(a.word, unicode.ToLower(r))
				i += size
				continue
			}
			// "A/B": a slash between two single letters joins them.
			if r == '/' && utf8.RuneCount(a.word) == 1 && i+2 <= len(text) && singleLetterAt(text, i+1) {
				i++
				continue
			}
			break
		}
		if t, ok := a.term(a.word); ok {
			yield(t)
		}
	}
}

// singleLetterAt reports whether text holds, at i, a letter that is a word
// of its own.
func singleLetterAt(text string, i int) bool {
	r, size := utf8.DecodeRuneInString(text[i:])
	if !unicode.IsLetter(r) {
		return false
	}
	if i+size == len(text) {
		return true
	}
	next, _ := utf8.DecodeRuneInString(text[i+size:])
	return !isWordRune(next)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// term returns the term of one lower-cased word, or false for a stop word.
func (a *analyzer) term(word []byte) (string, bool) {
	if s, ok := a.stems[string(word)]; ok {
		return s, s != ""
	}
	w := string(word)
	if _, stop := stopWords[w]; stop {
		a.remember(w, "")
		return "", false
	}
	stem := w
	if len(w) > 2 && !hasDigit(w) {
		a.env.SetCurrent(w)
		english.Stem(a.env)
		stem = a.env.Current()
	}
	a.remember(w, stem)
	return stem, true
}

func (a *analyzer) remember(word, stem string) {
	if len(a.stems) >= a.maxStems {
		clear(a.stems)
	}
	a.stems[word] = stem
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}
