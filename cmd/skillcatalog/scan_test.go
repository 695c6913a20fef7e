package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeSkillFile writes dir/name/SKILL.md with content.
func writeSkillFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// halfBrokenSkills is a skills directory of six skills, three of which
// the loader skips: one for YAML that does not parse, one without a
// description, one without frontmatter.
func halfBrokenSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"alpha", "bravo", "charlie"} {
		writeSkillFile(t, dir, name, "---\nname: "+name+"\ndescription: The "+name+" skill.\n---\nDo "+name+".\n")
	}
	writeSkillFile(t, dir, "bad-yaml", "---\nname: bad-yaml\ndescription: [unclosed\n---\nBody.\n")
	writeSkillFile(t, dir, "no-description", "---\nname: no-description\n---\nBody.\n")
	writeSkillFile(t, dir, "no-frontmatter", "# Just a body\n")
	return dir
}

// The one line every command prints for halfBrokenSkills, up to the
// command's own ending.
func halfBrokenLine(dir, verb string, loaded int) string {
	return "scanned 1 directory (" + dir + "): " + strconv.Itoa(loaded) + " skills " + verb + ", 3 skipped (1 invalid YAML, 1 missing description, 1 no frontmatter)"
}

// TestDemoSaysWhichSkillsItSkipped: demo -skills on a directory where
// half the skills are broken says, without -diagnostics, how many it
// skipped and why, in text and in -json.
func TestDemoSaysWhichSkillsItSkipped(t *testing.T) {
	dir := halfBrokenSkills(t)
	code, stdout, stderr := runCLI(t, "demo", "-skills", dir)
	if code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr)
	}
	want := halfBrokenLine(dir, "loaded", 3) + "; -diagnostics says why"
	if !strings.Contains(stdout, want) {
		t.Errorf("demo output lacks %q:\n%.2000s", want, stdout)
	}
	var scans []string
	for _, ev := range demoEvents(t, "-skills", dir) {
		if ev.Kind == "scan" {
			scans = append(scans, ev.Text)
		}
	}
	if len(scans) != 1 || scans[0] != want {
		t.Errorf("scan notes %q, want one: %q", scans, want)
	}
}

