package render

import (
	"strings"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// relevantHeader and relevantFooter frame the relevant-skills message.
const (
	relevantHeader = "<system-reminder>\n" +
		"These skills best match the user's request above, and were not described in full before in this session:\n" +
		"\n" +
		"<relevant_skills>\n"
	relevantClose  = "</relevant_skills>\n\n"
	relevantFooter = "If one of them applies to the request, call the `" + skill.ToolName +
		"` tool with its exact name before taking task actions, and follow its full instructions; a description is not the instructions. If none applies, go on without them."
)

// RelevantSkills renders the message the plugin adds at a user's turn for
// the skills that best match the request: one catalog line per skill, in
// order, remote skills naming their source as in the catalog, then what to
// do with them and, when remote skills are listed, the sentence of their
// kinds of source (RemoteOrigins.Note). Descriptions must be normalized.
func RelevantSkills(entries []digest.Entry) string {
	var b strings.Builder
	b.WriteString(relevantHeader)
	var line []byte
	for _, e := range entries {
		line = AppendEntryLine(line[:0], e)
		b.Write(line)
	}
	b.WriteString(relevantClose)
	b.WriteString(relevantFooter)
	if note := RemoteOriginsOf(entries).Note(); note != "" {
		b.WriteString(" " + note)
	}
	b.WriteString(reminderClose)
	return b.String()
}
