package hostsdk_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// runQuickStart is the README's five-line setup, as a function so that it
// compiles here: a host over a skills directory with file-backed sessions,
// one session, and a step for the framework's history.
func runQuickStart(ctx context.Context, skillsDir, sessionDir, cwd string, history []hostsdk.Message) (res hostsdk.SyncResult, err error) {
	// quick start: begin
	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: []string{skillsDir}, SessionDir: sessionDir})
	if err != nil {
		return res, err
	}
	defer host.Close()
	session := host.Session("session-1", &hostsdk.SessionOptions{Cwd: cwd})
	res, err = session.Sync(ctx, history) // res.View: what to send the model; session.Tools() to offer
	// quick start: end
	return res, err
}

func ExampleOpen() {
	dir, err := os.MkdirTemp("", "quick-start-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	history := []hostsdk.Message{{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Fill in the W-9.")}}}
	res, err := runQuickStart(context.Background(), "../testdata/skills", dir, dir, history)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.View {
		first, _, _ := strings.Cut(m.Message.Text(), "\n")
		fmt.Printf("plugin %v: %s\n", m.Plugin, first)
	}
	// Output:
	// plugin false: Fill in the W-9.
	// plugin true: <system-reminder>
}

// openWithSources is the README's quick start extended with a website
// and an MCP server, one line each.
func openWithSources(ctx context.Context, skillsDir, sessionDir, siteURL, mcpURL string) (*hostsdk.Host, error) {
	// quick start with sources: begin
	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: []string{skillsDir}, SessionDir: sessionDir,
		Websites:   []webskills.Options{{URL: siteURL, Label: "docs", AllowHTTP: true}}, // AllowHTTP: a site on loopback
		MCPServers: []mcpskills.Options{{URL: mcpURL, Label: "tools"}},
	})
	// quick start with sources: end
	return host, err
}

// This host lists, beside its skill directories, the skills of a website
// (what `skillcatalog publish` writes, served here by a file server) and of
// an MCP server (what `skillcatalog serve-mcp` serves); the catalog names
// each remote skill's source by the label the host gave it.
func ExampleOpen_websiteAndMCPServer() {
	site := httptest.NewServer(http.FileServer(http.Dir("../testdata/webskills/published")))
	defer site.Close()
	handler, err := skillserver.NewDir("../testdata/remote-skills").HTTPHandler(nil)
	if err != nil {
		log.Fatal(err)
	}
	mcp := httptest.NewServer(handler)
	defer mcp.Close()
	dir, err := os.MkdirTemp("", "quick-start-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	host, err := openWithSources(ctx, "../testdata/skills", dir, site.URL, mcp.URL)
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	history := []hostsdk.Message{{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Deploy the worker.")}}}
	res, err := host.Session("session-1", &hostsdk.SessionOptions{Cwd: dir}).Sync(ctx, history)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.View {
		for _, line := range strings.Split(m.Message.Text(), "\n") {
			if m.Plugin && (strings.Contains(line, "(website `") || strings.Contains(line, "(MCP server `")) {
				name, _, _ := strings.Cut(line, ":")
				fmt.Println(name)
			}
		}
	}
	// Output:
	// -`code-review` (website `docs`)
	// -`data-export` (MCP server `tools`)
	// -`incident-review` (MCP server `tools`)
	// -`refunds` (MCP server `tools`)
	// -`wrangler` (website `docs`)
}

// readmeBlock returns the lines of open_example_test.go between
// "// <marker>: begin" and "// <marker>: end", one tab less indented.
func readmeBlock(t *testing.T, src, marker string) string {
	t.Helper()
	_, body, ok := strings.Cut(src, "// "+marker+": begin\n")
	if !ok {
		t.Fatalf("open_example_test.go has no %q block", marker)
	}
	body, _, _ = strings.Cut(body, "\t// "+marker+": end")
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	return strings.Join(lines, "\n")
}

// TestREADMEShowsTheQuickStart keeps the README's five lines and
// runQuickStart one text, and its lines with a website and an MCP server
// and openWithSources.
func TestREADMEShowsTheQuickStart(t *testing.T) {
	src, err := os.ReadFile("open_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, marker := range []string{"quick start", "quick start with sources"} {
		shown := readmeBlock(t, string(src), marker)
		if !strings.Contains(string(readme), "```go\n"+shown+"\n```\n") {
			t.Errorf("README.md has no ```go block holding the %s exactly:\n%s", marker, shown)
		}
	}
}
