package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// The one line demo, explain, validate and serve-mcp print of the skill
// directories they were given is agentskills.Survey.Summary: which
// directories were scanned, how many skills loaded (or were served), how
// many were skipped and why, and which directories of skills were not
// scanned. surveyLine adds, when skills were skipped, where the command
// says why (hint).
func surveyLine(sv agentskills.Survey, hint string) string {
	line := sv.Summary()
	if len(sv.Skipped) > 0 && hint != "" {
		line += "; " + hint
	}
	return line
}

// withFlags returns sv with the reasons a directory was not scanned
// naming the flag that would scan it.
func withFlags(sv agentskills.Survey) agentskills.Survey {
	sv.NotScanned = slices.Clone(sv.NotScanned)
	for i, d := range sv.NotScanned {
		switch d.Why {
		case agentskills.WhyClaudeCode:
			sv.NotScanned[i].Why = "only -preset claude-code scans it"
		case agentskills.WhyCodex:
			sv.NotScanned[i].Why = "only -preset codex scans it"
		case agentskills.WhyUntrusted:
			sv.NotScanned[i].Why = agentskills.WhyUntrusted + ": -trust-project"
		}
	}
	return sv
}

// isSkillFolder reports whether dir is one skill's own folder: it holds a
// file spelled exactly SKILL.md. Every command takes such a -skills DIR
// (or validate DIR) as that one skill.
func isSkillFolder(dir string) bool {
	return hasSkillFile(dir)
}

// skillFolderLink makes a directory holding one entry, a link named as
// the skill folder dir to it, for a command that serves a directory of
// skills; remove removes that directory. The skill keeps its folder's
// name, which the MCP Skills extension names it by.
func skillFolderLink(dir string) (root string, remove func(), err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	root, err = os.MkdirTemp("", "skillcatalog-skill-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(root) }
	if err := os.Symlink(abs, filepath.Join(root, filepath.Base(abs))); err != nil {
		remove()
		return "", nil, err
	}
	return root, remove, nil
}

// withPaths returns sv with every path in it that starts with from
// starting with to instead, for a command that works on a copy of the
// user's directory.
func withPaths(sv agentskills.Survey, from, to string) agentskills.Survey {
	swap := func(p string) string {
		if p == from {
			return to
		}
		if rest, ok := strings.CutPrefix(p, from+string(filepath.Separator)); ok {
			return filepath.Join(to, rest)
		}
		return p
	}
	dirs := make([]string, len(sv.Dirs))
	for i, d := range sv.Dirs {
		dirs[i] = swap(d)
	}
	sv.Dirs = dirs
	skipped := make([]agentskills.SkippedSkill, len(sv.Skipped))
	for i, k := range sv.Skipped {
		k.Path = swap(k.Path)
		skipped[i] = k
	}
	sv.Skipped = skipped
	return sv
}
