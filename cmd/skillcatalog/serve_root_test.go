//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// servedURLs starts serve-mcp's server of -skills arg, as the command
// does, and returns the URLs of its index and what it said on stderr.
func servedURLs(t *testing.T, arg string) ([]string, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	srv, done, code := skillsServer(ctx, arg, &stderr)
	if srv == nil {
		t.Fatalf("-skills %s: exit %d\n%s", arg, code, stderr.String())
	}
	defer done()
	data, err := srv.Index()
	if err != nil {
		t.Fatal(err)
	}
	var ix struct{ Skills []struct{ URL string } }
	if err := json.Unmarshal(data, &ix); err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, s := range ix.Skills {
		urls = append(urls, s.URL)
	}
	return urls, stderr.String()
}

// A stray SKILL.md at the top of serve-mcp's directory, even one without
// frontmatter that no host would load, does not make the directory one
// skill: every other skill keeps its URI, and a line says the top file is
// not served and how to serve the folder as a skill too. A directory
// whose SKILL.md has no skill below it is one skill's folder, as before.
func TestServeMCPIgnoresASkillFileAtTheTop(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("other/SKILL.md", "---\nname: other\ndescription: Other.\n---\nBody.\n")
	for _, top := range []string{"# Notes about these skills\n", "---\nname: skills\ndescription: The folder itself.\n---\nBody.\n"} {
		write("SKILL.md", top)
		urls, stderr := servedURLs(t, dir)
		if !slices.Equal(urls, []string{"skill://other/SKILL.md"}) {
			t.Errorf("a top SKILL.md %q: served %q, want skill://other/SKILL.md alone", top, urls)
		}
		want := "skillcatalog serve-mcp: " + filepath.Join(dir, "SKILL.md") + " is not served: the folder holds other skills, which are served at their own paths; to serve the folder as a skill too, pass -skills " + filepath.Dir(dir) + ", the folder that holds it"
		if !strings.Contains(stderr, want) {
			t.Errorf("a top SKILL.md %q: stderr lacks %q:\n%s", top, want, stderr)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "other")); err != nil {
		t.Fatal(err)
	}
	if urls, stderr := servedURLs(t, dir); !slices.Equal(urls, []string{"skill://skills/SKILL.md"}) {
		t.Errorf("a folder whose SKILL.md has no skill below it: served %q, want it as the one skill skills\n%s", urls, stderr)
	}
}
