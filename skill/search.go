package skill

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on what a summary carries for a skill search, so that a snapshot
// of many skills stays small: SearchText is at most MaxSearchTextBytes, a
// skill has at most MaxKeywords keywords of at most MaxKeywordBytes each,
// and WhenToUse is at most MaxWhenToUseBytes. Providers cut longer values
// (SearchTextOf, CleanKeywords, CutText).
const (
	MaxSearchTextBytes = 4 << 10
	MaxKeywords        = 32
	MaxKeywordBytes    = 64
	MaxWhenToUseBytes  = 2 << 10
)

// SearchTextOf returns the start of a skill's instructions as a skill
// search ranks by it (Summary.SearchText): its prose with fenced code
// blocks left out (code names identifiers, not tasks) and every run of
// whitespace written as one space, cut to at most MaxSearchTextBytes on a
// character boundary. Bytes that are not UTF-8 are left out.
func SearchTextOf(instructions string) string {
	var b strings.Builder
	b.Grow(min(len(instructions), MaxSearchTextBytes))
	space := false
	fenced := false
	for line := range strings.Lines(instructions) {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, r := range strings.ToValidUTF8(line, "") {
			if unicode.IsSpace(r) || unicode.IsControl(r) {
				space = b.Len() > 0
				continue
			}
			n := utf8.RuneLen(r)
			if space {
				n++
			}
			if b.Len()+n > MaxSearchTextBytes {
				return b.String()
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// KeywordSeparator separates the keywords of Summary.Keywords.
const KeywordSeparator = ", "

// CleanKeywords returns keywords as a summary carries them: each trimmed
// of surrounding whitespace and cut to MaxKeywordBytes (CutText), empty
// ones, repeats and ones holding a comma left out, at most MaxKeywords, in
// their first order, joined by KeywordSeparator.
func CleanKeywords(keywords []string) string {
	var out []string
	for _, k := range keywords {
		k = CutText(strings.TrimSpace(k), MaxKeywordBytes)
		if k == "" || strings.Contains(k, ",") || slices.Contains(out, k) {
			continue
		}
		out = append(out, k)
		if len(out) == MaxKeywords {
			break
		}
	}
	return strings.Join(out, KeywordSeparator)
}

// CutText returns s without bytes that are not UTF-8, cut to at most max
// bytes on a character boundary.
func CutText(s string, max int) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// SearchResult is the canonical value of a successful skill-search tool
// call: the query and the skills that best match it, best first. Its JSON
// form is the tool's structured result, {query, hits: [{name, description,
// origin?, origin_kind?, score}]}.
type SearchResult struct {
	Query string      `json:"query"`
	Hits  []SearchHit `json:"hits"`
}

// SearchHit is one skill a search found.
type SearchHit struct {
	Name string `json:"name"`
	// Description is the normalized description, as the result shows it.
	Description string `json:"description"`
	// Origin and OriginKind are a remote skill's source, as in Summary.
	Origin     string     `json:"origin,omitempty"`
	OriginKind OriginKind `json:"origin_kind,omitempty"`
	// Score ranks the hit: higher is better, comparable only within one
	// search.
	Score float64 `json:"score"`
}
