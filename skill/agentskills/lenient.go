package agentskills

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

// maxFirstParagraphBytes bounds the paragraph a layout describes a skill
// by; the catalog caps descriptions much shorter anyway.
const maxFirstParagraphBytes = 4 * MaxDescriptionLength

// lenience is how the SKILL.md files found are read beyond the Agent
// Skills format: what the configured presets allow.
type lenience struct {
	// describeFromBody: a missing description is the body's first
	// paragraph, and a file without frontmatter loads (Claude Code).
	describeFromBody bool
}

// Leniency messages, reported as warnings when applied.
const (
	msgNamedAfterDir     = "frontmatter has no name; the skill is named after its directory %q, as Claude Code names it"
	msgDescribedFromBody = "frontmatter has no description; the skill is described by the first paragraph of its body, as Claude Code describes it"
	msgNoFrontmatter     = "the file has no frontmatter; it loads as Claude Code loads it, named after its directory and described by its first paragraph"
)

// interpret turns the parse of a SKILL.md found in a directory named
// dirName into the frontmatter the skill is offered with, applying the
// leniencies: a missing name is the directory's name (when that is a
// valid skill name), and with describeFromBody a missing description is
// the body's first paragraph and a file without frontmatter loads. Each
// leniency applied adds a warning. err says why the skill cannot be
// offered; the warnings gathered so far are returned with it.
func (lz lenience) interpret(pr *parsed, dirName string) (fm Frontmatter, warnings []string, err error) {
	switch {
	case pr.noFront && lz.describeFromBody:
		fm = Frontmatter{UserInvocable: true}
		warnings = append(warnings, msgNoFrontmatter)
	case pr.err != nil:
		return Frontmatter{}, nil, pr.err
	default:
		fm = pr.fm
		warnings = append(warnings, pr.warnings...)
	}
	if fm.Name == "" && skill.ValidName(dirName) {
		fm.Name = dirName
		if !pr.noFront {
			warnings = append(warnings, fmt.Sprintf(msgNamedAfterDir, dirName))
		}
	}
	if lz.describeFromBody && strings.TrimSpace(fm.Description) == "" && pr.firstParagraph != "" {
		fm.Description = pr.firstParagraph
		if !pr.noFront {
			warnings = append(warnings, msgDescribedFromBody)
		}
	}
	vw, err := fm.Validate(dirName)
	warnings = append(warnings, vw...)
	return fm, warnings, err
}

// firstParagraph returns the first paragraph of a Markdown body: the
// first run of non-blank lines that is not a heading, a fenced code
// block, an HTML comment or a horizontal rule, its lines joined by single
// spaces. It is at most maxFirstParagraphBytes long, cut on a character
// boundary.
func firstParagraph(body []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), len(body)+1)
	var lines []string
	fence := ""
	comment := false
	size := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case fence != "":
			if strings.HasPrefix(line, fence) {
				fence = ""
			}
			continue
		case comment:
			if strings.Contains(line, "-->") {
				comment = false
			}
			continue
		}
		if len(lines) == 0 {
			switch {
			case line == "", strings.HasPrefix(line, "#"), isRule(line):
				continue
			case strings.HasPrefix(line, "```"), strings.HasPrefix(line, "~~~"):
				fence = line[:3]
				continue
			case strings.HasPrefix(line, "<!--"):
				comment = !strings.Contains(line, "-->")
				continue
			}
		} else if line == "" {
			break
		}
		lines = append(lines, line)
		size += len(line) + 1
		if size > maxFirstParagraphBytes {
			break
		}
	}
	p := strings.Join(lines, " ")
	if len(p) > maxFirstParagraphBytes {
		p = p[:maxFirstParagraphBytes]
		for len(p) > 0 {
			if r, n := utf8.DecodeLastRuneInString(p); r != utf8.RuneError || n > 1 {
				break
			}
			p = p[:len(p)-1]
		}
	}
	return p
}

// isRule reports a Markdown thematic break such as "---" or "***".
func isRule(line string) bool {
	s := strings.ReplaceAll(line, " ", "")
	if len(s) < 3 {
		return false
	}
	return strings.Trim(s, "-") == "" || strings.Trim(s, "*") == "" || strings.Trim(s, "_") == ""
}
