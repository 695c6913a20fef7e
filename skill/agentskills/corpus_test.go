package agentskills

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/internal/golden"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// setupCorpus copies the corpus root to a temporary directory and adds
// what git does not keep: a .git directory and symbolic links (to a skill
// outside the root, dangling, back to the root, in a cycle, and a second
// path to a skill already in the root).
func setupCorpus(t testing.TB) (base, root string) {
	t.Helper()
	base = t.TempDir()
	root = filepath.Join(base, "skills")
	copyTree(t, filepath.Join(testdataDir, "corpus"), root)
	copyTree(t, filepath.Join(testdataDir, "external"), filepath.Join(base, "external"))
	mkdirAll(t, filepath.Join(root, ".git", "hidden-in-git"))
	writeSkill(t, filepath.Join(root, ".git", "hidden-in-git"), "hidden-in-git", "Never scanned.", "")
	symlink(t, filepath.Join("..", "external", "linked-target"), filepath.Join(root, "linked-skill"))
	symlink(t, filepath.Join("..", "external", "missing"), filepath.Join(root, "dangling-link"))
	symlink(t, ".", filepath.Join(root, "self-loop"))
	symlink(t, "..", filepath.Join(root, "parent-loop"))
	symlink(t, "cycle-b", filepath.Join(root, "cycle-a"))
	symlink(t, "cycle-a", filepath.Join(root, "cycle-b"))
	symlink(t, "bom-skill", filepath.Join(root, "zz-second-path-to-bom"))
	symlink(t, filepath.Join("..", "external", "linked-target", "SKILL.md"), filepath.Join(root, "file-link"))
	return base, root
}

