//go:build unix

package skillserver_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// Base protocol revisions a client may open with.
const (
	rev2025 = "2025-11-25"
	rev2026 = "2026-07-28"
)

// extClient returns a client that can call the extension's methods.
func extClient(t testing.TB, opts *mcp.ClientOptions) *mcp.Client {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*skillsext.ListParams, *skillsext.ListResult](c, skillsext.MethodList),
		mcp.AddSendingCustomMethod[*skillsext.GetParams, *skillsext.GetResult](c, skillsext.MethodGet),
		mcp.AddSendingCustomMethod[*skillsext.DirectoryReadParams, *skillsext.DirectoryReadResult](c, skillsext.MethodDirectoryRead),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// connectRev serves s to a client that opens with revision rev, in memory
// or ("http") over streamable HTTP.
func connectRev(t testing.TB, s *skillserver.Server, transport, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	var ct mcp.Transport
	switch transport {
	case "memory":
		mct, st := mcp.NewInMemoryTransports()
		ss, err := s.MCPServer().Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		ct = mct
	case "http":
		handler, err := s.HTTPHandler(nil)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(handler)
		t.Cleanup(srv.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: srv.URL}
	}
	cs, err := extClient(t, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatalf("connect (%s, %s): %v", transport, rev, err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != rev {
		t.Fatalf("negotiated %s, want %s", got, rev)
	}
	return cs
}

func listAll(t testing.TB, cs *mcp.ClientSession) ([]skillsext.Skill, int) {
	t.Helper()
	var all []skillsext.Skill
	cursor, pages := "", 0
	for {
		res, err := mcp.CallCustomMethod[*skillsext.ListParams, *skillsext.ListResult](context.Background(), cs, skillsext.MethodList, &skillsext.ListParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("skills/list page %d: %v", pages+1, err)
		}
		if res.ResultType != "complete" || res.TTLMs != 0 || res.CacheScope != "private" {
			t.Errorf("page %d: resultType %q, ttlMs %d, cacheScope %q", pages+1, res.ResultType, res.TTLMs, res.CacheScope)
		}
		all = append(all, res.Skills...)
		pages++
		if res.NextCursor == "" {
			return all, pages
		}
		cursor = res.NextCursor
	}
}

func getSkill(cs *mcp.ClientSession, uri string) (*skillsext.GetResult, error) {
	return mcp.CallCustomMethod[*skillsext.GetParams, *skillsext.GetResult](context.Background(), cs, skillsext.MethodGet, &skillsext.GetParams{URI: uri})
}

func readDir(cs *mcp.ClientSession, uri, cursor string) (*skillsext.DirectoryReadResult, error) {
	return mcp.CallCustomMethod[*skillsext.DirectoryReadParams, *skillsext.DirectoryReadResult](context.Background(), cs, skillsext.MethodDirectoryRead, &skillsext.DirectoryReadParams{URI: uri, Cursor: cursor})
}

// wantInvalidParams fails unless err is the JSON-RPC error -32602 with
// exactly the message want ("" for any).
func wantInvalidParams(t *testing.T, what string, err error, want string) {
	t.Helper()
	var jerr *jsonrpc.Error
	switch {
	case !errors.As(err, &jerr):
		t.Errorf("%s: %v, want a JSON-RPC error", what, err)
	case jerr.Code != jsonrpc.CodeInvalidParams:
		t.Errorf("%s: code %d (%s), want -32602", what, jerr.Code, jerr.Message)
	case want != "" && jerr.Message != want:
		t.Errorf("%s: message %q, want %q", what, jerr.Message, want)
	}
}

// resources decodes an entry's manifest.
func resources(t testing.TB, sk skillsext.Skill) []skillsext.SkillResource {
	t.Helper()
	var out []skillsext.SkillResource
	if err := json.Unmarshal(sk.Resources, &out); err != nil {
		t.Fatalf("%s: resources %s: %v", sk.URI, sk.Resources, err)
	}
	return out
}

// onDisk is the manifest of the skill directory dir below root as the
// files on disk make it: every non-hidden regular file, with its digest.
func onDisk(t testing.TB, root, dir string) []skillsext.SkillResource {
	t.Helper()
	var out []skillsext.SkillResource
	base := filepath.Join(root, dir)
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		sum := sha256.Sum256(data)
		out = append(out, skillsext.SkillResource{URI: "skill://" + dir + "/" + filepath.ToSlash(rel), Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

// nestedTree lays out skills in nested folders and a skill inside another.
func nestedTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "acme/billing/refunds/SKILL.md", "---\nname: refunds\ndescription: Refunds.\nlicense: Apache-2.0\nallowed-tools: Read Grep\nversion: 2\nratio: 0.5\nbeta: true\nowner: ~\ntags: [billing, \"money\"]\nmetadata:\n  team: billing\n  tier: \"1\"\nx-extra:\n  nested: {a: [1, two]}\n---\nSee examples/email.md.\n")
	writeFile(t, root, "acme/billing/refunds/examples/email.md", "Dear customer,\n")
	writeFile(t, root, "acme/billing/refunds/.drafts/secret.md", "hidden\n")
	writeFile(t, root, "acme/support/refunds/SKILL.md", "---\nname: refunds\ndescription: Support refunds.\n---\nBody.\n")
	writeFile(t, root, "data-export/SKILL.md", "---\nname: data-export\ndescription: Export.\n---\nBody.\n")
	writeFile(t, root, "data-export/scripts/export.py", "print('export')\n")
	writeFile(t, root, "data-export/formats/parquet/SKILL.md", "---\nname: parquet\ndescription: Parquet.\n---\nBody.\n")
	writeFile(t, root, "data-export/formats/parquet/convert.py", "print('parquet')\n")
	writeFile(t, root, "Bad Folder/thing/SKILL.md", "---\nname: thing\ndescription: Thing.\n---\nBody.\n")
	writeFile(t, root, "notes/readme.txt", "not a skill\n")
	return root
}

// Skills in nested folders are listed by their multi-segment paths, a skill
// inside another is listed on its own and its files are in the enclosing
// skill's manifest, each entry carries the frontmatter as written and a
// complete manifest of the files on disk, and a skill whose path a host
// cannot qualify is not served, with a diagnostic.
func TestListsNestedSkillsWithCompleteEntries(t *testing.T) {
	root := nestedTree(t)
	s := skillserver.NewDir(root)
	cs := connectRev(t, s, "memory", rev2026, nil)
	entries, pages := listAll(t, cs)
	var uris []string
	for _, e := range entries {
		uris = append(uris, e.URI)
		dir := strings.TrimSuffix(strings.TrimPrefix(e.URI, "skill://"), "/SKILL.md")
		if diff := cmp.Diff(onDisk(t, root, dir), resources(t, e)); diff != "" {
			t.Errorf("%s: manifest (-disk +entry):\n%s", e.URI, diff)
		}
	}
	want := []string{"skill://acme/billing/refunds/SKILL.md", "skill://acme/support/refunds/SKILL.md", "skill://data-export/SKILL.md", "skill://data-export/formats/parquet/SKILL.md"}
	if diff := cmp.Diff(want, uris); diff != "" || pages != 1 {
		t.Errorf("listed (%d pages) (-want +got):\n%s", pages, diff)
	}
	var fm map[string]any
	if err := json.Unmarshal(entries[0].Frontmatter, &fm); err != nil {
		t.Fatal(err)
	}
	wantFM := map[string]any{"name": "refunds", "description": "Refunds.", "license": "Apache-2.0", "allowed-tools": "Read Grep", "version": 2.0, "ratio": 0.5,
		"beta": true, "owner": nil, "tags": []any{"billing", "money"}, "metadata": map[string]any{"team": "billing", "tier": "1"},
		"x-extra": map[string]any{"nested": map[string]any{"a": []any{1.0, "two"}}}}
	if diff := cmp.Diff(wantFM, fm); diff != "" {
		t.Errorf("frontmatter (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(string(entries[0].Frontmatter), `{"name":"refunds","description":"Refunds.","license":"Apache-2.0","allowed-tools"`) {
		t.Errorf("frontmatter does not keep the authored order: %s", entries[0].Frontmatter)
	}
	wantDiag := `skill Bad Folder/thing is not served: the folder name "Bad Folder" cannot be a path segment`
	if d := s.Diagnostics(); len(d) != 1 || !strings.HasPrefix(d[0], wantDiag) {
		t.Errorf("diagnostics = %q, want one starting %q", d, wantDiag)
	}
	// The older convention's index knows only single-segment skills.
	if got := indexNames(t, s); !slices.Equal(got, []string{"data-export: Export."}) {
		t.Errorf("index = %q", got)
	}
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, r := range res.Resources {
		listed = append(listed, r.URI)
	}
	if diff := cmp.Diff(append(want, "skill://index.json"), listed); diff != "" {
		t.Errorf("resources/list (-want +got):\n%s", diff)
	}
}

func indexNames(t *testing.T, s *skillserver.Server) []string {
	t.Helper()
	data, err := s.Index()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Skills []struct{ Name, Description string } `json:"skills"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range doc.Skills {
		out = append(out, e.Name+": "+e.Description)
	}
	return out
}

// skills/get answers for every served skill with its listed entry, and
// with -32602 naming the URI for anything else.
func TestGetSkill(t *testing.T) {
	cs := connectRev(t, skillserver.NewDir(nestedTree(t)), "memory", rev2025, nil)
	entries, _ := listAll(t, cs)
	for _, e := range entries {
		got, err := getSkill(cs, e.URI)
		if err != nil {
			t.Errorf("skills/get %s: %v", e.URI, err)
			continue
		}
		if got.ResultType != "complete" || got.CacheScope != "private" || got.TTLMs != 0 {
			t.Errorf("skills/get %s: resultType %q, cacheScope %q, ttlMs %d", e.URI, got.ResultType, got.CacheScope, got.TTLMs)
		}
		if diff := cmp.Diff(e, got.Skill); diff != "" {
			t.Errorf("skills/get %s (-listed +got):\n%s", e.URI, diff)
		}
	}
	for _, uri := range []string{
		"skill://acme/billing/chargebacks/SKILL.md", "skill://acme/billing/refunds", "skill://acme/billing/refunds/examples/email.md",
		"skill://Bad%20Folder/thing/SKILL.md", "skill://data-export/./SKILL.md", "skill://data%2Dexport/SKILL.md", "https://data-export/SKILL.md",
	} {
		_, err := getSkill(cs, uri)
		wantInvalidParams(t, "skills/get "+uri, err, "No skill is served at "+uri)
	}
	_, err := getSkill(cs, "")
	wantInvalidParams(t, "skills/get without a uri", err, "")
}

// resources/directory/read lists a skill's root and every directory below
// it, nested skills included, as the files are now; anything else is
// -32602.
func TestReadDirectory(t *testing.T) {
	root := nestedTree(t)
	writeFile(t, root, "data-export/assets/logo.png", "\x89PNG")
	writeFile(t, root, "data-export/Q&A notes.md", "Q\n")
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "data-export", "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("scripts", filepath.Join(root, "data-export", "linked-dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "data-export", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	cs := connectRev(t, skillserver.NewDir(root), "memory", rev2026, nil)
	for uri, want := range map[string][]string{
		"skill://data-export": {
			"skill://data-export/Q%26A%20notes.md Q&A notes.md text/markdown 2", "skill://data-export/SKILL.md SKILL.md text/markdown 53",
			"skill://data-export/assets assets inode/directory 0", "skill://data-export/empty empty inode/directory 0",
			"skill://data-export/formats formats inode/directory 0", "skill://data-export/scripts scripts inode/directory 0",
		},
		"skill://data-export/scripts":                {"skill://data-export/scripts/export.py export.py text/x-python 16"},
		"skill://data-export/assets":                 {"skill://data-export/assets/logo.png logo.png  4"},
		"skill://data-export/empty":                  {},
		"skill://data-export/formats/parquet":        {"skill://data-export/formats/parquet/SKILL.md SKILL.md text/markdown 50", "skill://data-export/formats/parquet/convert.py convert.py text/x-python 17"},
		"skill://acme/billing/refunds":               {"skill://acme/billing/refunds/SKILL.md SKILL.md text/markdown 250", "skill://acme/billing/refunds/examples examples inode/directory 0"},
		"skill://acme/billing/refunds/examples":      {"skill://acme/billing/refunds/examples/email.md email.md text/markdown 15"},
		"skill://data-export/formats/parquet/../..":  nil,
		"skill://acme":                               nil,
		"skill://acme/billing":                       nil,
		"skill://data-export/SKILL.md":               nil,
		"skill://data-export/scripts/export.py":      nil,
		"skill://data-export/linked-dir":             nil,
		"skill://data-export/missing":                nil,
		"skill://acme/billing/refunds/.drafts":       nil,
		"skill://data-export/":                       nil,
		"skill://notes":                              nil,
		"skill://Bad%20Folder/thing":                 nil,
		"file:///etc":                                nil,
		"skill://acme/billing/refunds/examples/../x": nil,
	} {
		res, err := readDir(cs, uri, "")
		if want == nil {
			wantInvalidParams(t, "directory read "+uri, err, uri+" is not a directory resource")
			continue
		}
		if err != nil {
			t.Errorf("directory read %s: %v", uri, err)
			continue
		}
		got := []string{}
		for _, r := range res.Resources {
			got = append(got, fmt.Sprintf("%s %s %s %d", r.URI, r.Name, r.MIMEType, r.Size))
		}
		if diff := cmp.Diff(want, got); diff != "" || res.ResultType != "complete" || res.NextCursor != "" {
			t.Errorf("directory read %s (resultType %q, nextCursor %q) (-want +got):\n%s", uri, res.ResultType, res.NextCursor, diff)
		}
	}
}

// A directory of more children than a page is read in pages, and a cursor
// the server did not write is -32602.
func TestReadDirectoryPages(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "big/SKILL.md", "---\nname: big\ndescription: Big.\n---\n")
	for i := range 1100 { // directories hold no files, so the skill stays within the limits
		if err := os.Mkdir(filepath.Join(root, "big", fmt.Sprintf("d%04d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectRev(t, skillserver.NewDir(root), "memory", rev2026, nil)
	var names []string
	cursor, pages := "", 0
	for {
		res, err := readDir(cs, "skill://big", cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Resources {
			names = append(names, r.Name)
		}
		pages++
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if pages != 3 || len(names) != 1101 || !slices.IsSorted(names) || names[0] != "SKILL.md" || names[1100] != "d1099" {
		t.Errorf("%d pages, %d children (sorted %v)", pages, len(names), slices.IsSorted(names))
	}
	_, err := readDir(cs, "skill://big", "bogus")
	wantInvalidParams(t, "a bad cursor", err, "resources/directory/read: the cursor was not written by this server")
}

// skills/list pages hold at most 100 entries; the cursor resumes after the
// last entry, also when skills came and went between pages (and a scan saw
// it); a bad cursor is -32602.
func TestListPages(t *testing.T) {
	root := t.TempDir()
	for i := range 250 {
		name := fmt.Sprintf("skill-%03d", i)
		writeFile(t, root, name+"/SKILL.md", fmt.Sprintf("---\nname: %s\ndescription: Skill %d.\n---\n", name, i))
	}
	s := skillserver.NewDir(root)
	cs := connectRev(t, s, "http", rev2026, nil)
	entries, pages := listAll(t, cs)
	if len(entries) != 250 || pages != 3 {
		t.Fatalf("%d entries in %d pages, want 250 in 3", len(entries), pages)
	}
	first, err := mcp.CallCustomMethod[*skillsext.ListParams, *skillsext.ListResult](context.Background(), cs, skillsext.MethodList, &skillsext.ListParams{})
	if err != nil || len(first.Skills) != 100 {
		t.Fatalf("first page: %v", err)
	}
	// skill-100 (the next page's first) goes away and skill-099a (after the
	// cursor) comes: the next page starts right after skill-099.
	if err := os.RemoveAll(filepath.Join(root, "skill-100")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "skill-099a/SKILL.md", "---\nname: skill-099a\ndescription: Late.\n---\n")
	s.Sync() // later pages come from the newest scan
	next, err := mcp.CallCustomMethod[*skillsext.ListParams, *skillsext.ListResult](context.Background(), cs, skillsext.MethodList, &skillsext.ListParams{Cursor: first.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if next.Skills[0].URI != "skill://skill-099a/SKILL.md" || next.Skills[1].URI != "skill://skill-101/SKILL.md" {
		t.Errorf("the next page starts %s, %s", next.Skills[0].URI, next.Skills[1].URI)
	}
	for _, cursor := range []string{"bogus", first.NextCursor + "x", "c2tpbGxzOnNraWxsOi8vLi4vU0tJTEwubWQ"} {
		_, err := mcp.CallCustomMethod[*skillsext.ListParams, *skillsext.ListResult](context.Background(), cs, skillsext.MethodList, &skillsext.ListParams{Cursor: cursor})
		wantInvalidParams(t, "cursor "+cursor, err, "skills/list: the cursor was not written by this server")
	}
}

// A skill of more than 512 files or 16 MiB is not served, with a
// diagnostic saying which and why; one at the limits is.
func TestSkillLimits(t *testing.T) {
	root := t.TempDir()
	skillMD := func(name string) string { return "---\nname: " + name + "\ndescription: D.\n---\n" }
	for name, files := range map[string]int{"at-count": 511, "over-count": 512} {
		writeFile(t, root, name+"/SKILL.md", skillMD(name))
		for i := range files {
			writeFile(t, root, fmt.Sprintf("%s/f/%03d.txt", name, i), "x")
		}
	}
	sparse := func(rel string, size int64) {
		f, err := os.Create(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	for name, extra := range map[string]int64{"at-bytes": 0, "over-bytes": 1} {
		writeFile(t, root, name+"/SKILL.md", skillMD(name))
		sparse(name+"/a.bin", 8<<20)
		sparse(name+"/b.bin", 8<<20-int64(len(skillMD(name)))+extra)
	}
	s := skillserver.NewDir(root)
	cs := connectRev(t, s, "memory", rev2026, nil)
	entries, _ := listAll(t, cs)
	var served []string
	for _, e := range entries {
		served = append(served, fmt.Sprintf("%s %d", e.URI, len(resources(t, e))))
	}
	if diff := cmp.Diff([]string{"skill://at-bytes/SKILL.md 3", "skill://at-count/SKILL.md 512"}, served); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	want := []string{
		"skill over-bytes is not served: its files hold 16777217 bytes, more than the MCP Skills extension's limit of 16777216 (16 MiB) per skill",
		"skill over-count is not served: it has more than 512 files, the MCP Skills extension's limit per skill",
	}
	if diff := cmp.Diff(want, s.Diagnostics()); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// A skill whose frontmatter breaks an Agent Skills rule that hosts check is
// not served, with a diagnostic; a lenient reading is served with a warning.
func TestFrontmatterRules(t *testing.T) {
	root := t.TempDir()
	for name, fm := range map[string]string{
		"long-description": "description: " + strings.Repeat("x", 1025),
		"max-description":  "description: " + strings.Repeat("é", 1024),
		"number-metadata":  "description: D.\nmetadata:\n  version: 2",
		"empty-compat":     "description: D.\ncompatibility: \"\"",
		"null-metadata":    "description: D.\nmetadata:",
		"infinite":         "description: D.\nweight: .inf",
		"colon-value":      "description: Use when: asked",
		"user-only":        "description: D.\ndisable-model-invocation: true",
	} {
		writeFile(t, root, name+"/SKILL.md", "---\nname: "+name+"\n"+fm+"\n---\nBody.\n")
	}
	writeFile(t, root, "numeric-name/SKILL.md", "---\nname: 123\ndescription: D.\n---\n")
	s := skillserver.NewDir(root)
	if got := indexNames(t, s); len(got) != 2 || !strings.HasPrefix(got[0], "colon-value: Use when: asked") || !strings.HasPrefix(got[1], "max-description: ééé") {
		t.Errorf("index = %.80q", got)
	}
	want := []string{
		`skill colon-value: frontmatter is not valid YAML: the unquoted value of "description" is read as a plain string (quote it; clients that read YAML strictly cannot verify this SKILL.md)`,
		"skill empty-compat is not served: compatibility must be a string of 1 to 500 characters",
		"skill infinite is not served: SKILL.md has no usable frontmatter: frontmatter field weight holds .inf, which JSON cannot represent; quote it",
		"skill long-description is not served: the description is 1025 characters long; the Agent Skills limit is 1024, which the MCP Skills extension requires of a served skill",
		"skill null-metadata is not served: metadata must map keys to strings",
		`skill number-metadata is not served: metadata "version" is not a string; quote it`,
		`skill numeric-name is not served: the name in SKILL.md is not a string`,
		"skill user-only is not served: the skill is not model-invocable",
	}
	got := s.Diagnostics()
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// Files a skill cannot serve are left out of its manifest, each named in a
// diagnostic, and are not readable.
func TestUnservableFilesAreLeftOut(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "tools/SKILL.md", "---\nname: tools\ndescription: Tools.\n---\n")
	writeFile(t, root, "tools/ok.txt", "ok\n")
	writeFile(t, root, "tools/.env", "SECRET=1\n")
	writeFile(t, root, "tools/bad\\name.txt", "backslash\n")
	if err := os.Symlink("/etc/hostname", filepath.Join(root, "tools", "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ok.txt", filepath.Join(root, "tools", "in")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(root, "tools", "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(skillserver.MaxResourceBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := skillserver.NewDir(root)
	cs := connectRev(t, s, "memory", rev2025, nil)
	entries, _ := listAll(t, cs)
	var uris []string
	for _, r := range resources(t, entries[0]) {
		uris = append(uris, r.URI)
	}
	if diff := cmp.Diff([]string{"skill://tools/SKILL.md", "skill://tools/in", "skill://tools/ok.txt"}, uris); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	want := []string{`skill tools: 3 files are not served: "bad\\name.txt" (a name no URI can spell); big.bin of 8388609 bytes exceeds the limit of 8388608 bytes (skill.MaxSkillFileBytes, 8 MiB); out (a link that leads out of the skill directory or nowhere)`}
	if diff := cmp.Diff(want, s.Diagnostics()); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, uri := range []string{"skill://tools/out", "skill://tools/big.bin", "skill://tools/bad%5Cname.txt", "skill://tools/.env"} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		wantInvalidParams(t, "read "+uri, err, "")
	}
}

// readHash reads uri and returns the SHA-256 of the bytes served.
func readHash(t *testing.T, cs *mcp.ClientSession, uri string) (string, error) {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	c := res.Contents[0]
	data := c.Blob
	if c.Text != "" || data == nil {
		data = []byte(c.Text)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// listedDigest returns the digest the server lists now for file of the
// skill at skillURI.
func listedDigest(t *testing.T, cs *mcp.ClientSession, skillURI, file string) string {
	t.Helper()
	got, err := getSkill(cs, skillURI)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources(t, got.Skill) {
		if r.URI == file {
			return r.Digest
		}
	}
	return ""
}

// A file rewritten after the listing is served only once the listing
// agrees with it: the read rescans first, clients hear that the list
// changed, and the entry then lists the bytes served. A file added since
// is served once listed; one removed is not served and no longer listed.
// Both for a watched server (whose watcher has not caught up yet) and an
// unwatched one.
func TestReadsAgreeWithTheListedEntry(t *testing.T) {
	for _, watched := range []bool{false, true} {
		t.Run(fmt.Sprintf("watched=%v", watched), func(t *testing.T) {
			root := nestedTree(t)
			s := skillserver.NewDir(root)
			if watched {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if err := s.Watch(ctx); err != nil {
					t.Fatal(err)
				}
			}
			changed := make(chan struct{}, 100)
			cs := connectRev(t, s, "memory", rev2026, &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
				changed <- struct{}{}
			}})
			const skillURI = "skill://data-export/SKILL.md"
			file := "skill://data-export/scripts/export.py"
			before := listedDigest(t, cs, skillURI, file)
			for _, content := range []string{"print('EXPORT')\n", "print('a longer export')\n"} { // same size, then another
				writeFile(t, root, "data-export/scripts/export.py", content)
				sum := sha256.Sum256([]byte(content))
				want := "sha256:" + hex.EncodeToString(sum[:])
				got, err := readHash(t, cs, file)
				if err != nil || got != want {
					t.Fatalf("read after rewriting %q: %s, %v; want %s", content, got, err, want)
				}
				if listed := listedDigest(t, cs, skillURI, file); listed != got {
					t.Errorf("served %s while the entry lists %s", got, listed)
				}
				select {
				case <-changed:
				case <-time.After(30 * time.Second):
					t.Fatal("no list_changed notification after the entry changed")
				}
			}
			if before == listedDigest(t, cs, skillURI, file) {
				t.Error("the entry never changed")
			}
			// The enclosing skill lists the nested skill's files too, and
			// agrees with it.
			writeFile(t, root, "data-export/formats/parquet/convert.py", "print('v2')\n")
			got, err := readHash(t, cs, "skill://data-export/formats/parquet/convert.py")
			if err != nil {
				t.Fatal(err)
			}
			for _, sk := range []string{skillURI, "skill://data-export/formats/parquet/SKILL.md"} {
				rel := strings.TrimSuffix(sk, "SKILL.md")
				wantURI := "skill://data-export/formats/parquet/convert.py"
				if listed := listedDigest(t, cs, sk, wantURI); listed != got {
					t.Errorf("%s lists %s as %s, served %s (%s)", sk, wantURI, listed, got, rel)
				}
			}
			writeFile(t, root, "data-export/scripts/added.py", "print('added')\n")
			if _, err := readHash(t, cs, "skill://data-export/scripts/added.py"); err != nil {
				t.Errorf("a file added after the listing: %v", err)
			}
			if listedDigest(t, cs, skillURI, "skill://data-export/scripts/added.py") == "" {
				t.Error("the added file is served but not listed")
			}
			if err := os.Remove(filepath.Join(root, "data-export", "scripts", "added.py")); err != nil {
				t.Fatal(err)
			}
			_, err = readHash(t, cs, "skill://data-export/scripts/added.py")
			wantInvalidParams(t, "a removed file", err, "")
			if listedDigest(t, cs, skillURI, "skill://data-export/scripts/added.py") != "" {
				t.Error("a removed file is still listed")
			}
		})
	}
}

// Clients of base revisions 2025-11-25 and 2026-07-28 both see the
// extension and the resources capability and hear list changes, in memory
// and over HTTP (the latter through the stateless handler).
func TestBothProtocolRevisions(t *testing.T) {
	for _, transport := range []string{"memory", "http"} {
		for _, rev := range []string{rev2025, rev2026} {
			t.Run(transport+"/"+rev, func(t *testing.T) {
				root := nestedTree(t)
				s := skillserver.NewDir(root)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if err := s.Watch(ctx); err != nil {
					t.Fatal(err)
				}
				changed := make(chan struct{}, 100)
				cs := connectRev(t, s, transport, rev, &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
					changed <- struct{}{}
				}})
				caps := cs.InitializeResult().Capabilities
				ext, _ := json.Marshal(caps.Extensions[skillsext.ExtensionID])
				if string(ext) != `{"directoryRead":true}` || caps.Resources == nil || !caps.Resources.ListChanged {
					t.Errorf("capabilities: extension %s, resources %+v", ext, caps.Resources)
				}
				if entries, _ := listAll(t, cs); len(entries) != 4 {
					t.Errorf("%d skills listed, want 4", len(entries))
				}
				if _, err := readDir(cs, "skill://data-export", ""); err != nil {
					t.Errorf("directory read: %v", err)
				}
				writeFile(t, root, "incident-review/SKILL.md", "---\nname: incident-review\ndescription: Review.\n---\n")
				for {
					select {
					case <-changed:
					case <-time.After(30 * time.Second):
						t.Fatal("no list_changed notification after a skill was added")
					}
					if _, err := getSkill(cs, "skill://incident-review/SKILL.md"); err == nil {
						return
					}
				}
			})
		}
	}
}
