package doclinks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, relative to this package.
const root = "../.."

// TestRelativeLinksResolve checks every relative link of every Markdown
// file outside testdata (whose Markdown files are skills and fixtures, not
// documentation) and of testdata/conformance/README.md, the scenario format.
func TestRelativeLinksResolve(t *testing.T) {
	files, err := markdownFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.md", "plugin/REFERENCE.md", "hostsdk/README.md", "cmd/skillcatalog/README.md"} {
		if !slices.Contains(files, want) {
			t.Errorf("%s is not among the Markdown files checked: %v", want, files)
		}
	}
	checked := 0
	for _, f := range files {
		problems, n, err := brokenLinks(root, f)
		if err != nil {
			t.Fatal(err)
		}
		checked += n
		for _, p := range problems {
			t.Errorf("%s: %s", f, p)
		}
	}
	if checked < 50 {
		t.Errorf("only %d relative links checked; the link pattern probably stopped matching", checked)
	}
}

// TestBrokenLinksAreFound makes sure the check fails where it should: a
// missing file, a missing heading, a link out of the repository; and passes
// links in code, absolute URLs and headings with code and punctuation.
func TestBrokenLinksAreFound(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/REF.md", "# Reference\n\n## The `skill_resource` tool\n\n## User invocation (`/name`)\n\n## Twice\n\n## Twice\n\n```\n## Not a heading\n```\n")
	write("a/code.go", "package a\n")
	write("README.md", strings.Join([]string{
		"[ok](a/REF.md) [ok](a/REF.md#the-skill_resource-tool) [ok](a/REF.md#user-invocation-name)",
		"[ok](a/REF.md#twice-1) [ok](a/code.go) [ok](a/) [ok](#top) [ok](https://example.com/x.md)",
		"`[not a link](missing.md)`",
		"```",
		"[not a link](missing-in-fence.md)",
		"```",
		"# Top",
		"[bad](missing.md) [bad](a/REF.md#no-such-heading) [bad](a/REF.md#not-a-heading) [bad](../outside.md)",
		"[bad](#nowhere)",
	}, "\n")+"\n")
	problems, n, err := brokenLinks(dir, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n != 12 {
		t.Errorf("checked %d links, want 12", n)
	}
	var bad []string
	for _, p := range problems {
		bad = append(bad, strings.Fields(p)[0])
	}
	want := []string{"missing.md", "a/REF.md#no-such-heading", "a/REF.md#not-a-heading", "../outside.md", "#nowhere"}
	if !slices.Equal(bad, want) {
		t.Errorf("broken links found: %q, want %q\n%s", bad, want, strings.Join(problems, "\n"))
	}
}

// markdownFiles returns the repository's documentation: every .md file
// outside testdata, node_modules and .git, and testdata/conformance/README.md,
// as slash-separated paths relative to root.
func markdownFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "bin", ".cache":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".md") {
			files = append(files, rel)
		}
		return nil
	})
	if _, statErr := os.Stat(filepath.Join(root, "testdata", "conformance", "README.md")); statErr == nil {
		files = append(files, "testdata/conformance/README.md")
	}
	return files, err
}

var (
	// link is an inline Markdown link or image: [text](target "title").
	link = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// codeSpan is inline code, where brackets are text.
	codeSpan = regexp.MustCompile("`[^`\n]*`")
	// scheme starts an absolute URL (https:, mailto:, ...).
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// brokenLinks checks the relative links of the Markdown file name (relative
// to root): each must lead to a file or directory inside root, and a
// fragment on a link to a Markdown file must be one of its headings'
// anchors. It returns one line per broken link, starting with the target,
// and how many relative links it checked.
func brokenLinks(root, name string) ([]string, int, error) {
	text, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		return nil, 0, err
	}
	var problems []string
	n := 0
	for _, target := range links(string(text)) {
		if scheme.MatchString(target) {
			continue
		}
		n++
		file, fragment, _ := strings.Cut(target, "#")
		resolved := name
		if file != "" {
			resolved = filepath.ToSlash(filepath.Join(filepath.Dir(name), file))
			if resolved == ".." || strings.HasPrefix(resolved, "../") {
				problems = append(problems, target+" leads outside the repository")
				continue
			}
			if _, err := os.Stat(filepath.Join(root, resolved)); err != nil {
				problems = append(problems, target+" does not exist ("+resolved+")")
				continue
			}
		}
		if fragment == "" || !strings.HasSuffix(resolved, ".md") {
			continue
		}
		body, err := os.ReadFile(filepath.Join(root, resolved))
		if err != nil {
			return nil, 0, err
		}
		if !slices.Contains(anchors(string(body)), fragment) {
			problems = append(problems, target+" names no heading of "+resolved)
		}
	}
	return problems, n, nil
}

// links returns the targets of the inline links of a Markdown text, leaving
// out fenced code blocks and code spans.
func links(markdown string) []string {
	var targets []string
	for _, line := range outsideFences(markdown) {
		line = codeSpan.ReplaceAllString(line, "code")
		for _, m := range link.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
	}
	return targets
}

// anchors returns the anchors GitHub gives the headings of a Markdown
// text: lower case, punctuation other than '-' and '_' dropped, spaces as
// '-', and a repeated anchor numbered -1, -2, ...
func anchors(markdown string) []string {
	var out []string
	seen := map[string]int{}
	for _, line := range outsideFences(markdown) {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(line[level:])) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(k)
		} else {
			seen[a] = 1
		}
		out = append(out, a)
	}
	return out
}

// outsideFences returns the lines of a Markdown text that are not inside a
// fenced code block.
func outsideFences(markdown string) []string {
	var lines []string
	fence := ""
	for _, line := range strings.Split(markdown, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		lines = append(lines, line)
	}
	return lines
}
