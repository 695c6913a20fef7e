package agentskills

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Survey says what a look for skills found, as one line a tool prints:
// the directories looked in, how many skills loaded, which were skipped
// and why, and which directories that hold skills were not looked in.
// `skillcatalog demo`, `explain`, `validate` and `serve-mcp` each print
// theirs, so the four tell a directory alike.
type Survey struct {
	// Dirs are the directories looked in that exist, in the order they
	// were read.
	Dirs []string `json:"dirs"`
	// Absent are the directories looked for that do not exist.
	Absent []string `json:"absent"`
	// Loaded is how many skills loaded (or, for a server, are served).
	Loaded int `json:"loaded"`
	// Skipped are the skills found that did not load, and why.
	Skipped []SkippedSkill `json:"skipped"`
	// NotScanned are directories that hold skills but were not looked in,
	// and why.
	NotScanned []NotScanned `json:"notScanned"`
	// Verb says what became of the skills that were not skipped: "loaded"
	// when empty, "served" for a server.
	Verb string `json:"-"`
}

// SkippedSkill is a skill a Survey found and did not load.
type SkippedSkill struct {
	// Path is the skill's directory.
	Path string `json:"path"`
	// Skill is its name, when known, else its directory's name.
	Skill string `json:"skill,omitempty"`
	// Reason is the short cause (one of the Reason constants, or a
	// server's own).
	Reason string `json:"reason"`
	// Detail is the whole message.
	Detail string `json:"detail"`
}

// NotScanned is a directory of skills a Survey did not look in.
type NotScanned struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Why a directory of skills is not scanned.
const (
	// WhyUntrusted: a project root of a project the host does not trust.
	WhyUntrusted = "the project is not trusted"
	// WhyClaudeCode and WhyCodex: a client directory that only that
	// preset scans.
	WhyClaudeCode = "only the claude-code preset scans it"
	WhyCodex      = "only the codex preset scans it"
)

// MarshalJSON encodes s with its one-line summary, as "summary".
func (s Survey) MarshalJSON() ([]byte, error) {
	type plain Survey
	p := plain(s)
	p.Dirs, p.Absent = nonNil(p.Dirs), nonNil(p.Absent)
	if p.Skipped == nil {
		p.Skipped = []SkippedSkill{}
	}
	if p.NotScanned == nil {
		p.NotScanned = []NotScanned{}
	}
	return json.Marshal(struct {
		plain
		Summary string `json:"summary"`
	}{p, s.Summary()})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Summary says in one line which directories were scanned, how many
// skills loaded, how many were skipped and why (counted by reason), and
// which directories of skills were not scanned:
//
//	scanned 1 directory (testdata/skills), 1 absent (/home/u/.agents/skills): 4 skills loaded, 2 skipped (1 invalid YAML, 1 missing description)
//
// A directory looked for that does not exist is counted absent, never
// scanned: "scanned no directory, 1 absent (...)".
func (s Survey) Summary() string {
	var b strings.Builder
	if n := len(s.Dirs); n == 0 {
		b.WriteString("scanned no directory")
	} else {
		fmt.Fprintf(&b, "scanned %d %s (%s)", n, plural(n, "directory", "directories"), strings.Join(quoteAll(s.Dirs), ", "))
	}
	if n := len(s.Absent); n > 0 {
		fmt.Fprintf(&b, ", %d absent (%s)", n, strings.Join(quoteAll(s.Absent), ", "))
	}
	verb := cmp.Or(s.Verb, "loaded")
	fmt.Fprintf(&b, ": %d %s %s, ", s.Loaded, plural(s.Loaded, "skill", "skills"), verb)
	if len(s.Skipped) == 0 {
		b.WriteString("none skipped")
	} else {
		fmt.Fprintf(&b, "%d skipped (%s)", len(s.Skipped), strings.Join(s.reasonCounts(), ", "))
	}
	if len(s.NotScanned) > 0 {
		parts := make([]string, len(s.NotScanned))
		for i, d := range s.NotScanned {
			parts[i] = skill.QuoteUnsafe(d.Path) + " (" + d.Why + ")"
		}
		b.WriteString("; not scanned: " + strings.Join(parts, ", "))
	}
	return b.String()
}

// reasonCounts counts the skipped skills by reason, in reason order.
func (s Survey) reasonCounts() []string {
	counts := map[string]int{}
	for _, k := range s.Skipped {
		counts[k.Reason]++
	}
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for i, r := range reasons {
		reasons[i] = fmt.Sprintf("%d %s", counts[r], r)
	}
	return reasons
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func quoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = skill.QuoteUnsafe(p)
	}
	return out
}

// Survey says what the provider finds for the working directory cwd, as
// List would offer it: the roots it reads, the skills it offers, the
// skills it skips and why, and the directories of skills it leaves
// unread, with why: the project roots of an untrusted project, and the
// .claude/skills and .codex/skills directories (in the project and the
// home directory) of a preset that is not configured.
func (p *Provider) Survey(ctx context.Context, cwd string) (Survey, error) {
	res, err := p.resolve(ctx, cwd, false)
	if err != nil {
		return Survey{}, err
	}
	cwd, _ = cleanCwd(cwd) // resolve accepted it
	lay, key := p.locate(cwd)
	sv := Survey{Loaded: len(res.skills)}
	for _, r := range res.roots {
		if isDir(r) {
			sv.Dirs = append(sv.Dirs, r)
		} else {
			sv.Absent = append(sv.Absent, r)
		}
	}
	for _, d := range res.diags {
		if d.Reason != "" {
			sv.Skipped = append(sv.Skipped, SkippedSkill{Path: filepath.Dir(d.Path), Skill: d.Skill, Reason: d.Reason, Detail: d.Message})
		}
	}
	if lay.projectRoot != "" && !key.trusted {
		for _, r := range lay.roots {
			if isDir(r.path) && !slices.Contains(res.roots, r.path) {
				sv.NotScanned = append(sv.NotScanned, NotScanned{Path: r.path, Why: WhyUntrusted})
			}
		}
	}
	sv.NotScanned = append(sv.NotScanned, p.unscannedClients(lay)...)
	return sv, nil
}

// unscannedClients returns the client directories of the presets that
// are not configured (.claude/skills, .codex/skills) that exist at a
// project level of lay or in the home directory.
func (p *Provider) unscannedClients(lay layout) []NotScanned {
	var bases []string
	for _, r := range lay.roots {
		if !slices.Contains(bases, r.anchor) {
			bases = append(bases, r.anchor)
		}
	}
	if p.cfg.home != "" && !slices.Contains(bases, p.cfg.home) {
		bases = append(bases, p.cfg.home)
	}
	var out []NotScanned
	for _, base := range bases {
		for client, why := range map[string]string{".claude": WhyClaudeCode, ".codex": WhyCodex} {
			dir := filepath.Join(base, client, "skills")
			if !slices.Contains(p.cfg.clientDirs, client) && isDir(dir) {
				out = append(out, NotScanned{Path: dir, Why: why})
			}
		}
	}
	slices.SortFunc(out, func(a, b NotScanned) int { return cmp.Compare(a.Path, b.Path) })
	return out
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
