package render

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// MinCatalogBudget is the smallest catalog budget a configuration may set:
// room for the line of one skill whose name has the longest length Agent
// Skills allows (64 characters), with some description.
const MinCatalogBudget = 100

// ErrBudget is returned by FitCatalog for a budget that is not positive.
var ErrBudget = errors.New("render: catalog budget must be a positive number of characters")

// Fit is a catalog fitted to a budget: which entries it shows and what was
// shortened or left out to make them fit.
type Fit struct {
	// Entries are the entries the catalog shows: the first len(Entries)
	// entries given, in their order, each description as given or
	// shortened. An entry whose description is unchanged is the given
	// entry itself.
	Entries []digest.Entry
	// Shortened reports, for each of Entries, whether its description was
	// shortened.
	Shortened []bool
	// NumShortened is the number of shortened descriptions.
	NumShortened int
	// DescriptionLength is the water level: the common length, in
	// characters, of every shortened description, which ends in "...";
	// below MinDescriptionMaxLength the descriptions longer than it are
	// removed whole instead. No kept description is longer. It is -1 when
	// no description was shortened.
	DescriptionLength int
	// Omitted is the number of entries left out, the last ones given,
	// because their names alone did not fit.
	Omitted int
	// Size is the number of characters of the rendered entries
	// (AppendEntryLine of each of Entries): at most the budget.
	Size int
}

// FitCatalog fits entries, already normalized and capped with
// NormalizeDescription and in catalog order, into a budget of budget
// characters of rendered entries: the lines AppendEntryLine renders,
// escapes and newlines included, counted in Unicode code points (an
// invalid byte counts as one).
//
// Every entry keeps its name. When the entries do not fit, descriptions
// are shortened evenly: the longest first, down to a common length, as a
// water level. The result uses the largest length L at which everything
// fits; a description longer than L keeps its first L-3 characters and ends
// in "..." (the rule NormalizeDescription applies to its cap), or is removed
// whole when L is below MinDescriptionMaxLength. Descriptions are cut
// before they are escaped, so a cut never falls inside a character or an
// escape such as &amp;. Only when the names alone do not fit are entries
// left out: entries are kept in the given order as long as the next one's
// name fits, and the rest are left out; the descriptions of those kept are
// then shortened to fit what remains.
//
// The result depends on entries and budget alone. A budget below 1 is an
// error (ErrBudget); any other budget gives a fit whose Size is at most the
// budget.
func FitCatalog(entries []digest.Entry, budget int) (Fit, error) {
	if budget < 1 {
		return Fit{}, ErrBudget
	}
	costs := costsOf(entries)
	// Names first: keep entries in order while their descriptionless
	// lines fit.
	kept, names := 0, 0
	for kept < len(costs) && names+costs[kept].fixed <= budget {
		names += costs[kept].fixed
		kept++
	}
	costs = costs[:kept]
	fit := Fit{Omitted: len(entries) - kept, DescriptionLength: -1}
	level, shortened := waterLevel(costs, budget)
	if shortened {
		fit.DescriptionLength = level
	}
	cutDescriptions(&fit, entries[:kept], costs, level)
	return fit, nil
}

// costsOf measures every entry. Every entry's escapes go into one pool: one
// allocation, not one per description with an escape.
func costsOf(entries []digest.Entry) []entryCost {
	costs := make([]entryCost, len(entries))
	var pool []escapeAt
	for i := range entries {
		costs[i], pool = costOf(&entries[i], pool)
	}
	for i := range costs {
		c := &costs[i]
		c.escapes = pool[c.from:c.to:c.to]
	}
	return costs
}

