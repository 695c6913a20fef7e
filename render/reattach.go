package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

// The texts of the messages that carry skills' instructions outside the
// `skill` tool's results: the skills a compaction hid, attached again, and
// the skills a host preloads.
const (
	reattachHeader = "<system-reminder>\n" +
		"The conversation was compacted, and the instructions of skills used earlier in this session were left out of what you see. They are attached again below, most recently used first; keep following them where they apply."
	preloadHeader = "<system-reminder>\n" +
		"These skills are preloaded for this session: their instructions apply from the start, as if each had been loaded with the `" + skill.ToolName + "` tool. Follow them where they apply, and do not load them again."
	loadWhole = "call the `" + skill.ToolName + "` tool with its name to read them whole."
)

// Reattached is one skill of a re-attachment message, in the message's
// order.
type Reattached struct {
	// Name is the skill's name.
	Name string
	// State is "" (attached as it was loaded), "changed" (attached: its
	// instructions changed since), "gone", "unavailable" or "left-out"
	// (nothing attached), as events.Loaded.State.
	State string
	// Text is the skill's rendered content (SkillContent, its instructions
	// cut with CutInstructions) when attached.
	Text string
	// Kept and Total are the characters of its instructions the text
	// keeps and they have: Kept < Total marks a cut.
	Kept, Total int
}

// CutInstructions returns at most max characters (Unicode code points) of
// content, cut on a character boundary, with the number of characters kept
// and the number content has.
func CutInstructions(content string, max int) (cut string, kept, total int) {
	total = utf8.RuneCountInString(content)
	if total <= max {
		return content, total, total
	}
	i := 0
	for n := 0; n < max; n++ {
		_, size := utf8.DecodeRuneInString(content[i:])
		i += size
	}
	return content[:i], max, total
}

// ReattachedSkills renders the message that attaches again, after a
// compaction, the skills whose instructions it hid: each attached skill's
// content block, in order, a changed one announced as such before it and a
// cut one followed by a line saying how much was left out; then one line
// for each skill not attached (gone, not loadable, no room). Names are
// quoted as Go strings.
func ReattachedSkills(items []Reattached) string {
	var b strings.Builder
	b.WriteString(reattachHeader)
	for _, it := range items {
		if it.State != "" && it.State != "changed" {
			continue
		}
		b.WriteString("\n\n")
		if it.State == "changed" {
			b.WriteString("Skill " + strconv.Quote(it.Name) + " changed since it was loaded: these are its current instructions, not the ones followed before.\n")
		}
		b.WriteString(it.Text)
		if it.Kept < it.Total {
			b.WriteString("\n[The instructions of skill " + strconv.Quote(it.Name) + " were cut here, after " + strconv.Itoa(it.Kept) +
				" of their " + strconv.Itoa(it.Total) + " characters; " + strconv.Itoa(it.Total-it.Kept) + " were left out: " + loadWhole + "]")
		}
	}
	first := true
	for _, it := range items {
		var line string
		switch it.State {
		case "", "changed":
			continue
		case "gone":
			line = "Skill " + strconv.Quote(it.Name) + " no longer exists: its earlier instructions no longer apply."
		case "unavailable":
			line = "Skill " + strconv.Quote(it.Name) + " could not be loaded again; if it is still needed, call the `" + skill.ToolName + "` tool with its name."
		default: // left-out
			line = "Skill " + strconv.Quote(it.Name) + " was not attached again, for lack of room; if it is still needed, call the `" + skill.ToolName + "` tool with its name."
		}
		if first {
			b.WriteString("\n")
			first = false
		}
		b.WriteString("\n" + line)
	}
	b.WriteString(reminderClose)
	return b.String()
}

// PreloadedSkills renders the message that carries the skills a host
// preloads at a session's first step: their content blocks (SkillContent),
// in order, whole.
func PreloadedSkills(texts []string) string {
	var b strings.Builder
	b.WriteString(preloadHeader)
	for _, t := range texts {
		b.WriteString("\n\n")
		b.WriteString(t)
	}
	b.WriteString(reminderClose)
	return b.String()
}
