package render

import (
	"iter"
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

	// An entry line is entryOpen NAME entrySep DESCRIPTION "\n"; a remote
	// skill's is entryOpen NAME originTexts.entry ORIGIN originClose
	// DESCRIPTION "\n", the texts of its origin's kind.
	entryOpen   = "-`"
	entrySep    = "`: "
	originClose = "`): "
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
// included: the unit assembleCatalog assembles. A
// caller that renders many catalogs over mostly the same entries keeps the
// lines and renders only the entries that changed. A remote skill's line
// names the source it comes from, by its kind and label, after its name:
//
//	-`refunds` (MCP server `docs`): Process refund requests.
//	-`wrangler` (website `docs`): Deploy with Wrangler.
func AppendEntryLine(dst []byte, e digest.Entry) []byte {
	dst = appendEscaped(append(dst, entryOpen...), e.Name, textSpecials)
	if e.Origin != "" {
		dst = appendEscaped(append(dst, entryTexts(e.OriginKind).entry...), e.Origin, textSpecials)
		dst = append(dst, originClose...)
	} else {
		dst = append(dst, entrySep...)
	}
	dst = appendEscaped(dst, e.Description, textSpecials)
	return append(dst, '\n')
}

// WithRemoteSkillsNote returns a catalog text with origins.Note() as a
// sentence of its closing instructions, before the closing
// </system-reminder> (and before the UserInvocationNote, when that is added
// after it). The plugin adds it to every catalog that lists a remote skill,
// the sentence of the kinds of source it lists, so a catalog of the host's
// own skills reads as it always has. A text without the closing tag, or
// origins of no kind, return the text as it is.
func WithRemoteSkillsNote(catalog string, origins RemoteOrigins) string {
	if note := origins.Note(); note != "" {
		return withClosingSentence(catalog, note)
	}
	return catalog
}

// assembleCatalog renders a catalog from its entries' lines, each written
// by AppendEntryLine, held back to back in pieces: the first catalog of a
// session, or, with update set, a replacement (the Tombstone when there are
// no lines and nothing was left out). With omitted above 0 the catalog was
// fitted to a budget (FitCatalog) that left that many skills out, and says
// how many after its list; it is then never the Tombstone, even when no
// line fits. It renders, byte for byte, what InitialCatalog or
// ReplacementCatalog render for the same entries; a caller that renders many
// catalogs over mostly the same entries keeps the lines and renders only
// the entries that changed.
func assembleCatalog(lines [][]byte, update bool, omitted int) string {
	header := initialHeader
	if update {
		header = replacementHeader
		if omitted <= 0 && linesLen(lines) == 0 {
			return tombstone
		}
	}
	if omitted > 0 {
		return catalogWith(header, lines, omittedSentence(omitted, false))
	}
	return catalogWith(header, lines, "")
}

func linesLen(lines [][]byte) int {
	n := 0
	for _, p := range lines {
		n += len(p)
	}
	return n
}

// catalogWith renders a catalog with a sentence, if any, right after the
// list of entries.
func catalogWith(header string, lines [][]byte, sentence string) string {
	n := len(header) + len(catalogFooter) + len(sentence) + linesLen(lines)
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

// CatalogNotes says which sentences a catalog text adds to its closing
// instructions.
type CatalogNotes struct {
	Remote         RemoteOrigins // Remote.Note(), as WithRemoteSkillsNote adds it
	UserInvocation bool          // UserInvocationNote, as WithUserInvocationNote adds it
	// SearchTool says the skill-search tool is mounted: the sentence of a
	// catalog that left skills out says to search for them.
	SearchTool bool
}

// AssembleCatalogSeq is assembleCatalog for lines that lines yields in
// order, with notes added: the text equals assembleCatalog's passed through
// WithRemoteSkillsNote and then WithUserInvocationNote, as notes asks. It
// iterates lines twice, to size the text exactly: a catalog's one large
// allocation is its own length, however many notes it carries.
func AssembleCatalogSeq(lines iter.Seq[[]byte], update bool, omitted int, notes CatalogNotes) string {
	n := 0
	for p := range lines {
		n += len(p)
	}
	header := initialHeader
	if update {
		header = replacementHeader
		if omitted <= 0 && n == 0 {
			return withNotes(tombstone, notes)
		}
	}
	var sentence string
	if omitted > 0 {
		sentence = omittedSentence(omitted, notes.SearchTool)
	}
	// The notes go between the footer's instructions and its closing tag.
	instructions := catalogFooter[len(listClose) : len(catalogFooter)-len(reminderClose)]
	n += len(header) + len(listClose) + len(sentence) + len(instructions) + len(reminderClose)
	remote := notes.Remote.Note()
	if remote != "" {
		n += 1 + len(remote)
	}
	if notes.UserInvocation {
		n += 1 + len(UserInvocationNote)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(header)
	for p := range lines {
		b.Write(p)
	}
	b.WriteString(listClose)
	b.WriteString(sentence)
	b.WriteString(instructions)
	if remote != "" {
		b.WriteString(" ")
		b.WriteString(remote)
	}
	if notes.UserInvocation {
		b.WriteString(" " + UserInvocationNote)
	}
	b.WriteString(reminderClose)
	return b.String()
}

// withNotes adds notes to a catalog text the way WithRemoteSkillsNote and
// WithUserInvocationNote do.
func withNotes(text string, notes CatalogNotes) string {
	text = WithRemoteSkillsNote(text, notes.Remote)
	if notes.UserInvocation {
		text = WithUserInvocationNote(text)
	}
	return text
}

func entryLineLen(e *digest.Entry) int {
	return len(entryOpen) + escapedLen(e.Name, textSpecials) + separatorLen(e, escapedLen(e.Origin, textSpecials)) +
		escapedLen(e.Description, textSpecials) + 1
}

// separatorLen is the length of what stands between an entry's name and its
// description, given the length of its escaped origin (in the caller's
// unit: bytes or characters; the fixed parts are ASCII), which depends on
// the origin's kind.
func separatorLen(e *digest.Entry, originLen int) int {
	if e.Origin == "" {
		return len(entrySep)
	}
	return len(entryTexts(e.OriginKind).entry) + originLen + len(originClose)
}

func writeEntryLine(b *strings.Builder, e *digest.Entry) {
	b.WriteString(entryOpen)
	writeEscaped(b, e.Name, textSpecials)
	if e.Origin != "" {
		b.WriteString(entryTexts(e.OriginKind).entry)
		writeEscaped(b, e.Origin, textSpecials)
		b.WriteString(originClose)
	} else {
		b.WriteString(entrySep)
	}
	writeEscaped(b, e.Description, textSpecials)
	b.WriteByte('\n')
}
