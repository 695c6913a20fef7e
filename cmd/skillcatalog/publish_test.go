package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

const webFixture = "../../testdata/webskills/skills"

func runPublish(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"publish"}, args...), &out, &errOut)
	return out.String(), errOut.String(), code
}

// treeFiles returns every file below root by slash path.
func treeFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// publish writes both layouts, reproducibly: two runs on the same skills
// give the same bytes, and a second run into the same OUT replaces the
// tree (a skill no longer published leaves nothing behind).
func TestPublishTree(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if _, stderr, code := runPublish(t, webFixture, a); code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, stderr)
	}
	writeTestSkill(t, filepath.Join(b, ".well-known", "agent-skills", "stale"), "stale", "Left from an earlier run.")
	stdout, stderr, code := runPublish(t, "-json", webFixture, b)
	if code != 0 {
		t.Fatalf("publish -json: exit %d\n%s", code, stderr)
	}
	var rep publishReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Skills) != 2 {
		t.Fatalf("publish -json: %v\n%s", err, stdout)
	}
	if rep.Skills[0].Type != "skill-md" || rep.Skills[1].Type != "archive" || rep.Skills[1].URL != "wrangler.tar.gz" {
		t.Errorf("published: %+v", rep.Skills)
	}
	fa, fb := treeFiles(t, a), treeFiles(t, b)
	want := []string{
		".well-known/agent-skills/code-review/SKILL.md", ".well-known/agent-skills/index.json", ".well-known/agent-skills/wrangler.tar.gz",
		".well-known/skills/code-review/SKILL.md", ".well-known/skills/index.json", ".well-known/skills/wrangler/SKILL.md",
		".well-known/skills/wrangler/references/COMMANDS.md", ".well-known/skills/wrangler/scripts/deploy.sh",
	}
	if len(fa) != len(want) || len(fb) != len(want) {
		t.Errorf("files: %d and %d, want %d", len(fa), len(fb), len(want))
	}
	for _, name := range want {
		if fa[name] == nil || !bytes.Equal(fa[name], fb[name]) {
			t.Errorf("%s: %d and %d bytes, want the same bytes in both runs", name, len(fa[name]), len(fb[name]))
		}
	}
	if info, err := os.Stat(filepath.Join(a, ".well-known", "skills", "wrangler", "scripts", "deploy.sh")); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("deploy.sh in the v0.1.0 layout: %v, %v; want mode 0755", info, err)
	}
}

// What publish writes, the web provider reads back: every skill listed,
// every digest verified, every file of the archive byte for byte.
func TestPublishReadBack(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := runPublish(t, webFixture, out); code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, stderr)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	p, err := webskills.New(&webskills.Options{URL: srv.URL, Label: "site", AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err != nil || len(obs.Skills) != 2 {
		t.Fatalf("List = %+v, %v", obs, err)
	}
	for _, s := range obs.Skills {
		if _, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: s.Name}); !found || err != nil {
			t.Errorf("Load(%s) = %v, %v", s.Name, found, err)
		}
	}
	want, _ := os.ReadFile(filepath.Join(webFixture, "wrangler", "references", "COMMANDS.md"))
	got, err := p.ReadSkillResource(t.Context(), skills.ResourceRequest{SessionID: "s1", Name: "wrangler", Path: "references/COMMANDS.md"})
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("ReadSkillResource = %q, %v", got, err)
	}
}

// With -strict publish refuses what validate refuses, writing nothing;
// without it, it leaves such a skill out, and with no other skill writes
// nothing either. A link is refused either way.
func TestPublishRefuses(t *testing.T) {
	out := t.TempDir()
	_, stderr, code := runPublish(t, "-strict", filepath.Join(validateFixture, "broken", "name-mismatch"), out)
	if code != 1 || !strings.Contains(stderr, "nothing written: every skill must meet the specification") || !strings.Contains(stderr, "error: name:") {
		t.Errorf("-strict, an invalid skill: exit %d\n%s", code, stderr)
	}
	dir := t.TempDir()
	writeTestSkill(t, filepath.Join(dir, "linked"), "linked", "A skill with a link.")
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "linked", "notes.md")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runPublish(t, "-strict", dir, out)
	if code != 1 || !strings.Contains(stderr, `publish: skill "linked": notes.md is a symbolic link, not a regular file; publish copies regular files only`) {
		t.Errorf("-strict, a link: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runPublish(t, dir, out)
	if code != 1 || !strings.Contains(stderr, `publish: skill "linked": notes.md is a symbolic link, not a regular file; publish copies regular files only`) {
		t.Errorf("a link: exit %d\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a refused publish wrote %d entries", len(entries))
	}
	if _, stderr, code := runPublish(t, webFixture); code != 2 || !strings.Contains(stderr, "want DIR and OUT, got 1 arguments") {
		t.Errorf("one argument: exit %d\n%s", code, stderr)
	}
}

func writeTestSkill(t *testing.T, dir, name, description string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: " + name + "\ndescription: " + description + "\n---\nBody.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The demo reads a published site with -web-url: its skills are listed
// under the label given, and the model reads a file of the archive skill.
func TestDemoListsSkillsFromAWebsite(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := runPublish(t, webFixture, out); code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, stderr)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-web-url", srv.URL, "-web-allow-http", "-web-label", "docs"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"-`wrangler` (website `docs`): Deploy and manage Cloudflare Workers projects with wrangler.",
		"A skill whose line names a website is published by that site, which this host fetches under a label it assigned",
		"note: wrangler is a remote skill: its files are on the website",
		`<skill_resource name="wrangler" website="docs" path="scripts/deploy.sh"`,
		"This file comes from the website `docs`, a remote site this host fetches skills from",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the demo's output lacks %q:\n%s", want, stdout.String())
		}
	}
	code := run(context.Background(), []string{"demo", "-web-url", strings.Replace(srv.URL, "http:", "https:", 1) + "/x?y"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "webskills: URL must have no userinfo, query or fragment") {
		t.Errorf("a bad -web-url: exit %d: %s", code, stderr.String())
	}
}

