package modproxy_test

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/modproxy"
)

// TestWriteLeavesOutNestedModulesAndIgnoredFiles: a module's zip holds its
// tracked and untracked files, and neither a nested module's files nor
// what git ignores; the nested module is served with its own files.
func TestWriteLeavesOutNestedModulesAndIgnoredFiles(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example.com/core\n\ngo 1.26.0\n",
		"core.go":          "package core\n",
		".gitignore":       "build/\n",
		"build/out.bin":    "ignored",
		"sub/go.mod":       "module example.com/core/sub\n\ngo 1.26.0\n",
		"sub/sub.go":       "package sub\n",
		"internal/x/x.go":  "package x\n",
		"untracked/new.go": "package untracked\n",
	}
	for name, content := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "go.mod", "core.go", ".gitignore", "sub", "internal")

	proxy := t.TempDir()
	mods := []modproxy.Module{{Path: "example.com/core"}, {Path: "example.com/core/sub", Dir: "sub"}}
	if err := modproxy.Write(context.Background(), proxy, repo, "v1.2.3", mods); err != nil {
		t.Fatal(err)
	}
	check := func(escapedPath string, want []string) {
		t.Helper()
		zr, err := zip.OpenReader(filepath.Join(proxy, escapedPath, "@v", "v1.2.3.zip"))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		var got []string
		for _, f := range zr.File {
			got = append(got, f.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s zip holds %q, want %q", escapedPath, got, want)
		}
		for _, name := range []string{"list", "v1.2.3.info", "v1.2.3.mod"} {
			if _, err := os.Stat(filepath.Join(proxy, escapedPath, "@v", name)); err != nil {
				t.Error(err)
			}
		}
	}
	check("example.com/core", []string{
		"example.com/core@v1.2.3/.gitignore",
		"example.com/core@v1.2.3/core.go",
		"example.com/core@v1.2.3/go.mod",
		"example.com/core@v1.2.3/internal/x/x.go",
		"example.com/core@v1.2.3/untracked/new.go",
	})
	check("example.com/core/sub", []string{
		"example.com/core/sub@v1.2.3/go.mod",
		"example.com/core/sub@v1.2.3/sub.go",
	})
}
