package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

// skillsCLI returns the node binary and the entry point of the skills CLI
// pinned by testdata/skillscli, or skips (fails under CI=true) without
// them.
func skillsCLI(t *testing.T) (node, cli string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "skillscli", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(dir, "node", "bin", "node")
	cli = filepath.Join(dir, "skills", "bin", "cli.mjs")
	for _, p := range []string{node, cli} {
		if _, err := os.Stat(p); err != nil {
			testneeds.Skip(t, "`npm ci --prefix testdata/skillscli` (the skills CLI from npm, and the Node.js 22 it runs on)", err)
		}
	}
	return node, cli
}

// TestSkillsCLIInstallsAPublishedSite: the skills CLI from npm, code this
// project did not write, installs every skill of a tree `skillcatalog
// publish` wrote, served from loopback, into a fresh agent directory,
// byte for byte: from the v0.2.0 index (digests checked by the CLI, the
// archive unpacked by it) and from the v0.1.0 layout alone.
func TestSkillsCLIInstallsAPublishedSite(t *testing.T) {
	node, cli := skillsCLI(t)
	for _, tc := range []struct {
		name   string
		remove string // a layout to take away before serving
	}{
		{"v0.2.0", ""},
		{"v0.1.0", filepath.Join(".well-known", "agent-skills")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			if _, stderr, code := runPublish(t, webFixture, out); code != 0 {
				t.Fatalf("publish: exit %d\n%s", code, stderr)
			}
			if tc.remove != "" {
				if err := os.RemoveAll(filepath.Join(out, tc.remove)); err != nil {
					t.Fatal(err)
				}
			}
			srv := httptest.NewServer(http.FileServer(http.Dir(out)))
			defer srv.Close()
			project := installWithSkillsCLI(t, node, cli, srv.URL)
			compareTrees(t, webFixture, filepath.Join(project, ".claude", "skills"))
		})
	}
}

// installWithSkillsCLI runs `skills add URL --skill '*' --agent claude-code
// -y --copy` in a fresh project with a fresh home, telemetry off, and
// returns the project.
func installWithSkillsCLI(t *testing.T, node, cli, url string) string {
	t.Helper()
	home, project := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, cli, "add", url, "--skill", "*", "--agent", "claude-code", "-y", "--copy")
	cmd.Dir = project
	cmd.Env = []string{"HOME=" + home, "PATH=" + filepath.Dir(node), "DISABLE_TELEMETRY=1", "DO_NOT_TRACK=1", "NO_COLOR=1"}
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		t.Fatalf("skills add %s: %v\n%s", url, err, output.String())
	}
	return project
}

// compareTrees requires got to hold exactly want's files, byte for byte.
func compareTrees(t *testing.T, want, got string) {
	t.Helper()
	wantFiles, gotFiles := treeFiles(t, want), treeFiles(t, got)
	for name, data := range wantFiles {
		if g, ok := gotFiles[name]; !ok || !bytes.Equal(g, data) {
			t.Errorf("%s: installed %d bytes (present %v), want the %d bytes published", name, len(g), ok, len(data))
		}
	}
	for name := range gotFiles {
		if _, ok := wantFiles[name]; !ok {
			t.Errorf("%s: installed, but never published", name)
		}
	}
}
