package mcpskills

import "github.com/skillcatalog/skillcatalog/internal/skillsext"

// stripFrontmatter returns the Markdown body of a SKILL.md document as every
// provider of remote skills does (skillsext.StripFrontmatter): a document
// without a closed frontmatter block is returned whole (trimmed), since the
// index already names and describes the skill.
func stripFrontmatter(doc string) string { return skillsext.StripFrontmatter(doc) }
