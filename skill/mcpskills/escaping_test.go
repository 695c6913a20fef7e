package mcpskills_test

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// escapingSkill writes a skill whose files are 3 MiB each of characters
// JSON escapes: '<' (which encoders that escape HTML write as \u003c) and
// U+0001 (which every encoder writes as \u0001), six bytes on the wire for
// each byte of the file, and returns the skills directory and the files.
func escapingSkill(t *testing.T) (string, map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{
		"data/lt.txt":   bytes.Repeat([]byte("<"), 3<<20),
		"data/ctrl.txt": bytes.Repeat([]byte{1}, 3<<20),
	}
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, "escaping", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("SKILL.md", []byte("---\nname: escaping\ndescription: Files that JSON escaping makes six times larger.\n---\nRead data/lt.txt and data/ctrl.txt.\n"))
	for rel, data := range files {
		write(rel, data)
	}
	return dir, files
}

// slowReads is the request timeout of these reads: an 18 MiB message takes
// seconds, and many times longer under the race detector.
const slowReads = 10 * time.Minute

// readThroughRegistry reads each file as the model's skill_resource does,
// and fails unless it gets the file's bytes or, unless whole, the
// documented too-large error.
func readThroughRegistry(t *testing.T, cfg mcpskills.Options, files map[string][]byte, whole bool) {
	t.Helper()
	p, err := mcpskills.New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := skilltest.NewRegistry(t)
	r.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s1", Cwd: "/w", Chain: []string{"global"}}
	if _, err := r.Snapshot(t.Context(), q); err != nil {
		t.Fatal(err)
	}
	for rel, want := range files {
		got, err := r.ReadResource(t.Context(), q, "escaping", rel)
		switch {
		case err == nil && !bytes.Equal(got, want):
			t.Errorf("%s: read %d bytes that differ from the file's %d", rel, len(got), len(want))
		case err != nil && whole:
			t.Errorf("%s: %v; want the file", rel, err)
		case err != nil && !errors.Is(err, skills.ErrResourceTooLarge):
			t.Errorf("%s: %v; want the file or skills.ErrResourceTooLarge", rel, err)
		}
	}
}

// A text file well under skill.MaxResourceBytes whose JSON encoding is six
// times its size is read through skill_resource from serve-mcp's server,
// over streamable HTTP and over stdio, and from the TypeScript SDK's: the
// model gets the file, never a transport error.
func TestEscapedResourceReadsWhole(t *testing.T) {
	dir, files := escapingSkill(t)
	t.Run("http", func(t *testing.T) {
		handler, err := skillserver.NewDir(dir).HTTPHandler(nil)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(handler)
		defer srv.Close()
		readThroughRegistry(t, mcpskills.Options{URL: srv.URL, Label: "docs", RequestTimeout: slowReads}, files, true)
	})
	t.Run("stdio", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "skillcatalog")
		if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/skillcatalog").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		readThroughRegistry(t, mcpskills.Options{Command: []string{bin, "serve-mcp", "-skills", dir}, Label: "docs", RequestTimeout: slowReads}, files, true)
	})
	t.Run("typescript server over stdio", func(t *testing.T) {
		// The official TypeScript SDK's skills server (JSON.stringify
		// writes '<' as is, and U+0001 as \u0001).
		node, err := exec.LookPath("node")
		server := filepath.Join("..", "..", "testdata", "mcpserver")
		if err == nil {
			_, err = os.Stat(filepath.Join(server, "node_modules", "@modelcontextprotocol", "server", "package.json"))
		}
		if err != nil {
			testneeds.Skip(t, "Node.js and `npm ci --prefix testdata/mcpserver` (the TypeScript MCP SDK skills server)", err)
		}
		readThroughRegistry(t, mcpskills.Options{Command: []string{node, filepath.Join(server, "server.mjs"), "-skills", dir, "-stdio"}, Label: "docs", RequestTimeout: slowReads}, files, true)
	})
}

// From a server without the extension, whose index states no sizes, such a
// file's answer is bounded at MaxMessageBytes: the model gets the file or
// the documented too-large error, never a transport error.
func TestEscapedResourceOverIndex(t *testing.T) {
	_, files := escapingSkill(t)
	s := mcpfake.New()
	s.SetSkill("escaping", "Files that JSON escaping makes six times larger.", "Read data/lt.txt and data/ctrl.txt.")
	for rel, data := range files {
		s.SetResource("skill://escaping/"+rel, string(data))
	}
	h, err := s.ListenHTTP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Stop()
	readThroughRegistry(t, mcpskills.Options{URL: h.URL(), Label: "docs", RequestTimeout: slowReads}, files, false)
}