// TestEveryCommandTellsTheSameScan: demo, explain, validate and serve-mcp
// apply one definition of a loadable skill, and each says in one line
// which directory it scanned, how many skills it skipped and why.
func TestEveryCommandTellsTheSameScan(t *testing.T) {
	dir := halfBrokenSkills(t)
	home := t.TempDir()
	_, demoOut, _ := runCLI(t, "demo", "-skills", dir)
	_, explainOut, _ := runCLI(t, "explain", "-skills", dir, "-home", home, "-cwd", home, "-preset", "none")
	_, validateOut, _ := runCLI(t, "validate", dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	run(ctx, []string{"serve-mcp", "-skills", dir, "-http", "127.0.0.1:0"}, &stdout, &stderr)
	for cmd, tc := range map[string]struct{ out, want string }{
		"demo":      {demoOut, halfBrokenLine(dir, "loaded", 3)},
		"explain":   {explainOut, "scanned 1 directory (" + dir + "), 1 absent (" + filepath.Join(home, ".agents", "skills") + "): 3 skills loaded, 3 skipped (1 invalid YAML, 1 missing description, 1 no frontmatter)"},
		"validate":  {validateOut, halfBrokenLine(dir, "loaded", 3)},
		"serve-mcp": {stderr.String(), halfBrokenLine(dir, "served", 3)},
	} {
		if !strings.Contains(tc.out, tc.want) {
			t.Errorf("%s output lacks %q:\n%.3000s", cmd, tc.want, tc.out)
		}
	}
	ex := runExplain(t, "-skills", dir, "-home", home, "-cwd", home, "-preset", "none")
	if ex.Scan.Loaded != 3 || len(ex.Scan.Skipped) != 3 || !strings.HasPrefix(ex.Scan.Summary(), "scanned 1 directory") {
		t.Errorf("explain -json scan = %+v", ex.Scan)
	}
}

// TestEveryCommandTakesASkillsOwnFolder: a -skills DIR that is one
// skill's own folder (it holds SKILL.md) is that one skill, as validate
// takes it, in demo, explain and serve-mcp too.
func TestEveryCommandTakesASkillsOwnFolder(t *testing.T) {
	parent := t.TempDir()
	writeSkillFile(t, parent, "solo", "---\nname: solo\ndescription: The only skill here.\n---\nDo it alone.\n")
	dir := filepath.Join(parent, "solo")
	home := t.TempDir()

	ex := runExplain(t, "-skills", dir, "-home", home, "-cwd", home)
	if !strings.Contains(ex.Catalog, "`solo`") {
		t.Errorf("explain -skills %s: catalog %q, want the skill solo", dir, ex.Catalog)
	}
	var listed bool
	for _, ev := range demoEvents(t, "-skills", dir) {
		if ev.Event == "step" && ev.Outcome == "initial" && len(ev.Messages) == 1 && strings.Contains(ev.Messages[0].Text, "`solo`") {
			listed = true
		}
	}
	if !listed {
		t.Errorf("demo -skills %s: the initial catalog does not list solo", dir)
	}
	code, out, _ := runCLI(t, "validate", dir)
	if code != 0 || !strings.Contains(out, "1 skill checked: 1 valid") {
		t.Errorf("validate %s: exit %d\n%s", dir, code, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"serve-mcp", "-skills", dir, "-http", "127.0.0.1:0"}, &stdout, &stderr); code != 0 {
		t.Fatalf("serve-mcp exited %d: %s", code, stderr.String())
	}
	if want := "scanned 1 directory (" + dir + "): 1 skill served, none skipped"; !strings.Contains(stderr.String(), want) {
		t.Errorf("serve-mcp stderr %q, want %q", stderr.String(), want)
	}
}

// TestExplainSaysWhichDirectoriesItScanned: in a repository whose skills
// sit in .claude/skills, explain says which directories it scanned, and
// that .claude/skills is scanned only with -preset claude-code and, for a
// project's, only with -trust-project.
func TestExplainSaysWhichDirectoriesItScanned(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(project, ".claude", "skills")
	writeSkillFile(t, claude, "pdf", "---\nname: pdf\ndescription: Work with PDF files.\n---\nBody.\n")
	projectRoot := filepath.Join(project, ".agents", "skills")
	homeRoot, homeClaude := filepath.Join(home, ".agents", "skills"), filepath.Join(home, ".claude", "skills")
	for _, tc := range []struct {
		args          []string
		scanned, skip string
	}{
		{[]string{"-preset", "none"}, "scanned no directory, 1 absent (" + homeRoot + ")", claude + " (only -preset claude-code scans it)"},
		{[]string{"-preset", "none", "-trust-project"}, "scanned no directory, 2 absent (" + projectRoot + ", " + homeRoot + ")", claude + " (only -preset claude-code scans it)"},
		{[]string{"-preset", "claude-code"}, "scanned no directory, 2 absent (" + homeRoot + ", " + homeClaude + ")", claude + " (the project is not trusted: -trust-project)"},
	} {
		args := append([]string{"explain", "-cwd", project, "-home", home}, tc.args...)
		code, out, stderr := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		for _, want := range []string{tc.scanned + ": 0 skills loaded, none skipped; not scanned: " + tc.skip} {
			if !strings.Contains(out, want) {
				t.Errorf("%q: output lacks %q:\n%s", args, want, out)
			}
		}
	}
	ex := runExplain(t, "-cwd", project, "-home", home, "-preset", "claude-code", "-trust-project")
	if !strings.Contains(ex.Catalog, "`pdf`") {
		t.Errorf("with -preset claude-code -trust-project the catalog lacks pdf: %q", ex.Catalog)
	}
}

// TestValidateExplainsTheExampleSkills: the project's example skills are
// invalid only where they show something on purpose, and validate says
// so: deploy-production's disable-model-invocation is a Claude Code
// field (valid with -preset claude-code), commit-messages' unquoted ": "
// is what Claude Code and skillcatalog read as a plain string.
func TestValidateExplainsTheExampleSkills(t *testing.T) {
	examples := filepath.Join("..", "..", "testdata", "skills")
	code, out, _ := runCLI(t, "validate", examples)
	for _, want := range []string{
		`it is a Claude Code field, which skillcatalog honours and the claude-code preset accepts`,
		`the unquoted value of "description" holds ": ", which strict YAML readers reject and Claude Code and skillcatalog read as a plain string; quote it`,
		"scanned 1 directory (" + examples + "): 4 skills loaded, none skipped\n",
		"4 skills checked: 2 valid, 2 invalid\n",
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("validate %s: exit %d, output lacks %q:\n%s", examples, code, want, out)
		}
	}
	rep, _ := runValidate(t, "-preset", "claude-code", examples)
	for _, s := range rep.Skills {
		if filepath.Base(s.Path) != "deploy-production" {
			continue
		}
		if !s.Valid || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].Message, "Claude Code field") {
			t.Errorf("deploy-production with -preset claude-code: %+v", s)
		}
		if s.Served || s.NotServed != "the skill is not model-invocable" {
			t.Errorf("deploy-production: served %v, %q; want it said why serve-mcp leaves it out", s.Served, s.NotServed)
		}
	}
}

