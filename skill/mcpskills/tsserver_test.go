//go:build unix

package mcpskills

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// tsServerDir holds the skills server built on the official TypeScript MCP
// SDK; .ci/run installs its packages with npm ci.
var tsServerDir = filepath.Join("..", "..", "testdata", "mcpserver")

// tsServer returns the node binary, the server script and its fixture
// skills, skipping the test (failing it under CI) when Node.js or the
// packages are not installed.
func tsServer(t *testing.T) (node, script, skillsDir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(tsServerDir, "node_modules", "@modelcontextprotocol", "server", "package.json"))
	}
	if err != nil {
		testneeds.Skip(t, "Node.js and `npm ci --prefix testdata/mcpserver` (the TypeScript MCP SDK skills server)", err)
	}
	dir, err := filepath.Abs(tsServerDir)
	if err != nil {
		t.Fatal(err)
	}
	return node, filepath.Join(dir, "server.mjs"), filepath.Join(dir, "skills")
}

// startTSHTTP starts the TypeScript server over streamable HTTP on
// loopback and returns its endpoint; the server stops when the test ends.
func startTSHTTP(t *testing.T) string {
	t.Helper()
	node, script, dir := tsServer(t)
	cmd := exec.Command(node, script, "-skills", dir, "-http", "127.0.0.1:0", "-watch-stdin")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close() // the server exits when its stdin closes
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the TypeScript server printed no endpoint: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestTypeScriptSkillsServer lists, loads and reads the fixture skills of
// the official TypeScript SDK's skills server, over streamable HTTP and
// over stdio: a nested skill path, a skill inside another, a supporting
// file, and the entries' digests all verified.
func TestTypeScriptSkillsServer(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			cfg := Options{Label: "docs", RequestTimeout: 20 * time.Second}
			if transport == "http" {
				cfg.URL = startTSHTTP(t)
			} else {
				node, script, dir := tsServer(t)
				cfg.Command = []string{node, script, "-skills", dir, "-stdio"}
			}
			p, err := New(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = p.Close() })
			checkTSFixture(t, p)
		})
	}
}

func checkTSFixture(t *testing.T, p *Provider) {
	t.Helper()
	_, _, dir := tsServer(t)
	disk := func(rel string) string {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	obs := listSkills(t, p, "s1")
	sum := func(name, desc, path string) skill.Summary {
		return skill.Summary{Name: name, Description: desc, Invocation: skill.DefaultPolicy(), Provider: "docs", Origin: "docs", QualifiedName: "docs:" + path}
	}
	want := []skill.Summary{
		sum("refunds", "Process customer refund requests per company policy.", "acme/billing/refunds"),
		sum("escalation", "Escalate a refund above the approval limit to a billing lead.", "acme/billing/refunds/escalation"),
		sum("git-workflow", "Follow this team's Git conventions for branches and commits.", "git-workflow"),
	}
	if diff := cmp.Diff(want, obs.Skills); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if d := p.Diagnostics(); len(d) != 0 {
		t.Errorf("Diagnostics = %q", d)
	}

	def := load(t, p, "s1", "refunds")
	if def.ResourceBase == nil || def.ResourceBase.URL != "skill://acme/billing/refunds/" || !strings.HasPrefix(def.Content, "# Refunds\n") || def.Origin != "docs" {
		t.Errorf("refunds = %+v", def)
	}
	for _, path := range []string{"references/email.md", "escalation/SKILL.md", "SKILL.md"} {
		data, err := p.ReadSkillResource(t.Context(), skills.ResourceRequest{SessionID: "s1", Name: "refunds", Path: path})
		if err != nil || string(data) != disk("acme/billing/refunds/"+path) {
			t.Errorf("refunds %s = %q, %v", path, data, err)
		}
	}
	if _, err := p.ReadSkillResource(t.Context(), skills.ResourceRequest{SessionID: "s1", Name: "refunds", Path: "references/missing.md"}); err == nil || !strings.Contains(err.Error(), `"references/missing.md" is not a file of its entry`) {
		t.Errorf("a file outside the manifest: %v", err)
	}
	if def := load(t, p, "s1", "docs:acme/billing/refunds/escalation"); def.Content != "# Escalation\n\nOpen a ticket in the billing queue and name the order." {
		t.Errorf("escalation = %q", def.Content)
	}
	load(t, p, "s1", "git-workflow")
	if e, ok := p.HeldEntry("s1", "git-workflow"); !ok || strings.Join(e.RequestedTools, " ") != "Bash(git:*) Read" {
		t.Errorf("git-workflow held entry = %+v, %v", e, ok)
	}
}
