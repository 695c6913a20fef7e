//go:build unix

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tsSkillsResult is what skills.mjs prints.
type tsSkillsResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Extension       map[string]any `json:"extension"`
	Resources       bool           `json:"resources"`
	Supported       bool           `json:"supported"`
	DirectoryRead   bool           `json:"directoryRead"`
	Skills          []struct {
		URI         string         `json:"uri"`
		Frontmatter map[string]any `json:"frontmatter"`
		Resources   []tsResource   `json:"resources"`
	} `json:"skills"`
	ListCache struct {
		TTLMs      *int64 `json:"ttlMs"`
		CacheScope string `json:"cacheScope"`
	} `json:"listCache"`
	Pages     int       `json:"pages"`
	PagedSame bool      `json:"pagedSame"`
	GetSame   bool      `json:"getSame"`
	Unknown   tsFailure `json:"unknown"`
	BadCursor tsFailure `json:"badCursor"`
	Reads     []struct {
		Skill              string `json:"skill"`
		URI                string `json:"uri"`
		Size               int64  `json:"size"`
		Digest             string `json:"digest"`
		Matches            bool   `json:"matches"`
		Verified           bool   `json:"verified"`
		FrontmatterChecked bool   `json:"frontmatterChecked"`
	} `json:"reads"`
	Directories     map[string][]tsDirChild `json:"directories"`
	FileAsDirectory tsFailure               `json:"fileAsDirectory"`
}

type tsResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

type tsFailure struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type tsDirChild struct {
	URI      string  `json:"uri"`
	Name     string  `json:"name"`
	MIMEType *string `json:"mimeType"`
}

// generatedSkills is how many skills skillsFixture adds, so that the
// listing takes three pages of 100.
const generatedSkills = 230

// skillsFixture copies the shipped remote skills and adds a skill nested in
// another skill's directory, files whose names need percent-encoding, a
// binary file, and generated skills. It returns the directory and the
// served skills' paths.
func skillsFixture(t *testing.T) (string, []string) {
	t.Helper()
	dir := copySkills(t)
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data-export/formats/parquet-export/SKILL.md", "---\nname: parquet-export\ndescription: Export a table to Parquet instead of CSV.\nmetadata:\n  format: parquet\n---\nUse `convert.py`.\n")
	write("data-export/formats/parquet-export/convert.py", "print('parquet')\n")
	write("data-export/references/Q&A notes.md", "# Questions & answers\n")
	write("data-export/assets/logo.bin", "\x89PNG\r\n\x1a\n\x00\xff\xfe")
	paths := []string{"acme/billing/refunds", "data-export", "data-export/formats/parquet-export", "incident-review"}
	for i := range generatedSkills {
		name := fmt.Sprintf("generated-%03d", i)
		write(name+"/SKILL.md", fmt.Sprintf("---\nname: %s\ndescription: Generated skill number %d.\n---\nBody %d.\n", name, i, i))
		paths = append(paths, name)
	}
	return dir, paths
}

