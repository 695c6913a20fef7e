package skill

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on a skill's `paths`: beyond them patterns are left out, with a
// diagnostic. A pattern is matched against each path a session touched at
// every step, so the bounds keep that work small whatever a skill says.
const (
	// MaxPathPatterns bounds the patterns one skill keeps, braces expanded.
	MaxPathPatterns = 64
	// MaxPathPatternBytes bounds one pattern.
	MaxPathPatternBytes = 1024
	// maxBraceAlternatives bounds what one pattern's braces expand to.
	maxBraceAlternatives = 64
	// MaxTouchedPathBytes bounds a touched path the matcher considers;
	// longer ones never match.
	MaxTouchedPathBytes = 4096
)

// ParsePaths reads a skill's `paths` frontmatter value, given as the
// strings it holds: one string (a comma-separated list) or the items of a
// list. Each string is split at the commas outside braces, each part
// trimmed, brace groups expanded (`*.{ts,tsx}` is `*.ts` and `*.tsx`), and
// each resulting pattern checked (ValidPathPattern). It returns the
// patterns kept, in order without repeats, and one diagnostic for each part
// left out. When every pattern kept is `**`, the skill is not scoped at all
// and no pattern is returned (as Claude Code reads it).
func ParsePaths(values []string) (patterns []string, diagnostics []string) {
	seen := make(map[string]bool)
	for _, v := range values {
		for _, part := range splitOutsideBraces(v) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			alts, err := expandBraces(part)
			if err != nil {
				diagnostics = append(diagnostics, fmt.Sprintf("paths: pattern %q left out: %v", part, err))
				continue
			}
			for _, p := range alts {
				if err := ValidPathPattern(p); err != nil {
					diagnostics = append(diagnostics, fmt.Sprintf("paths: pattern %q left out: %v", p, err))
					continue
				}
				if seen[p] {
					continue
				}
				if len(patterns) == MaxPathPatterns {
					diagnostics = append(diagnostics, fmt.Sprintf("paths: pattern %q left out: more than %d patterns", p, MaxPathPatterns))
					continue
				}
				seen[p] = true
				patterns = append(patterns, p)
			}
		}
	}
	for _, p := range patterns {
		if p != "**" {
			return patterns, diagnostics
		}
	}
	return nil, diagnostics
}

// ValidPathPattern reports why p is not a pattern a skill's `paths` may
// hold, or nil: it must be valid UTF-8 without control characters, at most
// MaxPathPatternBytes, not only a `!`, and every slash-separated segment
// must be a valid path.Match pattern other than `.` and `..`.
func ValidPathPattern(p string) error {
	switch {
	case len(p) > MaxPathPatternBytes:
		return fmt.Errorf("longer than %d bytes", MaxPathPatternBytes)
	case !utf8.ValidString(p):
		return fmt.Errorf("not valid UTF-8")
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return fmt.Errorf("holds a control character")
	}
	body, _, _ := splitPattern(p)
	if body == "" {
		return fmt.Errorf("matches nothing")
	}
	for _, seg := range strings.Split(body, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("has an empty, . or .. segment")
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("malformed glob segment %q", seg)
		}
	}
	return nil
}

// splitPattern takes a pattern apart as gitignore does: a leading `!`
// negates it, a trailing `/` makes it match directories only, and a slash
// at its start or in its middle anchors it to the base directory (the
// leading one is dropped).
func splitPattern(p string) (body string, negated, dirOnly bool) {
	if strings.HasPrefix(p, "!") {
		negated, p = true, p[1:]
	}
	if strings.HasSuffix(p, "/") {
		dirOnly, p = true, strings.TrimRight(p, "/")
	}
	return p, negated, dirOnly
}

// splitOutsideBraces splits s at the commas that no brace group encloses.
func splitOutsideBraces(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// expandBraces expands the brace groups of p, nested ones included, into
// the patterns they stand for, in order. An unbalanced brace is an error,
// and so is an expansion into more than maxBraceAlternatives patterns.
func expandBraces(p string) ([]string, error) {
	open := -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			open = i
		case '}':
			if open < 0 {
				return nil, fmt.Errorf("unbalanced braces")
			}
			// The first closing brace closes the innermost group.
			return expandGroup(p, open, i)
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("unbalanced braces")
	}
	return []string{p}, nil
}

