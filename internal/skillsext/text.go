package skillsext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The texts below are shared by the providers of remote skills (mcpskills,
// webskills): a catalog description and an error line are made alike
// whichever kind of origin sent them.

// NormalizeDescription turns every run of whitespace (including Unicode
// spaces, U+FEFF and control characters) into one space and trims the
// ends. Invalid UTF-8 becomes U+FFFD.
func NormalizeDescription(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\uFEFF' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// TruncateUTF8 cuts s to at most n bytes at a character boundary and trims
// trailing spaces.
func TruncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], " ")
}

// Clip cuts s to at most n bytes without splitting a character, ending it
// with "..." when it was cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ell = "..."
	cut := n - len(ell)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ell
}

// OneLine makes msg one line of at most n bytes: invalid UTF-8 becomes
// U+FFFD, and control characters and line or paragraph separators become
// spaces (a message may quote what a remote origin sent).
func OneLine(msg string, n int) string {
	msg = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(msg, "\uFFFD"))
	return Clip(msg, n)
}

// StripFrontmatter returns the Markdown body of a SKILL.md document, as the
// filesystem provider does: a leading byte order mark is removed; if the
// first line is "---" (trailing blanks and a CR tolerated) and a later line
// is "---" as well, everything up to and including that closing line is
// removed; the body is trimmed of surrounding whitespace. A document without
// a closed frontmatter block is returned whole (trimmed): a remote body is
// never silently emptied.
func StripFrontmatter(doc string) string {
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

// MaxDiagnostics bounds the diagnostics a provider keeps from one index or
// catalog: the rest are counted in one closing line.
const MaxDiagnostics = 20

// Diagnostics collects at most MaxDiagnostics lines, each made one line of
// at most MaxBytes bytes (OneLine), and counts the rest.
type Diagnostics struct {
	// MaxBytes bounds each line.
	MaxBytes int
	out      []string
	omitted  int
}

// Add adds a line, or counts it when the bound is reached.
func (d *Diagnostics) Add(format string, args ...any) {
	if len(d.out) >= MaxDiagnostics {
		d.omitted++
		return
	}
	d.out = append(d.out, OneLine(fmt.Sprintf(format, args...), d.MaxBytes))
}

// Lines returns the lines added, and how many more were not kept.
func (d *Diagnostics) Lines() []string {
	if d.omitted > 0 {
		return append(d.out, fmt.Sprintf("%d more diagnostics omitted", d.omitted))
	}
	return d.out
}
