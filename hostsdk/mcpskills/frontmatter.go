package mcpskills

import "strings"

// stripFrontmatter returns the Markdown body of a SKILL.md document, as the
// filesystem provider does: a leading byte order mark is removed; if the
// first line is "---" (trailing blanks and a CR tolerated) and a later line
// is "---" as well, everything up to and including that closing line is
// removed; the body is trimmed of surrounding whitespace. A document without
// a closed frontmatter block is returned whole (trimmed): the index already
// names and describes the skill, and a remote body is never silently emptied.
func stripFrontmatter(doc string) string {
	doc = strings.TrimPrefix(doc, "\uFEFF")
	first, rest, ok := strings.Cut(doc, "\n")
	if !ok || !isFence(first) {
		return strings.TrimSpace(doc)
	}
	for rest != "" {
		line, next, _ := strings.Cut(rest, "\n")
		if isFence(line) {
			return strings.TrimSpace(next)
		}
		rest = next
	}
	return strings.TrimSpace(doc)
}

func isFence(line string) bool {
	return strings.TrimRight(line, " \t\r") == "---"
}