// expandGroup expands the innermost brace group of p, from open to close,
// and what the results hold.
func expandGroup(p string, open, close int) ([]string, error) {
	var out []string
	for _, alt := range strings.Split(p[open+1:close], ",") {
		more, err := expandBraces(p[:open] + alt + p[close+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
		if len(out) > maxBraceAlternatives {
			return nil, fmt.Errorf("braces expand to more than %d patterns", maxBraceAlternatives)
		}
	}
	return out, nil
}

// JoinPaths is the Summary.Paths of patterns: one per line.
func JoinPaths(patterns []string) string {
	return strings.Join(patterns, "\n")
}

// PathPatterns returns the patterns of the Summary.Paths value p, one per
// line, empty lines left out.
func PathPatterns(p string) []string {
	if p == "" {
		return nil
	}
	var out []string
	for _, line := range strings.Split(p, "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// TouchedRelative returns the path a touched file is matched by: file
// relative to the working directory cwd, slash-separated and cleaned. A
// relative file is taken as relative to cwd already; an absolute one must
// lie below cwd. It reports false for a path that cannot match: empty,
// longer than MaxTouchedPathBytes, not valid UTF-8 or holding a NUL,
// outside cwd, cwd itself, or absolute beside an empty cwd.
func TouchedRelative(cwd, file string) (string, bool) {
	if file == "" || len(file) > MaxTouchedPathBytes || !utf8.ValidString(file) || strings.IndexByte(file, 0) >= 0 {
		return "", false
	}
	if path.IsAbs(file) {
		if cwd == "" || !path.IsAbs(cwd) {
			return "", false
		}
		base := path.Clean(cwd)
		clean := path.Clean(file)
		if base != "/" {
			base += "/"
		}
		rel, ok := strings.CutPrefix(clean, base)
		if !ok || rel == "" {
			return "", false
		}
		return rel, true
	}
	rel := path.Clean(file)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// MatchPaths reports whether the cleaned relative path rel (as
// TouchedRelative returns it) is matched by patterns, read as a
// .gitignore file reads its lines: the last pattern that matches decides,
// and a `!` pattern that matches un-matches. A pattern with no slash but a
// trailing one matches any path component at any depth (`*.ts` matches
// `web/src/app.ts`); one with a slash at its start or in its middle is
// anchored to the working directory (`src/*.ts` matches `src/app.ts`, not
// `web/src/app.ts`). `*` matches within a segment, `?` one character,
// `[...]` a class, `**` any number of segments, zero included. A pattern
// that matches a directory matches every path below it, and one with a
// trailing slash matches directories only. Malformed patterns never match.
func MatchPaths(patterns []string, rel string) bool {
	if rel == "" {
		return false
	}
	comps := strings.Split(rel, "/")
	matched := false
	for _, p := range patterns {
		body, negated, dirOnly := splitPattern(p)
		if body == "" {
			continue
		}
		if matchPattern(body, dirOnly, comps) {
			matched = !negated
		}
	}
	return matched
}

// matchPattern reports whether one pattern, taken apart by splitPattern,
// matches the path of comps or a directory that holds it.
func matchPattern(body string, dirOnly bool, comps []string) bool {
	if !strings.Contains(body, "/") {
		for i, c := range comps {
			if dirOnly && i == len(comps)-1 {
				break
			}
			if ok, _ := path.Match(body, c); ok {
				return true
			}
		}
		return false
	}
	segs := strings.Split(strings.TrimPrefix(body, "/"), "/")
	// prefixes[k]: the pattern matches exactly the first k components.
	prefixes := matchPrefixes(segs, comps)
	for k := 1; k <= len(comps); k++ {
		if prefixes[k] && (k < len(comps) || !dirOnly) {
			return true
		}
	}
	return false
}

// matchPrefixes returns, for each k from 0 to len(comps), whether segs
// match exactly comps[:k]: a dynamic program over segments and components,
// so that many `**` cost no more than one.
func matchPrefixes(segs, comps []string) []bool {
	// cur[k]: segs[:i] match comps[:k].
	cur := make([]bool, len(comps)+1)
	next := make([]bool, len(comps)+1)
	cur[0] = true
	for _, seg := range segs {
		clear(next)
		if seg == "**" {
			any := false
			for k := range cur {
				any = any || cur[k]
				next[k] = any
			}
		} else {
			for k := 1; k <= len(comps); k++ {
				if cur[k-1] {
					next[k], _ = path.Match(seg, comps[k-1])
				}
			}
		}
		cur, next = next, cur
	}
	return cur
}
