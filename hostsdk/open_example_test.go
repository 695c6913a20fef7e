package hostsdk_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
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

// TestREADMEShowsTheQuickStart keeps the README's five lines and
// runQuickStart one text.
func TestREADMEShowsTheQuickStart(t *testing.T) {
	src, err := os.ReadFile("open_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(src), "// quick start: begin\n")
	body, _, _ = strings.Cut(body, "\t// quick start: end")
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	shown := strings.Join(lines, "\n")
	if !strings.Contains(string(readme), "```go\n"+shown+"\n```\n") {
		t.Errorf("README.md has no ```go block holding the quick start exactly:\n%s", shown)
	}
}
