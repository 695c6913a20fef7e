//go:build unix

package skillserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

func skillFile(name, desc string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n# %s\n", name, desc, name)
}

// writeSkill writes root/name/SKILL.md.
func writeSkill(t *testing.T, root, name, content string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// skillDir makes root/name and returns the path of its SKILL.md.
func skillDir(t *testing.T, root, name string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, name, "SKILL.md")
}

func indexNames(t *testing.T, s *Server) []string {
	t.Helper()
	data, err := s.Index()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Skills []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range doc.Skills {
		names = append(names, e.Name+": "+e.Description)
	}
	return names
}

// A SKILL.md that is not a regular file within skill.MaxSkillFileBytes
// leaves only its own skill off the index, with a diagnostic that says
// why; the server neither hangs (FIFO) nor reads without bound (a link to
// /dev/zero, an oversized file), and a link to a regular file is served.
func TestIrregularSkillFilesAreLeftOff(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "good", skillFile("good", "Good."))
	if err := os.Symlink("/dev/zero", skillDir(t, root, "zero")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(skillDir(t, root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(skillDir(t, root, "nested"), 0o755); err != nil {
		t.Fatal(err)
	}
	over := skillFile("over", "Over.")
	writeSkill(t, root, "over", over+strings.Repeat("x", skill.MaxSkillFileBytes+1-len(over)))
	at := skillFile("at-bound", "At the bound.")
	writeSkill(t, root, "at-bound", at+strings.Repeat("x", skill.MaxSkillFileBytes-len(at)))
	shared := filepath.Join(t.TempDir(), "shared.md")
	if err := os.WriteFile(shared, []byte(skillFile("linked", "Linked.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, skillDir(t, root, "linked")); err != nil {
		t.Fatal(err)
	}

	s := NewDir(root)
	want := []string{"at-bound: At the bound.", "good: Good.", "linked: Linked."}
	if diff := cmp.Diff(want, indexNames(t, s)); diff != "" {
		t.Errorf("index (-want +got):\n%s", diff)
	}
	wantDiags := []string{
		"skill fifo is not served: SKILL.md is not a regular file but a named pipe",
		"skill nested is not served: SKILL.md is not a regular file but a directory",
		fmt.Sprintf("skill over is not served: SKILL.md of %d bytes exceeds the limit of %d bytes (skill.MaxSkillFileBytes, 8 MiB)", skill.MaxSkillFileBytes+1, skill.MaxSkillFileBytes),
		"skill zero is not served: SKILL.md is not a regular file but a device",
	}
	if diff := cmp.Diff(wantDiags, s.Diagnostics()); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}

	// Over MCP: the catalog holds the servable skills, and the others are
	// not found when asked for by name.
	handler, err := s.HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	p, err := mcpskills.New(&mcpskills.Options{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err != nil || !obs.Complete || len(obs.Skills) != 3 {
		t.Fatalf("List = %+v, %v; want the 3 servable skills", obs, err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, name := range []string{"zero", "fifo", "nested", "over"} {
		if res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: mcpskills.SkillURI(name)}); err == nil {
			t.Errorf("skill %s: served %d bytes, want not found", name, len(res.Contents[0].Text))
		}
	}
	if def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "linked"}); err != nil || !found || def.Content != "# linked" {
		t.Errorf("Load(linked) = %q, %v, %v", def.Content, found, err)
	}
}

// The check of the opened file refuses a FIFO without blocking on it, so
// a SKILL.md replaced by a FIFO between the first check and the open does
// not hang the request; a SKILL.md that is a link to a FIFO, opened before
// it is checked, neither.
func TestOpenCheckedRefusesFIFOWithoutBlocking(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(skillDir(t, root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, skillDir(t, root, "linked-fifo")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo", "linked-fifo"} {
		tree, err := NewDir(root).openTree(name)
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := openChecked(tree)
		tree.close()
		if err == nil {
			f.Close()
			t.Fatalf("%s: a FIFO was opened as a SKILL.md", name)
		}
		if !strings.Contains(err.Error(), "not a regular file but a named pipe") {
			t.Errorf("%s: error %q does not say the file is a named pipe", name, err)
		}
	}
}

// countingFS counts the opens of each file; stats and directory reads pass
// through uncounted.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

// reset forgets the opens so far: New lists the directory once to build
// the resource list, and the tests count the opens of index requests.
func (c *countingFS) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.opens)
}

func (c *countingFS) count(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opens[name+"/SKILL.md"]
}

// An index request reads a SKILL.md only when its identity changed since
// it was last read: an edit of the same size or a file renamed over it is
// read again, an unchanged file is not, and a 50 MB file is never opened
// (it exceeds skill.MaxSkillFileBytes by its size alone).
func TestUnchangedSkillFilesAreNotReread(t *testing.T) {
	root := t.TempDir()
	// Modified an hour ago, so that the edit below moves the modification
	// time even if the clock has not ticked since.
	hourAgo := time.Now().Add(-time.Hour)
	for _, name := range []string{"alpha", "beta", "gamma"} {
		file := writeSkill(t, root, name, skillFile(name, "Version 1."))
		if err := os.Chtimes(file, hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
	huge, err := os.Create(skillDir(t, root, "huge"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(50 << 20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	huge.Close()

	cfs := &countingFS{FS: os.DirFS(root), opens: make(map[string]int)}
	s := New(cfs)
	cfs.reset()
	// Every file was written more than the racy window before the reads.
	s.now = func() time.Time { return time.Now().Add(time.Minute) }
	wantOpens := func(name string, want int) {
		t.Helper()
		if got := cfs.count(name); got != want {
			t.Errorf("%s/SKILL.md opened %d times, want %d", name, got, want)
		}
	}
	for range 3 {
		if got := indexNames(t, s); len(got) != 3 {
			t.Fatalf("index = %q", got)
		}
	}
	for _, name := range []string{"alpha", "beta", "gamma"} {
		wantOpens(name, 1)
	}
	wantOpens("huge", 0)
	if d := s.Diagnostics(); len(d) != 1 || !strings.Contains(d[0], "skill.MaxSkillFileBytes") {
		t.Errorf("diagnostics = %q, want one naming skill.MaxSkillFileBytes", d)
	}

	// The same size, another content.
	writeSkill(t, root, "alpha", skillFile("alpha", "Version 2."))
	// Another file renamed over beta's.
	tmp := filepath.Join(root, "beta", "new")
	if err := os.WriteFile(tmp, []byte(skillFile("beta", "Version 3.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "beta", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		want := []string{"alpha: Version 2.", "beta: Version 3.", "gamma: Version 1."}
		if diff := cmp.Diff(want, indexNames(t, s)); diff != "" {
			t.Errorf("index after the edits (-want +got):\n%s", diff)
		}
	}
	wantOpens("alpha", 2)
	wantOpens("beta", 2)
	wantOpens("gamma", 1)
	wantOpens("huge", 0)
}

// A file changed within the racy window before it was read is read again
// on every request, until it has aged: its time stamps could not tell a
// same-size rewrite apart.
func TestRecentlyChangedSkillFilesAreReread(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "alpha", skillFile("alpha", "Fresh."))
	cfs := &countingFS{FS: os.DirFS(root), opens: make(map[string]int)}
	s := New(cfs)
	cfs.reset()
	written := time.Now()
	s.now = func() time.Time { return written }
	indexNames(t, s)
	indexNames(t, s)
	if got := cfs.count("alpha"); got != 2 {
		t.Errorf("a file changed within the racy window was opened %d times by 2 requests, want 2", got)
	}
	s.now = func() time.Time { return written.Add(racyWindow + time.Second) }
	indexNames(t, s)
	indexNames(t, s)
	if got := cfs.count("alpha"); got != 3 {
		t.Errorf("once aged, opened %d times in all, want 3", got)
	}
}

func (c *countingFS) countFile(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opens[name]
}

// Listings hash a skill's files only when their identity changed: three
// listings open each file once, and an edit, a file renamed over another
// and a new file are each read once more; the unchanged files are not.
func TestUnchangedFilesAreNotRehashed(t *testing.T) {
	root := t.TempDir()
	hourAgo := time.Now().Add(-time.Hour)
	files := []string{"tools/SKILL.md", "tools/a.txt", "tools/b.txt", "tools/sub/c.txt"}
	for _, rel := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "v1 " + rel + "\n"
		if rel == "tools/SKILL.md" {
			content = skillFile("tools", "Tools.")
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
	cfs := &countingFS{FS: os.DirFS(root), opens: make(map[string]int)}
	s := New(cfs)
	cfs.reset()
	s.now = func() time.Time { return time.Now().Add(time.Minute) }
	list := func() {
		t.Helper()
		res, err := s.listSkills(t.Context(), nil, nil)
		if err != nil || len(res.Skills) != 1 {
			t.Fatalf("skills/list = %+v, %v", res, err)
		}
	}
	for range 3 {
		list()
	}
	for _, rel := range files {
		if got := cfs.countFile(rel); got != 1 {
			t.Errorf("%s opened %d times by 3 listings, want 1", rel, got)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "tools", "a.txt"), []byte("v2 tools/a.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(root, "tools", "tmp")
	if err := os.WriteFile(tmp, []byte("v3 tools/b.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "tools", "b.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tools", "new.txt"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		list()
	}
	for rel, want := range map[string]int{"tools/SKILL.md": 1, "tools/a.txt": 2, "tools/b.txt": 2, "tools/sub/c.txt": 1, "tools/new.txt": 1} {
		if got := cfs.countFile(rel); got != want {
			t.Errorf("%s opened %d times in all, want %d", rel, got, want)
		}
	}
}

// A skills/list page holds at most listPageSkills entries and stops before
// listPageBytes of entries, but always holds one entry, however large.
func TestListPageBudget(t *testing.T) {
	s := New(os.DirFS(t.TempDir()))
	c := &catalog{byPath: map[string]*servedSkill{}, byURI: map[string]*servedSkill{}}
	for i, size := range []int{600 << 10, 500 << 10, 2 << 20, 10, 10} {
		uri := fmt.Sprintf("skill://s%d/SKILL.md", i)
		c.skills = append(c.skills, &servedSkill{path: fmt.Sprintf("s%d", i), uri: uri, entry: skillsext.Skill{URI: uri}, entrySize: size})
	}
	for i := range 150 {
		uri := fmt.Sprintf("skill://t%03d/SKILL.md", i)
		c.skills = append(c.skills, &servedSkill{uri: uri, entry: skillsext.Skill{URI: uri}, entrySize: 100})
	}
	s.cat.Store(c)
	s.watching.Store(true) // answer from c
	var pages []string
	cursor := ""
	for {
		res, err := s.listSkills(t.Context(), nil, &skillsext.ListParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, fmt.Sprintf("%s..%s (%d)", res.Skills[0].URI, res.Skills[len(res.Skills)-1].URI, len(res.Skills)))
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	want := []string{
		"skill://s0/SKILL.md..skill://s0/SKILL.md (1)", // 600 KiB + 500 KiB would pass 1 MiB
		"skill://s1/SKILL.md..skill://s1/SKILL.md (1)", // and 500 KiB + 2 MiB
		"skill://s2/SKILL.md..skill://s2/SKILL.md (1)", // alone over the budget, but whole
		"skill://s3/SKILL.md..skill://t097/SKILL.md (100)",
		"skill://t098/SKILL.md..skill://t149/SKILL.md (52)",
	}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
}

// flappingFS serves a file whose content changes at every open. It has
// only Open, so that every access (fs.Sub included) goes through it.
type flappingFS struct {
	mu    sync.Mutex
	files fstest.MapFS
	opens int
}

func (f *flappingFS) Open(name string) (fs.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if name == "tools/flap.txt" {
		f.opens++
		f.files[name] = &fstest.MapFile{Data: []byte(fmt.Sprintf("version %d\n", f.opens))}
	}
	return f.files.Open(name)
}

// A file that changes again while the server rescans after a mismatch is
// not served: the read fails with -32603 and says so, instead of returning
// bytes that the listing does not hold.
func TestAFileThatKeepsChangingIsNotServed(t *testing.T) {
	fsys := &flappingFS{files: fstest.MapFS{
		"tools/SKILL.md": {Data: []byte(skillFile("tools", "Tools."))},
		"tools/ok.txt":   {Data: []byte("ok\n")},
		"tools/flap.txt": {Data: []byte("version 0\n")},
	}}
	s := New(fsys)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://tools/ok.txt"}); err != nil {
		t.Errorf("a stable file: %v", err)
	}
	_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://tools/flap.txt"})
	var jerr *jsonrpc.Error
	if !errors.As(err, &jerr) || jerr.Code != jsonrpc.CodeInternalError || jerr.Message != "skill://tools/flap.txt changed while it was read; read it again" {
		t.Errorf("a file that keeps changing: %v", err)
	}
}
