package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestREADMEShowsThisProgram keeps the embedding example of the host SDK's
// reference (hostsdk/README.md) and this program one text, so the code a
// reader copies is code that compiles (this package) and runs
// (TestExampleHostRuns).
func TestREADMEShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "hostsdk", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	program, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	shown, ok := goBlockStarting(string(readme), "// Command example-host")
	if !ok {
		t.Fatal("hostsdk/README.md has no ```go block holding cmd/example-host/main.go")
	}
	if diff := cmp.Diff(string(program), shown); diff != "" {
		t.Errorf("hostsdk/README.md's embedding example differs from cmd/example-host/main.go (-file +README):\n%s", diff)
	}
}

// goBlockStarting returns the first fenced Go block of a Markdown text whose
// code starts with prefix.
func goBlockStarting(markdown, prefix string) (string, bool) {
	const open, fence = "```go\n", "\n```\n"
	for rest := markdown; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			return "", false
		}
		rest = rest[i+len(open):]
		j := strings.Index(rest, fence)
		if j < 0 {
			return "", false
		}
		if strings.HasPrefix(rest, prefix) {
			return rest[:j+1], true
		}
		rest = rest[j+len(fence):]
	}
}

// TestExampleHostRuns builds the plugin and this program as the README
// says and runs them on the repository's example skills.
func TestExampleHostRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "../skillcatalog-plugin", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := exec.Command(filepath.Join(bin, "example-host"),
		"-plugin", filepath.Join(bin, "skillcatalog-plugin"),
		"-skills", filepath.Join("..", "..", "testdata", "skills"))
	// An empty home keeps skills of whoever runs the test out of the catalog.
	run.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("example-host: %v\nstderr:\n%s", err, stderr.String())
	}
	want := `step 1: initial, 2 messages in the conversation
tools offered: Read, Bash, WebFetch, skill
model called skill {"name":"code-review"}: <skill_content name="code-review"> (error false)
pre-approved for the rest of the turn: Bash(git diff *), Read
step 2: unchanged, 4 messages in the conversation
tools offered: Read, Bash, skill
model: Done: the change is reviewed, following the code-review skill.
after compaction: replacement, 2 messages in the conversation
`
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("example-host output (-want +got):\n%s\nstderr:\n%s", diff, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("example-host wrote to stderr:\n%s", stderr.String())
	}
}