// diskManifest is the manifest a served skill must have: every regular,
// non-hidden file below its directory, with the digest and size of the
// bytes on disk.
func diskManifest(t *testing.T, root, skillPath string) []tsResource {
	t.Helper()
	var out []tsResource
	base := filepath.Join(root, filepath.FromSlash(skillPath))
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		sum := sha256.Sum256(data)
		out = append(out, tsResource{URI: "skill://" + skillPath + "/" + encodePath(filepath.ToSlash(rel)), Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

// encodePath percent-encodes every byte of each segment of rel but the URI
// unreserved characters, in upper-case hex, as serve-mcp spells URIs.
func encodePath(rel string) string {
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		var b strings.Builder
		for _, c := range []byte(seg) {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		segs[i] = b.String()
	}
	return strings.Join(segs, "/")
}

// The official TypeScript SDK's MCP Skills extension client, speaking base
// revision 2025-11-25 and 2026-07-28, over stdio and over HTTP with a
// bearer token, sees the extension, lists every skill over three pages,
// gets each, is refused an unknown skill and a bad cursor with -32602,
// reads every file of every entry (the SDK verifies each, and the script
// hashes the bytes; here they are compared with the files on disk) and
// reads every directory, nested skills included.
func TestTypeScriptSkillsClient(t *testing.T) {
	node, script := nodeScript(t, "client", "skills.mjs")
	bin := buildCommand(t)
	for _, transport := range []string{"stdio", "http"} {
		for _, revision := range []string{"legacy", "modern"} {
			t.Run(transport+"/"+revision, func(t *testing.T) {
				t.Parallel()
				skills, paths := skillsFixture(t)
				var cmd *exec.Cmd
				if transport == "stdio" {
					cmd = exec.Command(node, script, "stdio", revision, bin, "serve-mcp", "-skills", skills)
				} else {
					const token = "skills-token-77c1"
					cmd = exec.Command(node, script, "http", revision, serveHTTP(t, bin, skills, token), token)
				}
				out, err := cmd.Output()
				if err != nil {
					var stderr string
					if ee, ok := err.(*exec.ExitError); ok {
						stderr = string(ee.Stderr)
					}
					t.Fatalf("skills.mjs: %v\n%s", err, stderr)
				}
				var got tsSkillsResult
				if err := json.Unmarshal(out, &got); err != nil {
					t.Fatalf("skills.mjs printed %d bytes, %.2000q: %v", len(out), out, err)
				}
				wantRevision := map[string]string{"legacy": "2025-11-25", "modern": "2026-07-28"}[revision]
				checkTSSkills(t, got, skills, paths, wantRevision)
			})
		}
	}
}

func checkTSSkills(t *testing.T, got tsSkillsResult, root string, paths []string, revision string) {
	t.Helper()
	if got.ProtocolVersion != revision {
		t.Errorf("negotiated %q, want %q", got.ProtocolVersion, revision)
	}
	if diff := cmp.Diff(map[string]any{"directoryRead": true}, got.Extension); diff != "" || !got.Resources || !got.Supported || !got.DirectoryRead {
		t.Errorf("capabilities: extension %v (resources %v, supported %v, directoryRead %v)", got.Extension, got.Resources, got.Supported, got.DirectoryRead)
	}
	if got.Pages != 3 || !got.PagedSame || !got.GetSame {
		t.Errorf("%d pages (want 3), page by page the same: %v, skills/get the same: %v", got.Pages, got.PagedSame, got.GetSame)
	}
	if got.ListCache.TTLMs == nil || *got.ListCache.TTLMs != 0 || got.ListCache.CacheScope != "private" {
		t.Errorf("listing cache fields = %+v", got.ListCache)
	}
	wantUnknown := tsFailure{-32602, "No skill is served at skill://acme/billing/chargebacks/SKILL.md"}
	if got.Unknown != wantUnknown {
		t.Errorf("unknown skill: %+v, want %+v", got.Unknown, wantUnknown)
	}
	if got.BadCursor.Code != -32602 || got.FileAsDirectory.Code != -32602 {
		t.Errorf("bad cursor %+v, a file read as a directory %+v; want -32602", got.BadCursor, got.FileAsDirectory)
	}

	var uris []string
	reads := map[string]bool{}
	for _, r := range got.Reads {
		reads[r.Skill+" "+r.URI] = r.Matches && r.Verified
	}
	for _, s := range got.Skills {
		uris = append(uris, s.URI)
		p := strings.TrimSuffix(strings.TrimPrefix(s.URI, "skill://"), "/SKILL.md")
		want := diskManifest(t, root, p)
		if diff := cmp.Diff(want, s.Resources); diff != "" {
			t.Errorf("%s: manifest (-disk +entry):\n%s", s.URI, diff)
		}
		for _, r := range want {
			if !reads[s.URI+" "+r.URI] {
				t.Errorf("%s: %s was not read, or did not match the entry", s.URI, r.URI)
			}
		}
	}
	var wantURIs []string
	for _, p := range paths {
		wantURIs = append(wantURIs, "skill://"+p+"/SKILL.md")
	}
	slices.Sort(wantURIs)
	if diff := cmp.Diff(wantURIs, uris); diff != "" {
		t.Errorf("listed skills (-want +got):\n%s", diff)
	}
	for _, r := range got.Reads {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(decodePath(r.URI), "skill://"))))
		sum := sha256.Sum256(data)
		if err != nil || r.Digest != "sha256:"+hex.EncodeToString(sum[:]) || r.Size != int64(len(data)) {
			t.Errorf("read %s: %d bytes %s; the file on disk: %d bytes %x (%v)", r.URI, r.Size, r.Digest, len(data), sum, err)
		}
		if strings.HasSuffix(r.URI, "/SKILL.md") && r.URI == r.Skill && !r.FrontmatterChecked {
			t.Errorf("read %s: the SDK did not check its frontmatter", r.URI)
		}
	}
	if len(got.Reads) < generatedSkills+8 {
		t.Errorf("only %d files read", len(got.Reads))
	}

	refunds := got.Skills[slices.Index(uris, "skill://acme/billing/refunds/SKILL.md")]
	wantFM := map[string]any{"name": "refunds", "description": "Handle a customer refund request under the billing policy, from the eligibility check to the confirmation email.",
		"license": "Apache-2.0", "metadata": map[string]any{"owner": "billing-team", "version": "2.1"}}
	if diff := cmp.Diff(wantFM, refunds.Frontmatter); diff != "" {
		t.Errorf("refunds frontmatter (-want +got):\n%s", diff)
	}

	dir := func(uri string) []string {
		var out []string
		for _, c := range got.Directories[uri] {
			mime := ""
			if c.MIMEType != nil {
				mime = " " + *c.MIMEType
			}
			out = append(out, c.Name+mime)
		}
		return out
	}
	for uri, want := range map[string][]string{
		"skill://acme/billing/refunds":               {"SKILL.md text/markdown", "templates inode/directory"},
		"skill://acme/billing/refunds/templates":     {"confirmation.md text/markdown"},
		"skill://data-export":                        {"SKILL.md text/markdown", "assets inode/directory", "formats inode/directory", "references inode/directory", "scripts inode/directory"},
		"skill://data-export/formats":                {"parquet-export inode/directory"},
		"skill://data-export/formats/parquet-export": {"SKILL.md text/markdown", "convert.py text/x-python"},
		"skill://data-export/references":             {"Q&A notes.md text/markdown"},
		"skill://data-export/assets":                 {"logo.bin"},
	} {
		if diff := cmp.Diff(want, dir(uri)); diff != "" {
			t.Errorf("directory %s (-want +got):\n%s", uri, diff)
		}
	}
	if c := got.Directories["skill://data-export/references"]; len(c) != 1 || c[0].URI != "skill://data-export/references/Q%26A%20notes.md" {
		t.Errorf("directory references = %+v", c)
	}
}

// decodePath undoes encodePath.
func decodePath(uri string) string {
	var b strings.Builder
	for i := 0; i < len(uri); i++ {
		if uri[i] == '%' && i+2 < len(uri) {
			var c byte
			fmt.Sscanf(uri[i+1:i+3], "%02X", &c)
			b.WriteByte(c)
			i += 2
			continue
		}
		b.WriteByte(uri[i])
	}
	return b.String()
}
