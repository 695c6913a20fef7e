package render

import (
	"strings"

	"github.com/skillcatalog/skillcatalog/digest"
)

// Fixed parts of the catalog texts. Entries go between the header and the
// footer, one line each.
const (
	initialHeader = "<system-reminder>\n" +
		"A skill is a reusable set of task-specific instructions. The following skills are available in this session:\n" +
		"\n" +
		"<available_skills>\n"
	replacementHeader = "<system-reminder>\n" +
		"The available skills have changed. This complete list replaces every earlier skill catalog in this session:\n" +
		"\n" +
		"<available_skills>\n"
	catalogFooter = "</available_skills>\n" +
		"\n" +
		"If the user names a skill, or the task clearly matches a skill's description, call the `skill` tool with the exact skill name before taking task actions. Load all applicable skills, then follow their full instructions. This catalog contains summaries only; do not infer or follow a skill's instructions until it has been loaded.\n" +
		"</system-reminder>"
	tombstone = "<system-reminder>\n" +
		"The available skills have changed. No skills are available in this session anymore:\n" +
		"\n" +
		"<available_skills>\n" +
		"</available_skills>\n" +
		"\n" +
		"Do not call the `skill` tool with any skill name from an earlier catalog in this session; those skills are no longer available.\n" +
		"</system-reminder>"

	// An entry line is entryOpen NAME entrySep DESCRIPTION "\n".
	entryOpen = "-`"
	entrySep  = "`: "
)

// InitialCatalog renders the first catalog of a session: one line per
// entry, in the given order. Descriptions must already be normalized with
// NormalizeDescription; names and descriptions are escaped here. The plugin
// publishes no initial catalog for an empty list; given one, InitialCatalog
// still renders the frame with an empty list.
func InitialCatalog(entries []digest.Entry) string {
	return catalog(initialHeader, entries)
}

// ReplacementCatalog renders a catalog that replaces every earlier one in
// the session. An empty list renders the Tombstone, which tells the model
// that earlier names are gone.
func ReplacementCatalog(entries []digest.Entry) string {
	if len(entries) == 0 {
		return tombstone
	}
	return catalog(replacementHeader, entries)
}

// Tombstone is the replacement catalog for an empty list.
func Tombstone() string {
	return tombstone
}

func catalog(header string, entries []digest.Entry) string {
	// Size the buffer exactly so that rendering allocates once.
	n := len(header) + len(catalogFooter)
	for i := range entries {
		n += entryLineLen(&entries[i])
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(header)
	for i := range entries {
		writeEntryLine(&b, &entries[i])
	}
	b.WriteString(catalogFooter)
	return b.String()
}

// AppendEntryLine appends the line a catalog shows for one entry, newline
// included: the unit InitialCatalogOf and ReplacementCatalogOf assemble. A
// caller that renders many catalogs over mostly the same entries keeps the
// lines and renders only the entries that changed.
func AppendEntryLine(dst []byte, e digest.Entry) []byte {
	dst = appendEscaped(append(dst, entryOpen...), e.Name, textSpecials)
	dst = appendEscaped(append(dst, entrySep...), e.Description, textSpecials)
	return append(dst, '\n')
}

// InitialCatalogOf is InitialCatalog for entries already rendered with
// AppendEntryLine: the lines, back to back, held in pieces.
func InitialCatalogOf(lines [][]byte) string {
	return catalogOf(initialHeader, lines)
}

// ReplacementCatalogOf is ReplacementCatalog for entries already rendered
// with AppendEntryLine, held in pieces; no lines render the Tombstone.
func ReplacementCatalogOf(lines [][]byte) string {
	n := 0
	for _, p := range lines {
		n += len(p)
	}
	if n == 0 {
		return tombstone
	}
	return catalogOf(replacementHeader, lines)
}

func catalogOf(header string, lines [][]byte) string {
	return catalogWith(header, lines, "")
}

// catalogWith renders a catalog with a sentence, if any, right after the
// list of entries.
func catalogWith(header string, lines [][]byte, sentence string) string {
	n := len(header) + len(catalogFooter) + len(sentence)
	for _, p := range lines {
		n += len(p)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(header)
	for _, p := range lines {
		b.Write(p)
	}
	b.WriteString(listClose)
	b.WriteString(sentence)
	b.WriteString(catalogFooter[len(listClose):])
	return b.String()
}

func entryLineLen(e *digest.Entry) int {
	return len(entryOpen) + escapedLen(e.Name, textSpecials) +
		len(entrySep) + escapedLen(e.Description, textSpecials) + 1
}

func writeEntryLine(b *strings.Builder, e *digest.Entry) {
	b.WriteString(entryOpen)
	writeEscaped(b, e.Name, textSpecials)
	b.WriteString(entrySep)
	writeEscaped(b, e.Description, textSpecials)
	b.WriteByte('\n')
}
