//go:build unix

package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// secret is the content of every file outside the skills' directories: no
// result may ever show it.
const secret = "TOP-SECRET outside the skill"

// resourceFixture lays out a remote skills root (served by serve-mcp) and a
// local skill directory, each with a script larger than two pages, and
// files and links that lead outside the skills.
type resourceFixture struct {
	remoteRoot, localDir, script string
}

func newResourceFixture(t *testing.T) resourceFixture {
	t.Helper()
	base := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 20000; i++ {
		b.WriteString("print(\"ligne " + strconv.Itoa(i) + " – données € ✓\")\n")
	}
	f := resourceFixture{remoteRoot: filepath.Join(base, "remote"), localDir: filepath.Join(base, "local", "pdf-tools"), script: b.String()}
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, path string) {
		t.Helper()
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	remote := filepath.Join(f.remoteRoot, "data-tool")
	write(filepath.Join(remote, "SKILL.md"), "---\nname: data-tool\ndescription: Export data with scripts/export.py.\n---\nRun scripts/export.py.\n")
	write(filepath.Join(remote, "scripts", "export.py"), f.script)
	write(filepath.Join(remote, "assets", "logo.bin"), "PNG\x00\x01\x02")
	write(filepath.Join(remote, ".env"), secret)
	write(filepath.Join(f.remoteRoot, "outside.txt"), secret)
	write(filepath.Join(f.remoteRoot, "other-skill", "SKILL.md"), "---\nname: other-skill\ndescription: Another skill.\n---\n"+secret+"\n")
	link(filepath.Join(f.remoteRoot, "outside.txt"), filepath.Join(remote, "link-out.txt"))
	link(f.remoteRoot, filepath.Join(remote, "up"))

	write(filepath.Join(f.localDir, "SKILL.md"), "---\nname: pdf-tools\ndescription: PDF tools.\n---\nRun scripts/export.py.\n")
	write(filepath.Join(f.localDir, "scripts", "export.py"), f.script)
	write(filepath.Join(f.localDir, "assets", "logo.bin"), "PNG\x00\x01\x02")
	write(filepath.Join(f.localDir, ".env"), secret)
	write(filepath.Join(base, "local", "outside.txt"), secret)
	write(filepath.Join(base, "secret.txt"), secret)
	link(filepath.Join(base, "local", "outside.txt"), filepath.Join(f.localDir, "link-out.txt"))
	link(filepath.Join(base, "local"), filepath.Join(f.localDir, "up"))
	link("/etc", filepath.Join(f.localDir, "etc"))
	if err := syscall.Mkfifo(filepath.Join(f.localDir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// hostilePaths are resource paths that must all be refused, with nothing
// read outside the skill: dot segments, encoded dots and separators,
// absolute paths, backslashes, NUL and other control characters, links out
// of the skill's directory, hidden files, URLs, very long paths.
var hostilePaths = []string{
	"..", "../outside.txt", "../../secret.txt", "scripts/../../outside.txt", "./scripts/export.py",
	"scripts/./export.py", "%2e%2e/outside.txt", "%2E%2E/outside.txt", "..%2foutside.txt", "%2e%2e%2f%2e%2e%2fsecret.txt",
	"scripts%2f..%2f..%2foutside.txt", "/etc/passwd", "/", "//etc/passwd", `\etc\passwd`,
	`..\outside.txt`, `scripts\..\..\outside.txt`, "C:/Windows/win.ini", `C:\Windows\win.ini`, "file:///etc/passwd",
	"skill://other-skill/SKILL.md", "scripts/export.py\x00.txt", "\x00", "scripts/\nexport.py", "scripts/export.py?x=1",
	"scripts/export.py#frag", ".env", "scripts/.hidden", "link-out.txt", "up/outside.txt",
	"up/../secret.txt", "etc/passwd", "up/other-skill/SKILL.md", "scripts//export.py", "scripts/",
	"fifo", strings.Repeat("a/", 600) + "x", strings.Repeat("x", 5000), "\u202e/export.py", "..;/outside.txt",
}

// TestResourceToolEndToEnd drives the resource-read tool through the real
// plugin (its binary over go-plugin, and in process) with a real MCP server
// process (serve-mcp over stdio) for a remote skill and a directory skill:
// a script read in pages, a read past the end, the hostile path set, a
// binary file, and an agent for which the tool is restricted or shadowed.
func TestResourceToolEndToEnd(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "skillcatalog")
	build := exec.Command("go", "build", "-o", bin, "github.com/skillcatalog/skillcatalog/cmd/skillcatalog")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build skillcatalog: %v\n%s", err, out)
	}
	fx := newResourceFixture(t)
	for _, mode := range []string{"process", "in-process"} {
		t.Run(mode, func(t *testing.T) {
			runResourceScenario(t, bin, fx, mode == "in-process")
		})
	}
}

func runResourceScenario(t *testing.T, bin string, fx resourceFixture, inProcess bool) {
	ctx := context.Background()
	tree, reg := tools.NewTree(), skilltest.NewRegistry(t)
	for _, agent := range []string{"agent:a", "agent:restricted", "agent:shadow"} {
		if err := tree.AddScope(agent, tools.GlobalScope); err != nil {
			t.Fatal(err)
		}
	}
	remote, err := mcpskills.New(&mcpskills.Options{Command: []string{bin, "serve-mcp", "-skills", fx.remoteRoot}, RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { remote.Close() })
	reg.AddProvider(tools.GlobalScope, remote, nil)
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "pdf-tools", Description: "PDF tools.", Content: "Run scripts/export.py.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: fx.localDir}}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "brand-voice", Description: "Brand voice.", Content: "Use assets/voice.md.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "Ask the brand_asset tool."}}); err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	opts := &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}
	if inProcess {
		opts = &hostsdk.LoadOptions{InProcess: true}
	}
	p, err := host.Load(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(ctx, tools.GlobalScope, `{"resourceTool": true}`); err != nil {
		t.Fatal(err)
	}
	call := func(agent, args string) hostsdk.ToolResult {
		t.Helper()
		res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: agent}).CallTool(ctx, hostsdk.ToolCall{Name: "skill_resource", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("call %s: %v", args, err)
		}
		return res
	}
	readArgs := func(name, path string, offset int64) string {
		b, _ := json.Marshal(map[string]any{"name": name, "path": path, "offset": offset})
		return string(b)
	}

	// The `skill` result names the tool.
	loaded, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"data-tool"}`)})
	if err != nil || loaded.IsError || !strings.Contains(loaded.Text, "read them with the skill_resource tool") {
		t.Fatalf("skill result: %v %q", err, loaded.Text)
	}

	for _, name := range []string{"data-tool", "pdf-tools"} {
		// The script, in pages.
		var got strings.Builder
		offset, pages := int64(0), 0
		for {
			res := call("agent:a", readArgs(name, "scripts/export.py", offset))
			if res.IsError || res.Resource == nil {
				t.Fatalf("%s: page at %d: %q", name, offset, res.Text)
			}
			pages++
			if len(res.Resource.Content) > 8192 || res.Resource.TotalBytes != int64(len(fx.script)) || res.Resource.Offset != offset {
				t.Fatalf("%s: page at %d: %d bytes, %+v", name, offset, len(res.Resource.Content), *res.Resource)
			}
			// The remote skill's page names its server (the provider's
			// default label).
			origin := ""
			if name == "data-tool" {
				origin = ` mcp_server="mcp"`
			}
			if !strings.HasPrefix(res.Text, `<skill_resource name="`+name+`"`+origin+` path="scripts/export.py" offset="`+strconv.FormatInt(offset, 10)+`"`) {
				t.Fatalf("%s: page text %.200q", name, res.Text)
			}
			got.WriteString(res.Resource.Content)
			if res.Resource.NextOffset == nil {
				break
			}
			offset = *res.Resource.NextOffset
		}
		if got.String() != fx.script || pages != 3 {
			t.Fatalf("%s: %d pages put together give %d bytes, want the %d-byte script in 3", name, pages, got.Len(), len(fx.script))
		}

		// Past the end.
		total := int64(len(fx.script))
		res := call("agent:a", readArgs(name, "scripts/export.py", total))
		want := `Error: offset ` + strconv.FormatInt(total, 10) + ` is at or past the end of resource "scripts/export.py" of skill "` + name + `" (` + strconv.FormatInt(total, 10) + ` bytes); the file was read to its end`
		if !res.IsError || res.Text != want {
			t.Errorf("%s: past the end: %q, want %q", name, res.Text, want)
		}

		// Binary and missing files.
		if res := call("agent:a", readArgs(name, "assets/logo.bin", 0)); !res.IsError || !strings.Contains(res.Text, "is binary") {
			t.Errorf("%s: binary file: %q", name, res.Text)
		}
		// A directory skill's file that is not there is not found; a remote
		// skill's file that its entry does not list is a verification
		// failure, reported naming the skill and its server.
		missing := `Error: resource "scripts/missing.py" of skill "` + name + `" was not found`
		unlisted := ""
		if name == "data-tool" {
			unlisted = `Error: mcpskills: skill "data-tool" from MCP server "mcp": `
			missing = unlisted + `"scripts/missing.py" is not a file of its entry; not read`
		}
		if res := call("agent:a", readArgs(name, "scripts/missing.py", 0)); res.Text != missing {
			t.Errorf("%s: missing file: %q, want %q", name, res.Text, missing)
		}

		// The hostile set: every path refused, nothing from outside.
		for _, path := range hostilePaths {
			res := call("agent:a", readArgs(name, path, 0))
			if !res.IsError || res.Resource != nil || strings.Contains(res.Text, "TOP-SECRET") {
				t.Errorf("%s: hostile path %q: %q", name, path, res.Text)
			}
			refused := strings.HasPrefix(res.Text, "Error: invalid resource path ") || strings.HasPrefix(res.Text, "Error: resource ") ||
				(unlisted != "" && res.Text == unlisted+strconv.Quote(path)+" is not a file of its entry; not read")
			if !refused {
				t.Errorf("%s: hostile path %q: unexpected refusal %q", name, path, res.Text)
			}
		}
	}
	// The host's own checks, without the plugin's in front: the registry
	// reads nothing outside either skill for any of the hostile paths.
	q := skills.Query{SessionID: "s1", Cwd: "/work", Chain: []string{"agent:a", tools.GlobalScope}}
	for _, name := range []string{"data-tool", "pdf-tools"} {
		for _, path := range hostilePaths {
			data, err := reg.ReadResource(ctx, q, name, path)
			if err == nil || data != nil || strings.Contains(err.Error(), "TOP-SECRET") {
				t.Errorf("%s: registry read of hostile path %q = %q, %v", name, path, data, err)
			}
		}
	}
	if len(hostilePaths) < 30 {
		t.Fatalf("%d hostile paths, want at least 30", len(hostilePaths))
	}

	// An opaque base is not readable.
	if res := call("agent:a", readArgs("brand-voice", "assets/voice.md", 0)); res.Text != `Error: the resources of skill "brand-voice" are not readable through the skill_resource tool; load them as the skill's resource guidance describes` {
		t.Errorf("opaque base: %q", res.Text)
	}

	// A restricted agent is neither offered the tool nor can call it; for
	// an agent whose own definition shadows the name, the call is not the
	// plugin's.
	if err := tree.Restrict("agent:restricted", "skill_resource"); err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Register("agent:shadow", tools.Definition{Name: "skill_resource", Description: "The agent's own tool."}); err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"agent:restricted", "agent:shadow"} {
		_, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: agent}).CallTool(ctx, hostsdk.ToolCall{Name: "skill_resource", Arguments: json.RawMessage(readArgs("data-tool", "scripts/export.py", 0))})
		var nf *hostsdk.ToolNotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("%s: call = %v, want *ToolNotFoundError", agent, err)
		}
	}
	for _, rt := range tree.Visible("agent:restricted") {
		if rt.Definition.Name == "skill_resource" {
			t.Errorf("the restricted agent is offered skill_resource")
		}
	}
	// The agents the tool is not restricted for still read.
	if res := call("agent:a", readArgs("data-tool", "scripts/export.py", 0)); res.IsError {
		t.Errorf("unrestricted agent: %q", res.Text)
	}
}
