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
// search ranks by it (Summary.SearchText): its prose, with what says when
// to use the skill first (the sections headed "When to use ...", "Use this
// skill when ..."), and without what says when not to (sections headed
// "When not to use ...", "Do not use this skill when ...") or code (fenced
// blocks name identifiers, not tasks); every run of whitespace written as
// one space, cut to at most MaxSearchTextBytes on a character boundary.
// Bytes that are not UTF-8 are left out.
func SearchTextOf(instructions string) string {
	var when, rest []string
	section := &rest
	level := 0 // of the heading that began a section kept apart, or 0
	fenced := false
	for line := range strings.Lines(instructions) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if n := headingLevel(t); n > 0 {
			if level > 0 && n <= level {
				section, level = &rest, 0
			}
			switch title := strings.ToLower(t[n:]); {
			case level > 0:
			case whenNot(title):
				section, level = nil, n
			case whenToUse(title):
				section, level = &when, n
			}
		}
		if section != nil {
			*section = append(*section, line)
		}
	}
	return collapse(append(when, rest...))
}

// headingLevel returns the level of a Markdown heading line (the number of
// its leading #), or 0 for any other line.
func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(line) && line[n] != ' ' && line[n] != '\t') {
		return 0
	}
	return n
}

// whenToUse and whenNot recognize the titles of sections that say when to
// use a skill and when not to.
func whenToUse(title string) bool {
	return strings.Contains(title, "when to use") || strings.Contains(title, "use this skill when") ||
		strings.Contains(title, "when to apply") || strings.Contains(title, "when to activate") || strings.Contains(title, "triggers")
}

func whenNot(title string) bool {
	return strings.Contains(title, "not to use") || strings.Contains(title, "not use") || strings.Contains(title, "when not") ||
		strings.Contains(title, "don't use") || strings.Contains(title, "do not use")
}

// collapse joins lines with every run of whitespace and control
// characters as one space, without bytes that are not UTF-8, cut to at
// most MaxSearchTextBytes on a character boundary.
func collapse(lines []string) string {
	var b strings.Builder
	space := false
	for _, line := range lines {
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

// WhenToUseJoin joins a skill's when_to_use to its description in the
// catalog: the description, this text, then when_to_use, as Claude Code
// appends it in its skill listing.
const WhenToUseJoin = " - "

// ListedDescription returns the description a catalog lists s with: its
// Description, followed by WhenToUseJoin and its WhenToUse when that holds
// more than whitespace (only the WhenToUse when the description holds
// none). The catalog's length cap and budget apply to the whole.
func ListedDescription(s Summary) string {
	switch {
	case strings.TrimSpace(s.WhenToUse) == "":
		return s.Description
	case strings.TrimSpace(s.Description) == "":
		return s.WhenToUse
	}
	return s.Description + WhenToUseJoin + s.WhenToUse
}
