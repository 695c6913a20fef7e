package search

import (
	"regexp"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// The fields a skill is ranked by, and how much a match in each counts:
// weight multiplies a term's frequency in the field, and b says how much a
// long field dilutes it (BM25F). The weights were measured on real skills
// and requests written for them: a skill's name counts twice its
// description; the start of its instructions counts a tenth, and its
// length dilutes it almost fully, so that it breaks ties among skills
// whose descriptions match alike rather than outranking a description.
// A description's length dilutes it little: a long description mostly
// names more of the cases it covers, which should not rank it below a
// terse one. Keywords count as the name does, and when_to_use as the
// description (it is part of that field): no corpus measured has either.
const (
	fieldName = iota
	fieldKeywords
	fieldDescription // the description and when_to_use
	fieldText        // Summary.SearchText
	numFields
)

var (
	fieldWeight = [numFields]float64{fieldName: 2, fieldKeywords: 2, fieldDescription: 1, fieldText: 0.1}
	fieldB      = [numFields]float64{fieldName: 0.5, fieldKeywords: 0.5, fieldDescription: 0.3, fieldText: 0.9}
)

// Ranking constants: k1 is BM25's term-frequency saturation; a phrase the
// description names as a trigger ("USE FOR: create app, build web app";
// 'edit this copy') that the query holds in order, with at most
// phraseGap other terms between its terms, adds phraseWeight times the sum
// of its terms' IDF (the best such phrase of a skill counts); terms that
// appear only inside a quotation in the query (pasted material, not the
// request) count quotedWeight, and those only past its first sentence
// (context: the audience, the product, figures) contextWeight.
const (
	k1            = 1.2
	phraseWeight  = 0.5
	phraseGap     = 2
	quotedWeight  = 0.1
	contextWeight = 0.5
	// coordination is the exponent of the factor a skill's score is
	// scaled by for the share of the query's terms it holds (coordinate).
	coordination = 0.2
	// maxPhraseTerms bounds a trigger phrase; longer quotations are
	// examples, not triggers.
	maxPhraseTerms = 6
	// maxPhrasesPerSkill bounds what one skill's description adds.
	maxPhrasesPerSkill = 64
)

// MaxDescriptionLength caps, in characters, the normalized description a
// search result shows: the Agent Skills specification's bound on a
// description, so a valid one is shown whole.
const MaxDescriptionLength = 1024

// maxIndexedDescription bounds the bytes of a description the index
// analyzes: four times what a valid one holds.
const maxIndexedDescription = 4 * MaxDescriptionLength

var (
	// notForClause is a clause of a description that says when not to use
	// the skill ("DO NOT USE FOR: ...", "Do not trigger when ..."): its
	// words describe other tasks, so they are not indexed.
	notForClause = regexp.MustCompile(`(?i)(do not use (it |this skill )?(for|when)|not for:|do not trigger|don't use (it |this skill )?(for|when))[^.]*(\.|$)`)
	// quotedPhrase is a phrase a description quotes, the way descriptions
	// list what a user might say.
	quotedPhrase = regexp.MustCompile(`'([^']{3,60})'|"([^"]{3,60})"|“([^”]{3,60})”|‘([^’]{3,60})’`)
	// triggerList is a list of triggers after a label ("USE FOR: a, b.").
	triggerList = regexp.MustCompile(`(?i)(use for|use when|when|triggers?|trigger phrases?)\s*:\s*([^.]*)`)
	// quotation is text a request quotes: pasted material, at least a
	// dozen characters, between quotes.
	// sentenceEnd ends a sentence of a request: a full stop, question or
	// exclamation mark before a space or the end, or a line break.
	sentenceEnd = regexp.MustCompile(`[.?!](\s|$)|\n`)
	quotation   = regexp.MustCompile(`(^|[\s:(])'.{12,}?'($|[\s.,;:)!?])|"[^"]{12,}"|“[^”]{12,}”`)
)

// document is what the index keeps of one skill: what a result shows, the
// length of each field in terms, its trigger phrases, and the hash of
// everything it was built from, which tells an unchanged skill.
type document struct {
	hit     Hit
	key     xxh3.Uint128
	lens    [numFields]uint16
	phrases [][]string
}

// Bytes is what a document keeps alive, for the index's bookkeeping.
func (d *document) bytes() int {
	n := 96 + len(d.hit.Name) + len(d.hit.Origin) + len(d.hit.Description)
	for _, p := range d.phrases {
		n += 24
		for _, t := range p {
			n += 16 + len(t)
		}
	}
	return n
}

// keyOf hashes what a skill's document is built from.
func keyOf(s *skill.Summary) xxh3.Uint128 {
	h := xxh3.New128()
	for _, f := range [...]string{s.Name, s.Origin, string(rune('0' + s.OriginKind)), s.Description, s.WhenToUse, s.Keywords, s.SearchText} {
		var n [4]byte
		l := len(f)
		n[0], n[1], n[2], n[3] = byte(l), byte(l>>8), byte(l>>16), byte(l>>24)
		_, _ = h.Write(n[:])
		_, _ = h.WriteString(f)
	}
	return h.Sum128()
}

// fieldTerms holds a skill's terms per field, with their frequencies.
type fieldTerms map[string]*[numFields]uint16

// analyzeSkill builds a skill's document and its terms.
func analyzeSkill(a *analyzer, s *skill.Summary) (document, fieldTerms) {
	// The document's own copies, so that it never pins the snapshot's
	// memory.
	doc := document{
		hit: Hit{Name: strings.Clone(s.Name), Origin: strings.Clone(s.Origin), OriginKind: s.OriginKind,
			Description: strings.Clone(render.NormalizeDescription(s.Description, MaxDescriptionLength))},
		key: keyOf(s),
	}
	// What is analyzed is bounded whatever the host sends: as much of each
	// field as a provider's summary holds, a little more for a description.
	described := render.NormalizeDescription(skill.CutText(s.Description, maxIndexedDescription)+" "+skill.CutText(s.WhenToUse, skill.MaxWhenToUseBytes), maxIndexedDescription+skill.MaxWhenToUseBytes)
	terms := make(fieldTerms)
	add := func(field int, text string) {
		n := 0
		a.terms(text, func(t string) {
			tf := terms[t]
			if tf == nil {
				tf = new([numFields]uint16)
				terms[t] = tf
			}
			if tf[field] < 1<<15 {
				tf[field]++
			}
			n++
		})
		doc.lens[field] = uint16(min(n, 1<<16-1))
	}
	add(fieldName, s.Name)
	add(fieldKeywords, skill.CutText(s.Keywords, skill.MaxKeywords*(skill.MaxKeywordBytes+len(skill.KeywordSeparator))))
	add(fieldDescription, notForClause.ReplaceAllString(described, " "))
	add(fieldText, skill.CutText(s.SearchText, skill.MaxSearchTextBytes))
	doc.phrases = triggerPhrases(a, s.Name, described)
	return doc, terms
}

// triggerPhrases returns the phrases of two terms or more that say when a
// skill applies: its name, what its description quotes and the lists
// after a trigger label.
func triggerPhrases(a *analyzer, name, described string) [][]string {
	var out [][]string
	add := func(text string) {
		var p []string
		a.terms(text, func(t string) { p = append(p, t) })
		if len(p) >= 2 && len(p) <= maxPhraseTerms && len(out) < maxPhrasesPerSkill {
			out = append(out, p)
		}
	}
	add(name)
	for _, m := range quotedPhrase.FindAllStringSubmatch(described, -1) {
		add(m[1] + m[2] + m[3] + m[4])
	}
	for _, m := range triggerList.FindAllStringSubmatch(described, -1) {
		for _, item := range strings.Split(m[2], ",") {
			if !strings.ContainsAny(item, `'"“‘`) { // quoted ones are in already
				add(item)
			}
		}
	}
	return out
}