// waterLevel returns the largest description length at which the entries
// fit the budget (their names alone do), and whether any description must
// be cut to it.
func waterLevel(costs []entryCost, budget int) (level int, shortened bool) {
	maxLen := 0
	for i := range costs {
		maxLen = max(maxLen, costs[i].runes)
	}
	if total(costs, maxLen) <= budget {
		return maxLen, false
	}
	// total is non-decreasing in the level and total(0) fits (the names
	// do): find the largest level that fits.
	lo, hi := 0, maxLen-1
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if total(costs, mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// cutDescriptions fills fit with the kept entries, their descriptions cut
// to level. Shortened descriptions are cut from one buffer: one allocation
// for all of them.
func cutDescriptions(fit *Fit, entries []digest.Entry, costs []entryCost, level int) {
	fit.Entries = make([]digest.Entry, len(entries))
	fit.Shortened = make([]bool, len(entries))
	var buf strings.Builder
	if fit.DescriptionLength >= 0 {
		n := 0
		for i := range costs {
			if costs[i].runes > level && level >= MinDescriptionMaxLength {
				n += prefixBytes(entries[i].Description, level-len(ellipsis)) + len(ellipsis)
			}
		}
		buf.Grow(n)
	}
	type cut struct{ i, from, to int }
	var cuts []cut
	for i := range costs {
		fit.Entries[i] = entries[i]
		fit.Size += costs[i].at(level)
		if costs[i].runes <= level {
			continue
		}
		fit.Shortened[i] = true
		fit.NumShortened++
		if level < MinDescriptionMaxLength {
			fit.Entries[i].Description = ""
			continue
		}
		from := buf.Len()
		d := entries[i].Description
		buf.WriteString(d[:prefixBytes(d, level-len(ellipsis))])
		buf.WriteString(ellipsis)
		cuts = append(cuts, cut{i, from, buf.Len()})
	}
	all := buf.String()
	for _, c := range cuts {
		fit.Entries[c.i].Description = all[c.from:c.to]
	}
}

// entryCost is what one entry's rendered line costs, in characters, at any
// description length.
type entryCost struct {
	fixed int // the line without a description: "-`", name, "`: " or the origin, newline
	runes int // characters of the description, unescaped
	// escapes lists the description's escaped characters: where each is
	// (a character index) and the characters escaping adds up to and
	// including it. Most descriptions have none. They are pool[from:to]
	// while the pool is filled.
	escapes  []escapeAt
	from, to int
}

type escapeAt struct{ at, extra int }

// costOf returns what e costs, appending its escapes to pool.
func costOf(e *digest.Entry, pool []escapeAt) (entryCost, []escapeAt) {
	fixed := len(entryOpen) + runesEscaped(e.Name) + separatorLen(e, runesEscaped(e.Origin)) + 1
	c := entryCost{fixed: fixed, from: len(pool), to: len(pool)}
	d := e.Description
	if !hasSpecial(d, textSpecials) {
		c.runes = utf8.RuneCountInString(d)
		return c, pool
	}
	extra := 0
	for i := 0; i < len(d); c.runes++ {
		b := d[i]
		if b >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(d[i:])
			i += size
			continue
		}
		if isTextSpecial(b) {
			extra += len(entity(b)) - 1
			pool = append(pool, escapeAt{at: c.runes, extra: extra})
		}
		i++
	}
	c.to = len(pool)
	return c, pool
}

func isTextSpecial(b byte) bool { return b == '&' || b == '<' || b == '>' }

// runesEscaped counts the characters of s once escaped.
func runesEscaped(s string) int {
	n := utf8.RuneCountInString(s)
	for i := 0; i < len(s); i++ {
		if isTextSpecial(s[i]) {
			n += len(entity(s[i])) - 1
		}
	}
	return n
}

// escapedPrefix returns the rendered characters of the description's first
// k characters.
func (c *entryCost) escapedPrefix(k int) int {
	if len(c.escapes) == 0 {
		return k
	}
	// The escapes among the first k characters are those at an index below k.
	j, _ := slices.BinarySearchFunc(c.escapes, k, func(e escapeAt, k int) int { return e.at - k })
	if j == 0 {
		return k
	}
	return k + c.escapes[j-1].extra
}

// at returns the characters of the rendered line when the description is
// cut to level.
func (c *entryCost) at(level int) int {
	switch {
	case c.runes <= level:
		return c.fixed + c.escapedPrefix(c.runes)
	case level < MinDescriptionMaxLength:
		return c.fixed
	}
	keep := level - len(ellipsis)
	return c.fixed + c.escapedPrefix(keep) + len(ellipsis)
}

func total(costs []entryCost, level int) int {
	n := 0
	for i := range costs {
		n += costs[i].at(level)
	}
	return n
}

// prefixBytes returns the length in bytes of the first k characters of s.
func prefixBytes(s string, k int) int {
	i := 0
	for ; k > 0 && i < len(s); k-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// listClose is how every catalog footer starts: the sentence saying how
// many skills were left out goes right after it.
const listClose = "</available_skills>\n\n"

// omittedSentence is the line a budgeted catalog adds when skills were left
// out; with the skill-search tool mounted, it says to search for them.
func omittedSentence(omitted int, searchTool bool) string {
	const (
		oneLeft  = "1 more skill is available but not listed"
		manyLeft = " more skills are available but not listed"
		why      = ", to keep this catalog within its size budget"
		end      = ".\n"
		search   = "; call `" + skill.SearchToolName + "` with what the task needs to find them.\n"
	)
	switch {
	case omitted == 1 && searchTool:
		return oneLeft + why + search
	case omitted == 1:
		return oneLeft + why + end
	case searchTool:
		return strconv.Itoa(omitted) + manyLeft + why + search
	}
	return strconv.Itoa(omitted) + manyLeft + why + end
}
