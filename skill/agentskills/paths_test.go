package agentskills

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParsePathsField(t *testing.T) {
	for _, tc := range []struct {
		name     string
		field    string
		want     []string
		warnings []string // substrings
	}{
		{"list", "paths:\n  - \"src/**/*.ts\"\n  - \"*.md\"", []string{"src/**/*.ts", "*.md"}, nil},
		{"comma-separated string", "paths: src/**/*.{ts,tsx}, docs/**", []string{"src/**/*.ts", "src/**/*.tsx", "docs/**"}, nil},
		{"malformed pattern", "paths: [\"[a-\", \"*.go\"]", []string{"*.go"}, []string{`paths: pattern "[a-" left out`}},
		{"not a string", "paths:\n  - {a: 1}\n  - \"*.go\"", []string{"*.go"}, []string{`field "paths" holds an entry that is not a string`}},
		{"mapping", "paths: {a: 1}", nil, []string{`field "paths" is neither a list nor a string`}},
		{"null", "paths:", nil, nil},
		{"only double star", "paths: \"**\"", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, _, warnings, err := ParseSkillFile([]byte("---\nname: x\ndescription: X.\n" + tc.field + "\n---\nbody\n"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fm.Paths, tc.want) {
				t.Errorf("Paths = %q, want %q", fm.Paths, tc.want)
			}
			for _, w := range tc.warnings {
				if !slices.ContainsFunc(warnings, func(got string) bool { return strings.Contains(got, w) }) {
					t.Errorf("no warning %q in %q", w, warnings)
				}
			}
			if len(tc.warnings) == 0 && len(warnings) > 0 {
				t.Errorf("warnings %q", warnings)
			}
			if got := fm.summary("x", "").Paths; got != strings.Join(tc.want, "\n") {
				t.Errorf("summary Paths = %q", got)
			}
		})
	}
}

// TestWatchFollowsTheWorkingDirectory: with live refresh, each working
// directory a session moves to has its own listing (nested skill folders
// of its levels), and the watcher follows the roots of every one: a skill
// added to a package's folder while the session works there reaches that
// listing, not the repository root's.
func TestWatchFollowsTheWorkingDirectory(t *testing.T) {
	pt := setupProject(t)
	p, rec := newWatched(t, Options{HomeDir: pt.home, Presets: []Preset{PresetClaudeCode}, TrustProject: func(string) bool { return true }})
	rootNames := names(mustList(t, p, pt.repo))
	appNames := names(mustList(t, p, pt.app))
	if !slices.Contains(rootNames, "repo-level") || !slices.Contains(appNames, "repo-level") {
		t.Fatalf("root lists %q, app lists %q", rootNames, appNames)
	}
	writeSkill(t, filepath.Join(pt.app, ".claude", "skills", "app-build"), "app-build", "Build the app.", "")
	waitFor(t, p, rec, pt.app, has("app-build"))
	waitFor(t, p, rec, pt.appSrc, has("app-build"))
	if got := names(mustList(t, p, pt.repo)); slices.Contains(got, "app-build") {
		t.Errorf("the repository root lists a package's nested skill: %q", got)
	}
}
