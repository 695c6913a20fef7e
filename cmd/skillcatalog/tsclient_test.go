//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

// mcpClientDir holds the TypeScript MCP SDK client; .ci/run installs its
// packages with npm ci.
var mcpClientDir = filepath.Join("..", "..", "testdata", "mcpclient")

// nodeClient returns the node binary and client.mjs, which drives
// serve-mcp with the 1.x TypeScript MCP SDK client.
func nodeClient(t *testing.T) (string, string) {
	t.Helper()
	return nodeScript(t, "sdk", "client.mjs")
}

// nodeScript returns the node binary and the script of testdata/mcpclient
// that uses the npm package @modelcontextprotocol/<pkg>, skipping the test
// (failing it under CI) when they are not installed.
func nodeScript(t *testing.T, pkg, name string) (string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(mcpClientDir, "node_modules", "@modelcontextprotocol", pkg))
	}
	if err != nil {
		testneeds.Skip(t, "Node.js and `npm ci --prefix testdata/mcpclient` (the TypeScript MCP SDK clients)", err)
	}
	script, err := filepath.Abs(filepath.Join(mcpClientDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return node, script
}

// copySkills copies the shipped remote skills, so the client can add a
// file without touching the repository.
func copySkills(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "skills")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "remote-skills"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tsClientResult is what client.mjs prints.
type tsClientResult struct {
	AnonymousRefused bool     `json:"anonymousRefused"`
	ListChanged      bool     `json:"listChanged"`
	Resources        []string `json:"resources"`
	Index            []string `json:"index"`
	SkillMd          []string `json:"skillMd"`
	Child            struct {
		MIMEType  string `json:"mimeType"`
		FirstLine string `json:"firstLine"`
	} `json:"child"`
	TraversalRefused bool   `json:"traversalRefused"`
	NotifiedAfterAdd bool   `json:"notifiedAfterAdd"`
	Added            string `json:"added"`
}

func runTSClient(t *testing.T, cmd *exec.Cmd) tsClientResult {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("client.mjs: %v\n%s", err, stderr)
	}
	var res tsClientResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("client.mjs printed %q: %v", out, err)
	}
	return res
}

// checkTSClient compares what the client saw with the shipped skills.
func checkTSClient(t *testing.T, got tsClientResult) {
	t.Helper()
	if !got.ListChanged {
		t.Error("the server does not advertise resources.listChanged")
	}
	wantResources := []string{"skill://acme/billing/refunds/SKILL.md", "skill://data-export/SKILL.md", "skill://incident-review/SKILL.md", "skill://index.json"}
	if diff := cmp.Diff(wantResources, got.Resources); diff != "" {
		t.Errorf("resources/list (-want +got):\n%s", diff)
	}
	wantIndex := []string{
		"data-export: Export a table to CSV in pages, with a header row and a checksum of the rows written.",
		"incident-review: Write a blameless incident review with a timeline, contributing factors and follow-up actions.",
	}
	if diff := cmp.Diff(wantIndex, got.Index); diff != "" {
		t.Errorf("index (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"---", "name: data-export", "description: Export a table to CSV in pages, with a header row and a checksum of the rows written."}, got.SkillMd); diff != "" {
		t.Errorf("SKILL.md (-want +got):\n%s", diff)
	}
	if got.Child.MIMEType != "text/x-python" || !strings.HasPrefix(got.Child.FirstLine, `"""Export TABLE`) {
		t.Errorf("child file = %+v", got.Child)
	}
	if !got.TraversalRefused {
		t.Error("a traversal URI was read")
	}
	if !got.NotifiedAfterAdd || got.Added != "print('added')\n" {
		t.Errorf("after adding a file: notified %v, read %q", got.NotifiedAfterAdd, got.Added)
	}
}

// The official TypeScript MCP SDK client lists and reads serve-mcp's
// resources and hears about an added file, over stdio and over HTTP with a
// bearer token.
func TestTypeScriptMCPClient(t *testing.T) {
	node, script := nodeClient(t)
	bin := buildCommand(t)

	t.Run("stdio", func(t *testing.T) {
		skills := copySkills(t)
		got := runTSClient(t, exec.Command(node, script, "stdio", skills, bin, "serve-mcp", "-skills", skills))
		checkTSClient(t, got)
	})

	t.Run("http", func(t *testing.T) {
		skills := copySkills(t)
		const token = "test-token-4f7a"
		url := serveHTTP(t, bin, skills, token)
		got := runTSClient(t, exec.Command(node, script, "http", skills, url, token))
		checkTSClient(t, got)
		if !got.AnonymousRefused {
			t.Error("a client without the bearer token was not refused with 401")
		}
	})
}

// serveHTTP starts serve-mcp on skills over streamable HTTP with a bearer
// token, stopped when the test ends, and returns its URL.
func serveHTTP(tb testing.TB, bin, skills, token string) string {
	tb.Helper()
	tokenFile := filepath.Join(tb.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	_, url := startServeMCP(tb, bin, "-skills", skills, "-http", "127.0.0.1:0", "-token-file", tokenFile)
	return url
}

// startServeMCP starts serve-mcp over HTTP with args, stopped when the test
// ends, and returns the process and its URL.
func startServeMCP(tb testing.TB, bin string, args ...string) (*exec.Cmd, string) {
	tb.Helper()
	srv := exec.Command(bin, append([]string{"serve-mcp"}, args...)...)
	stdout, err := srv.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "serving skills over MCP at ")
	if err != nil || !ok {
		tb.Fatalf("serve-mcp printed %q, %v", line, err)
	}
	return srv, url
}
