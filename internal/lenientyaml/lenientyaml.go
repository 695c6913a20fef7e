// Package lenientyaml holds the one leniency that skill frontmatter readers
// share: the YAML authors most often get wrong is a top-level value left
// unquoted although it holds ": " (description: Use this: it helps), which
// strict YAML rejects and every skill host reads as the plain string it
// spells. The filesystem provider and the MCP Skills extension's entries
// read frontmatter through it, so a SKILL.md reads alike on disk and over
// MCP. It is pure: no I/O, no YAML parsing of its own. InFile words the
// parser's errors for the file they are about.
package lenientyaml

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// QuoteColonValues rewrites top-level "key: value" lines whose unquoted
// value strict YAML rejects (a ": " inside, a trailing ":", or a first
// character YAML reserves: '@', '`', '%') into single-quoted scalars,
// folding indented continuation lines into the value as a plain scalar
// would. It returns the rewritten text and the keys it changed, quoted as Go
// strings, sorted and without repeats; no keys means nothing changed and
// there is nothing to retry (fixed is then front).
func QuoteColonValues(front string) (fixed string, keys []string) {
	lines := strings.Split(front, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		key, value, ok := needsQuoting(lines[i])
		if !ok {
			out = append(out, lines[i])
			continue
		}
		for i+1 < len(lines) && isContinuation(lines[i+1]) {
			i++
			value += " " + strings.TrimSpace(lines[i])
		}
		out = append(out, key+": '"+strings.ReplaceAll(value, "'", "''")+"'")
		keys = append(keys, strconv.Quote(key))
	}
	if len(keys) == 0 {
		return front, nil
	}
	slices.Sort(keys)
	return strings.Join(out, "\n"), slices.Compact(keys)
}

// needsQuoting recognizes a top-level mapping line with a plain value that
// cannot be a YAML plain scalar as written.
func needsQuoting(line string) (key, value string, ok bool) {
	if line == "" || strings.ContainsRune(" \t#-", rune(line[0])) {
		return "", "", false
	}
	idx := strings.Index(line, ": ")
	if idx <= 0 {
		return "", "", false
	}
	key = line[:idx]
	if strings.ContainsAny(key, "'\"[]{}#&*!|>%@`,") {
		return "", "", false
	}
	value = strings.TrimSpace(line[idx+2:])
	if value == "" || strings.ContainsRune("'\"|>[{&*!", rune(value[0])) {
		return "", "", false
	}
	if strings.Contains(value, ": ") || strings.HasSuffix(value, ":") || strings.ContainsRune("@`%", rune(value[0])) {
		return key, value, true
	}
	return "", "", false
}

func isContinuation(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t') && strings.TrimSpace(line) != ""
}

// yamlLine finds the line number in a YAML parser's message.
var yamlLine = regexp.MustCompile(`^line (\d+): `)

// parserProblems are the problems the YAML parser, rather than its
// scanner, reports. The parser numbers lines from 0 (the line where the
// construct it could not finish began), the scanner from 1.
var parserProblems = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"did not find expected node content", "did not find expected key",
	"did not find expected '-' indicator", "did not find expected ',' or ']'",
	"did not find expected ',' or '}'", "found undefined tag handle",
	"found duplicate %YAML directive", "found incompatible YAML document",
	"found duplicate %TAG directive",
}

// InFile words a YAML parser's error about a SKILL.md's frontmatter for a
// reader of the file: the "yaml: " prefix dropped, and its line number
// counted from the top of the file, where the opening '---' is line 1, so
// that "line 3 of SKILL.md" is the third line an editor shows.
func InFile(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	n, convErr := strconv.Atoi(m[1])
	if convErr != nil {
		return msg
	}
	problem := msg[len(m[0]):]
	n++ // the opening '---'
	if slices.Contains(parserProblems, problem) {
		n++
	}
	return fmt.Sprintf("line %d of SKILL.md: %s", n, problem)
}