// TestValidateAndServeMCPSayWhatIsNotServed: the shapes of the
// anthropics/skills repository's template (a name that is not its
// folder's) and claude-api (a description over 1,024 characters) load,
// and serve-mcp does not serve them: validate says why for each, and
// serve-mcp counts them in its one line.
func TestValidateAndServeMCPSayWhatIsNotServed(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "good", "---\nname: good\ndescription: Good.\n---\nBody.\n")
	writeSkillFile(t, dir, "template", "---\nname: template-skill\ndescription: Replace me.\n---\nBody.\n")
	writeSkillFile(t, dir, "claude-api", "---\nname: claude-api\ndescription: "+strings.Repeat("x", 1068)+"\n---\nBody.\n")
	_, out, _ := runCLI(t, "validate", dir)
	for _, want := range []string{
		"  serve-mcp does not serve it: the name \"template-skill\" in SKILL.md does not match the directory, and the MCP Skills extension names a skill by its folder\n",
		"  serve-mcp does not serve it: the description is 1068 characters long; the Agent Skills limit is 1024, which the MCP Skills extension requires of a served skill\n",
		"scanned 1 directory (" + dir + "): 3 skills loaded, none skipped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	run(ctx, []string{"serve-mcp", "-skills", dir, "-http", "127.0.0.1:0"}, &stdout, &stderr)
	want := "skillcatalog serve-mcp: scanned 1 directory (" + dir + "): 1 skill served, 2 skipped (1 description over 1024 characters, 1 name differs from its folder); the lines above say why\n"
	if !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("serve-mcp stderr:\n%s\nwant it to end with\n%s", stderr.String(), want)
	}
}

// userSkillsDemo runs demo -json -skills on three skills, the first by
// name referring to no file and the second to one, and returns its
// events.
func userSkillsDemo(t *testing.T) []demoEvent {
	t.Helper()
	dir := t.TempDir()
	writeSkillFile(t, dir, "alpha", "---\nname: alpha\ndescription: Alpha.\n---\nJust do alpha.\n")
	writeSkillFile(t, dir, "beta", "---\nname: beta\ndescription: Beta.\n---\nRun `scripts/beta.sh` first.\n")
	writeSkillFile(t, dir, "gamma", "---\nname: gamma\ndescription: Gamma.\n---\nJust do gamma.\n")
	if err := os.MkdirAll(filepath.Join(dir, "beta", "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "beta", "scripts", "beta.sh"), []byte("echo beta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return demoEvents(t, "-skills", dir)
}

// TestDemoReadsAFileOfAnySkill: the demo looks at every skill the model
// may load for a file below scripts/, not only at the first.
func TestDemoReadsAFileOfAnySkill(t *testing.T) {
	var read bool
	for _, ev := range userSkillsDemo(t) {
		if ev.Event == "tool" && strings.HasPrefix(ev.Text, `<skill_resource name="beta" path="scripts/beta.sh"`) {
			read = true
		}
		if strings.Contains(ev.Text, "no skill's instructions refer to a file") {
			t.Errorf("note %q, though beta refers to scripts/beta.sh", ev.Text)
		}
	}
	if !read {
		t.Error("the demo did not read beta's scripts/beta.sh")
	}
}

// TestDemoInvokesTheUsersSkillByNameAlone: with the user's skills, the
// scripted /name request names a skill alone (no sentence about a
// release), and names one the model did not load already, so no body is
// shown twice.
func TestDemoInvokesTheUsersSkillByNameAlone(t *testing.T) {
	bodies := map[string]int{}
	var user []string
	for _, ev := range userSkillsDemo(t) {
		if ev.Event == "tool" && strings.HasPrefix(ev.Text, "<skill_content name=") {
			bodies[firstLine(ev.Text)]++
		}
		if ev.Event == "step" {
			for _, m := range ev.Messages {
				if strings.HasPrefix(m.Text, "/") {
					user = append(user, m.Text)
				}
				if strings.HasPrefix(m.Text, "<skill_content name=") {
					bodies[firstLine(m.Text)]++
				}
			}
		}
	}
	if len(user) != 1 || user[0] != "/gamma" {
		t.Errorf("the user's messages %q, want one: /gamma", user)
	}
	for body, n := range bodies {
		if n > 1 && body != `<skill_content name="sql-migrations">` { // loaded before and after its edit
			t.Errorf("%s shown %d times", body, n)
		}
	}
}