func TestCorpus(t *testing.T) {
	base, root := setupCorpus(t)
	p := mustNew(t, Options{HomeDir: filepath.Join(base, "no-home"), ExtraRoots: []string{root}})
	ctx := context.Background()

	obs := mustList(t, p, "")
	if !obs.Complete {
		t.Fatalf("observation incomplete; diagnostics:\n%s", diagText(p.Diagnostics(), base))
	}
	want := []string{
		"a-very-long-skill-name-that-goes-well-beyond-the-sixty-four-character-limit",
		"bom-skill", "cafe", "colon-description", "crlf-skill", "duplicate-name",
		"folded-description", "linked-skill", "literal-description", "mismatched-name", "missing-name",
		"model-hidden", "resources-skill", "unicode-skill", "user-hidden", "with-metadata",
	}
	if diff := cmp.Diff(want, names(obs)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}

	t.Run("descriptions are passed through raw", func(t *testing.T) {
		for name, desc := range map[string]string{
			"colon-description":   "Use when: the user asks about colons: in values",
			"folded-description":  "Folded description that spans several lines in the source.\nA second paragraph.\n",
			"literal-description": "Literal description.\nLine breaks are kept.\n",
			"crlf-skill":          "Written with CRLF line endings.\n",
			"bom-skill":           "Starts with a UTF-8 byte order mark.",
			"unicode-skill":       "Übersetzt Texte ins Deutsche — 日本語も対応 🌐, with a non\u00a0breaking space",
			"duplicate-name":      "First of two directories declaring the same name.",
		} {
			if got := summaryOf(t, obs, name).Description; got != desc {
				t.Errorf("%s: description = %q, want %q", name, got, desc)
			}
		}
	})

	t.Run("invocation policy and provider label", func(t *testing.T) {
		for _, s := range obs.Skills {
			want := skill.DefaultPolicy()
			switch s.Name {
			case "model-hidden":
				want.ModelInvocable = false
			case "user-hidden":
				want.UserInvocable = false
			}
			if s.Invocation != want {
				t.Errorf("%s: invocation = %+v, want %+v", s.Name, s.Invocation, want)
			}
			if s.Provider != ProviderLabel {
				t.Errorf("%s: provider = %q", s.Name, s.Provider)
			}
		}
	})

	t.Run("load reads the body and gives the directory as resource base", func(t *testing.T) {
		for name, tc := range map[string]struct{ dir, body string }{
			"crlf-skill":      {"crlf-skill", "CRLF body line one.\r\nCRLF body line two."},
			"bom-skill":       {"bom-skill", "BOM body."},
			"unicode-skill":   {"unicode-skill", "Unicode body: naïve café, 漢字, 🚀."},
			"cafe":            {"café", "Cafe body."},
			"mismatched-name": {"name-mismatch", "Mismatch body."},
			"linked-skill":    {"linked-skill", "Linked body."},
			"resources-skill": {"resources-skill", "Run scripts/run.sh and read references/guide.md."},
			"duplicate-name":  {"duplicate-a", "Duplicate A body."},
			"model-hidden":    {"model-hidden", "Model-hidden body."},
		} {
			def := mustLoad(t, p, "", name)
			if def.Content != tc.body {
				t.Errorf("%s: content = %q, want %q", name, def.Content, tc.body)
			}
			wantBase := &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: filepath.Join(root, tc.dir)}
			if diff := cmp.Diff(wantBase, def.ResourceBase); diff != "" {
				t.Errorf("%s: resource base (-want +got):\n%s", name, diff)
			}
			if def.Name != name || def.Provider != ProviderLabel {
				t.Errorf("%s: summary = %+v", name, def.Summary)
			}
		}
		for _, name := range []string{"missing-description", "bad-name", "Bad_Name", "hidden-package", "lowercase-file", "no-such-skill"} {
			if _, found, err := p.Load(ctx, skills.LoadRequest{Name: name}); found || err != nil {
				t.Errorf("Load(%q) = found %v, err %v; want not found", name, found, err)
			}
		}
	})

	t.Run("metadata is kept", func(t *testing.T) {
		list, complete, err := p.Skills(ctx, "")
		if err != nil || !complete {
			t.Fatalf("Skills: complete=%v err=%v", complete, err)
		}
		i := slices.IndexFunc(list, func(s Skill) bool { return s.Name == "with-metadata" })
		fm := list[i].Frontmatter
		if fm.License != "Apache-2.0" || fm.Compatibility != "Requires git and network access" ||
			!slices.Equal(fm.AllowedTools, []string{"Bash(git:*)", "Read"}) ||
			fm.Metadata["author"] != "example-org" || fm.Metadata["version"] != "1.0" ||
			!cmp.Equal(fm.Extra["x-custom"], []any{1, "two"}) {
			t.Errorf("frontmatter = %+v", fm)
		}
		if list[i].Scope != ScopeUser || list[i].Root != root {
			t.Errorf("scope/root = %v %v", list[i].Scope, list[i].Root)
		}
	})

	t.Run("golden", func(t *testing.T) {
		list, _, err := p.Skills(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "corpus.golden"), []byte(renderCorpus(list, p.Diagnostics(), base)))
	})
}

// renderCorpus prints everything discovered, with paths relative to base.
func renderCorpus(list []Skill, diags []Diagnostic, base string) string {
	rel := func(p string) string {
		r, err := filepath.Rel(base, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "skill %s\n", s.Name)
		fmt.Fprintf(&b, "  description: %q\n", s.Description)
		fmt.Fprintf(&b, "  model-invocable: %v, user-invocable: %v\n", s.Invocation.ModelInvocable, s.Invocation.UserInvocable)
		fmt.Fprintf(&b, "  dir: %s\n", rel(s.Dir))
		fm := s.Frontmatter
		if fm.License != "" {
			fmt.Fprintf(&b, "  license: %q\n", fm.License)
		}
		if fm.Compatibility != "" {
			fmt.Fprintf(&b, "  compatibility: %q\n", fm.Compatibility)
		}
		if len(fm.AllowedTools) > 0 {
			fmt.Fprintf(&b, "  allowed-tools: %q\n", fm.AllowedTools)
		}
		if len(fm.Metadata) > 0 {
			fmt.Fprintf(&b, "  metadata: %v\n", fm.Metadata)
		}
		if len(fm.Extra) > 0 {
			fmt.Fprintf(&b, "  extra: %v\n", fm.Extra)
		}
	}
	b.WriteString("\ndiagnostics:\n")
	b.WriteString(diagText(diags, base))
	return b.String()
}