// publish leaves out, naming the skill and the file, a skill with a file
// whose name the v0.1.0 index cannot list: the RFC allows printable ASCII
// but \ ? # [ ] in its paths, and the web provider refuses an entry that
// lists another. The other skills are written; with -strict nothing is.
func TestPublishRefusesNamesTheIndexCannotList(t *testing.T) {
	for _, name := range []string{"what?.md", "a[1].md", "b]", "c#d", `back\slash`, "café.md", "tab\there", "dir?/x.md"} {
		dir, out := t.TempDir(), t.TempDir()
		writeTestSkill(t, filepath.Join(dir, "odd"), "odd", "A skill with an odd file.")
		writeTestSkill(t, filepath.Join(dir, "plain"), "plain", "A skill of SKILL.md alone.")
		p := filepath.Join(dir, "odd", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("odd\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(name, "/")
		_, stderr, code := runPublish(t, "-strict", dir, out)
		want := fmt.Sprintf(`skill "odd": %q: a name the v0.1.0 index cannot list`, first)
		if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "nothing written") {
			t.Errorf("-strict, a file %q: exit %d, want 1 and %q\n%s", name, code, want, stderr)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("-strict, a file %q: the refused publish wrote %d entries", name, len(entries))
		}
		_, stderr, code = runPublish(t, dir, out)
		want = fmt.Sprintf(`skillcatalog publish: left out odd: %q: a name the v0.1.0 index cannot list`, first)
		if code != 3 || !strings.Contains(stderr, want) {
			t.Errorf("a file %q: exit %d, want 3 and %q\n%s", name, code, want, stderr)
		}
		if files := treeFiles(t, out); files[".well-known/agent-skills/plain/SKILL.md"] == nil || len(files) != 4 {
			t.Errorf("a file %q: wrote %d files, want plain's 4 alone", name, len(files))
		}
	}
	// A hidden file is left out whatever its name, and a space is allowed.
	dir, out := t.TempDir(), t.TempDir()
	writeTestSkill(t, filepath.Join(dir, "fine"), "fine", "A skill with fine files.")
	for _, name := range []string{".what?.md", "with space.md"} {
		if err := os.WriteFile(filepath.Join(dir, "fine", name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := runPublish(t, dir, out); code != 0 {
		t.Errorf("a hidden odd name and a space: exit %d\n%s", code, stderr)
	}
}

// A skill folder that is a symbolic link, which validate follows and
// calls valid, is published from where it leads, as is a DIR that is a
// link to one skill's folder.
func TestPublishFollowsALinkedSkillFolder(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	writeTestSkill(t, filepath.Join(elsewhere, "linked"), "linked", "A skill linked into the directory.")
	if err := os.WriteFile(filepath.Join(elsewhere, "linked", "notes.md"), []byte("Notes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, "linked"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if rep, code := runValidate(t, dir); code != 0 || len(rep.Skills) != 1 {
		t.Fatalf("validate of the linked skill: exit %d, %+v", code, rep)
	}
	for _, arg := range []string{dir, filepath.Join(dir, "linked")} {
		out := t.TempDir()
		if _, stderr, code := runPublish(t, arg, out); code != 0 {
			t.Fatalf("publish %s: exit %d\n%s", arg, code, stderr)
		}
		files := treeFiles(t, out)
		for _, name := range []string{".well-known/skills/linked/SKILL.md", ".well-known/skills/linked/notes.md", ".well-known/agent-skills/linked.tar.gz"} {
			if files[name] == nil {
				t.Errorf("publish %s wrote no %s (it wrote %d files)", arg, name, len(files))
			}
		}
	}
}

// clientSkills is a directory of skills as real repositories hold them:
// two that meet the specification, one with Claude Code's fields, and
// claude-api, whose description (as in the anthropics/skills repository)
// is 1,068 characters, over the specification's 1,024.
func clientSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeSkillFile(t, dir, "docx", "---\nname: docx\ndescription: \"Use this skill whenever the user wants to create or edit Word documents.\"\nlicense: Proprietary. LICENSE.txt has complete terms\n---\nBody.\n")
	if err := os.WriteFile(filepath.Join(dir, "docx", "LICENSE.txt"), []byte("Terms.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSkillFile(t, dir, "pdf", "---\nname: pdf\ndescription: Use this skill whenever the user wants to do anything with PDF files.\n---\nBody.\n")
	writeSkillFile(t, dir, "deploy", "---\nname: deploy\ndescription: Deploy the application.\nwhen_to_use: After the release branch is tagged.\nallowed-tools: Bash(git push *), Read\ndisable-model-invocation: true\nargument-hint: \"[environment]\"\n---\nBody.\n")
	long := "Reference for the Claude API.\n" + strings.Repeat("x", 1068-len("Reference for the Claude API.\n"))
	writeSkillFile(t, dir, "claude-api", "---\nname: claude-api\ndescription: |-\n  "+strings.ReplaceAll(long, "\n", "\n  ")+"\nlicense: Complete terms in LICENSE.txt\n---\nBody.\n")
	return dir
}

// By default publish writes the skills Claude Code and Codex read, Claude
// Code's fields and all, leaves out the one they refuse with a line naming
// it and why, and exits with status 3 to say something was left out.
func TestPublishLeavesOutWhatClientsRefuse(t *testing.T) {
	dir, out := clientSkills(t), t.TempDir()
	stdout, stderr, code := runPublish(t, dir, out)
	if code != 3 {
		t.Errorf("exit %d, want 3\n%s", code, stderr)
	}
	if want := "skillcatalog publish: left out claude-api: description: is 1068 characters long; the limit is 1024\n"; stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if !strings.Contains(stdout, "3 skills published, 1 left out (named on stderr): ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	files := treeFiles(t, out)
	for _, name := range []string{"docx.tar.gz", "pdf/SKILL.md", "deploy/SKILL.md"} {
		if files[".well-known/agent-skills/"+name] == nil {
			t.Errorf("%s not written", name)
		}
	}
	for name := range files {
		if strings.Contains(name, "claude-api") {
			t.Errorf("the left-out skill was written: %s", name)
		}
	}
	want, _ := os.ReadFile(filepath.Join(dir, "deploy", "SKILL.md"))
	if got := files[".well-known/agent-skills/deploy/SKILL.md"]; !bytes.Equal(got, want) {
		t.Errorf("deploy/SKILL.md published as\n%s\nwant it as written, Claude Code fields and all:\n%s", got, want)
	}

	stdout, _, code = runPublish(t, "-json", dir, t.TempDir())
	var rep publishReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 3 {
		t.Fatalf("publish -json: exit %d, %v\n%s", code, err, stdout)
	}
	if len(rep.Skills) != 3 || len(rep.LeftOut) != 1 || rep.LeftOut[0].Name != "claude-api" ||
		rep.LeftOut[0].Reason != "description: is 1068 characters long; the limit is 1024" {
		t.Errorf("publish -json: %+v", rep)
	}
}

// With -strict publish keeps to the specification alone: one skill that
// breaks it, or that uses Claude Code's fields, and nothing is written.
func TestPublishStrict(t *testing.T) {
	dir, out := clientSkills(t), t.TempDir()
	_, stderr, code := runPublish(t, "-strict", dir, out)
	for _, want := range []string{
		"  error: description: is 1068 characters long; the limit is 1024\n",
		`  error: disable-model-invocation: field "disable-model-invocation" is not in the specification`,
		"skillcatalog publish: nothing written: every skill must meet the specification",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a refused publish wrote %d entries", len(entries))
	}
}

// When every skill is left out nothing is written (a site published
// earlier stays as it was) and the command fails.
func TestPublishNothingLeft(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	writeSkillFile(t, dir, "template", "---\nname: template-skill\ndescription: Replace me.\n---\nBody.\n")
	_, stderr, code := runPublish(t, dir, out)
	if code != 1 || !strings.Contains(stderr, `skillcatalog publish: left out template: name: "template-skill" does not match the directory name "template"`) ||
		!strings.Contains(stderr, "skillcatalog publish: nothing written: every skill was left out\n") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("wrote %d entries", len(entries))
	}
}
