package skillserver

import (
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// A skill path is served exactly when a host can qualify it under any
// label; the problem names the rule it breaks.
func TestSkillPathRules(t *testing.T) {
	seg := strings.Repeat("a", 64)
	for _, tc := range []struct {
		path, problem string
	}{
		{"refunds", ""},
		{"acme/billing/refunds", ""},
		{"Acme_Co/v1.2/team-9/refunds", ""},
		{"0day/refunds", ""},
		{strings.Repeat("a/", 15) + "refunds", ""},
		{strings.Repeat("a/", 16) + "refunds", "its path has 17 segments; at most 16 are served"},
		{seg + "/" + seg + "/" + seg[:61], ""},
		{seg + "/" + seg + "/" + seg[:62], "its path is 192 bytes long; at most 191 are served"},
		{"Refunds", `the directory name "Refunds" is not a skill name`},
		{"acme/re_funds", `the directory name "re_funds" is not a skill name`},
		{"acme/" + seg + "a", `the directory name "` + seg + `..." is not a skill name`},
		{"-acme/refunds", `the folder name "-acme" cannot be a path segment`},
		{".acme/refunds", `the folder name ".acme" cannot be a path segment`},
		{"acme co/refunds", `the folder name "acme co" cannot be a path segment`},
		{"acmé/refunds", `the folder name "acmé" cannot be a path segment`},
		{"acme:x/refunds", `the folder name "acme:x" cannot be a path segment`},
		{seg + "a/refunds", `the folder name "` + seg + `..." cannot be a path segment`},
	} {
		got := skillPathProblem(tc.path)
		if !strings.HasPrefix(got, tc.problem) || (tc.problem == "") != (got == "") {
			t.Errorf("skillPathProblem(%q) = %q, want %q", tc.path, got, tc.problem)
		}
		if valid := skill.ValidQualifiedName(skill.QualifiedName(widestLabel, tc.path)); valid != (got == "") {
			t.Errorf("%q: served %v, but qualifiable under the widest label %v", tc.path, got == "", valid)
		}
	}
}

func TestParseSkillURI(t *testing.T) {
	for uri, want := range map[string]string{
		"skill://data-export/SKILL.md":                   "data-export|SKILL.md",
		"skill://acme/billing/refunds/examples/email.md": "acme|billing|refunds|examples|email.md",
		"skill://x/Q%26A%20notes.md":                     "x|Q&A notes.md",
		"skill://x/caf%C3%A9.md":                         "x|café.md",
		"skill://x/a~b_c-d.e":                            "x|a~b_c-d.e",
		"skill://x":                                      "x",
	} {
		segs, err := parseSkillURI(uri)
		if err != nil || strings.Join(segs, "|") != want {
			t.Errorf("parseSkillURI(%q) = %q, %v; want %q", uri, segs, err, want)
		}
	}
	for _, uri := range []string{
		"", "skill://", "skill:///x", "skill://x/", "skill://x//y", "SKILL://x/y", "file:///etc/passwd", "skill:x/y",
		"skill://x/../y", "skill://x/./y", "skill://x/%2E%2E/y", "skill://x/%2e/y", "skill://x/a%2Fb", "skill://x/a%5Cb",
		"skill://x/a\\b", "skill://x/.env", "skill://x/%2Eenv", "skill://x/a%00b", "skill://x/a%0Ab", "skill://x/a%7Fb",
		"skill://x/%41", "skill://x/%c3%a9", "skill://x/%C3", "skill://x/%FF", "skill://x/%", "skill://x/%4",
		"skill://user@x/y", "skill://x:80/y", "skill://x/y?q", "skill://x/y#f", "skill://x/a b", "skill://x/é",
		"skill://x/" + strings.Repeat("a", skillsext.MaxURIBytes),
	} {
		if segs, err := parseSkillURI(uri); err == nil {
			t.Errorf("parseSkillURI(%q) = %q, want an error", uri, segs)
		}
	}
}

// fileURI writes the only spelling parseSkillURI accepts, and it reads
// back as the path it was made from.
func TestFileURIRoundTrip(t *testing.T) {
	for _, rel := range []string{"SKILL.md", "scripts/run.py", "Q&A notes.md", "a/b/c/d.txt", "café/名前.md", "100%.txt", "a+b=c;d,e@f$g!h'i(j)k*l.md"} {
		uri := fileURI("acme/refunds", rel)
		segs, err := parseSkillURI(uri)
		if err != nil || strings.Join(segs, "/") != "acme/refunds/"+rel {
			t.Errorf("fileURI(%q) = %q parses as %q, %v", rel, uri, segs, err)
		}
	}
}

func TestCursors(t *testing.T) {
	for _, tc := range []struct{ kind, key string }{
		{cursorSkills, "skill://acme/billing/refunds/SKILL.md"},
		{cursorDirectory, "templates"},
		{cursorDirectory, "Q&A notes.md"},
	} {
		got, err := decodeCursor(tc.kind, encodeCursor(tc.kind, tc.key))
		if err != nil || got != tc.key {
			t.Errorf("round trip of %q = %q, %v", tc.key, got, err)
		}
	}
	if got, err := decodeCursor(cursorSkills, ""); got != "" || err != nil {
		t.Errorf("the empty cursor = %q, %v; want the first page", got, err)
	}
	for _, tc := range []struct{ kind, cursor string }{
		{cursorSkills, "not-a-cursor!"},
		{cursorSkills, encodeCursor(cursorDirectory, "templates")},
		{cursorDirectory, encodeCursor(cursorSkills, "skill://a/SKILL.md")},
		{cursorSkills, encodeCursor(cursorSkills, "skill://a/notes.md")},
		{cursorSkills, encodeCursor(cursorSkills, "skill://a/../SKILL.md")},
		{cursorSkills, encodeCursor(cursorSkills, "")},
		{cursorDirectory, encodeCursor(cursorDirectory, ".git")},
		{cursorDirectory, encodeCursor(cursorDirectory, "a/b")},
		{cursorSkills, strings.Repeat("A", maxCursorBytes+1)},
		{cursorSkills, encodeCursor(cursorSkills, "skill://a/SKILL.md") + "="},
	} {
		if got, err := decodeCursor(tc.kind, tc.cursor); err == nil {
			t.Errorf("decodeCursor(%s, %q) = %q, want an error", tc.kind, tc.cursor, got)
		}
	}
}

func FuzzParseSkillURI(f *testing.F) {
	for _, seed := range []string{"skill://a/SKILL.md", "skill://x/Q%26A%20notes.md", "skill://x/../y", "skill://x/%2e", "skill://x/%C3%A9"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		segs, err := parseSkillURI(uri)
		if err != nil {
			return
		}
		// What parses names servable segments and is spelled canonically.
		for _, s := range segs {
			if !servableName(s) {
				t.Fatalf("parseSkillURI(%q) gave the segment %q", uri, s)
			}
		}
		if again := fileURI(segs[0], strings.Join(segs[1:], "/")); len(segs) > 1 && again != uri {
			t.Fatalf("parseSkillURI(%q) = %q, which spells %q", uri, segs, again)
		}
	})
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add(encodeCursor(cursorSkills, "skill://a/SKILL.md"))
	f.Add(encodeCursor(cursorDirectory, "notes.md"))
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, cursor string) {
		for _, kind := range []string{cursorSkills, cursorDirectory} {
			key, err := decodeCursor(kind, cursor)
			if err != nil || cursor == "" {
				continue
			}
			if encodeCursor(kind, key) != cursor {
				t.Fatalf("decodeCursor(%s, %q) = %q, which encodes otherwise", kind, cursor, key)
			}
		}
	})
}
