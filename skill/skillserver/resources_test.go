//go:build unix

package skillserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// writeFile writes root/rel, making its directories.
func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connect serves s to an in-memory MCP client.
func connect(t *testing.T, s *skillserver.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// skillTree lays out a skills directory with a skill that has resources,
// a skill left off the index, and files outside every skill.
func skillTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "data-export/SKILL.md", "---\nname: data-export\ndescription: Export\n  a table.\n---\nRun scripts/export.py.\n")
	writeFile(t, root, "data-export/scripts/export.py", "print('export')\n")
	writeFile(t, root, "data-export/references/api.md", "# API\n")
	writeFile(t, root, "data-export/assets/logo.bin", "\x89PNG\x00\xff")
	writeFile(t, root, "data-export/.env", "SECRET=1\n")
	writeFile(t, root, "data-export/.git/config", "[core]\n")
	writeFile(t, root, "hidden-skill/SKILL.md", "---\nname: hidden-skill\ndescription: Users only.\ndisable-model-invocation: true\n---\nBody.\n")
	writeFile(t, root, "hidden-skill/notes.txt", "not served\n")
	writeFile(t, root, "secret.txt", "outside every skill\n")
	return root
}

func TestListsTheIndexAndEverySkillFile(t *testing.T) {
	cs := connect(t, skillserver.NewDir(skillTree(t)), nil)
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Resources {
		got = append(got, r.URI+" "+r.MIMEType+" "+r.Description)
	}
	want := []string{
		"skill://data-export/SKILL.md text/markdown Export a table.",
		"skill://index.json application/json Every skill this server publishes at skill://<name>/SKILL.md: name, type, description and the URI of its SKILL.md.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

func TestServesFilesBelowASkill(t *testing.T) {
	cs := connect(t, skillserver.NewDir(skillTree(t)), nil)
	for _, tc := range []struct {
		uri, mime, text string
		blob            []byte
	}{
		{uri: "skill://data-export/scripts/export.py", mime: "text/x-python", text: "print('export')\n"},
		{uri: "skill://data-export/references/api.md", mime: "text/markdown", text: "# API\n"},
		{uri: "skill://data-export/assets/logo.bin", mime: "application/octet-stream", blob: []byte("\x89PNG\x00\xff")},
		{uri: "skill://data-export/SKILL.md", mime: "text/markdown", text: "---\nname: data-export\ndescription: Export\n  a table.\n---\nRun scripts/export.py.\n"},
	} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tc.uri})
		if err != nil {
			t.Errorf("read %s: %v", tc.uri, err)
			continue
		}
		if len(res.Contents) != 1 {
			t.Fatalf("read %s: %d contents", tc.uri, len(res.Contents))
		}
		c := res.Contents[0]
		if c.URI != tc.uri || c.MIMEType != tc.mime || c.Text != tc.text || string(c.Blob) != string(tc.blob) {
			t.Errorf("read %s = %s %q %q %q, want %s %q %q", tc.uri, c.URI, c.MIMEType, c.Text, c.Blob, tc.mime, tc.text, tc.blob)
		}
	}
}

// Every path that is not a canonical path to a regular file inside a
// served skill's directory is "not found", and nothing outside is read.
func TestRefusesPathsOutsideTheSkill(t *testing.T) {
	root := skillTree(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "data-export")
	for link, target := range map[string]string{
		"out-abs":         outside,
		"out-rel":         "../secret.txt",
		"out-dir":         filepath.Dir(outside),
		"scripts/up":      "../../secret.txt",
		"loop":            "loop",
		"to-other-skill":  "../hidden-skill/notes.txt",
		"in-skill":        "references/api.md", // stays inside: served
		"scripts/sibling": "../references/api.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(skillserver.MaxResourceBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()

	cs := connect(t, skillserver.NewDir(root), nil)
	read := func(uri string) (string, error) {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}
	for _, uri := range []string{"skill://data-export/in-skill", "skill://data-export/scripts/sibling"} {
		if text, err := read(uri); err != nil || text != "# API\n" {
			t.Errorf("read %s = %q, %v; want the linked file inside the skill", uri, text, err)
		}
	}
	hostile := []string{
		"skill://data-export/../secret.txt",
		"skill://data-export/scripts/../../secret.txt",
		"skill://data-export/%2E%2E/secret.txt",
		"skill://data-export/%2e%2e/secret.txt",
		"skill://data-export/..%2Fsecret.txt",
		"skill://data-export/..%2fsecret.txt",
		"skill://data-export/.%2E/secret.txt",
		"skill://data-export/scripts%2F..%2F..%2Fsecret.txt",
		"skill://data-export/..\\secret.txt",
		"skill://data-export/scripts\\..\\..\\secret.txt",
		"skill://data-export/%5C..%5Csecret.txt",
		"skill://data-export//etc/passwd",
		"skill://data-export/%2Fetc%2Fpasswd",
		"skill://data-export/" + outside,
		"skill://data-export/scripts/export.py%00.md",
		"skill://data-export/scripts/export.py\x00",
		"skill://data-export/./scripts/export.py",
		"skill://data-export/scripts//export.py",
		"skill://data-export/scripts/export.py/",
		"skill://data-export/scripts/export.py?x=1",
		"skill://data-export/scripts/export.py#frag",
		"skill://data-export/out-abs",
		"skill://data-export/out-rel",
		"skill://data-export/out-dir/outside.txt",
		"skill://data-export/scripts/up",
		"skill://data-export/loop",
		"skill://data-export/to-other-skill",
		"skill://data-export/.env",
		"skill://data-export/.git/config",
		"skill://data-export/%2Eenv",
		"skill://data-export/fifo",
		"skill://data-export/big.txt",
		"skill://data-export/scripts",
		"skill://data-export/" + strings.Repeat("a/", 600) + "x",
		"skill://data-export/" + strings.Repeat("x", 5000),
		"skill://hidden-skill/notes.txt",
		"skill://hidden-skill/SKILL.md",
		"skill://Data-Export/scripts/export.py",
		"SKILL://data-export/scripts/export.py",
		"skill://data-export:80/scripts/export.py",
		"skill://user@data-export/scripts/export.py",
		"skill://../secret.txt",
		"skill://secret.txt",
		"skill://data-export/missing.txt",
	}
	if len(hostile) < 30 {
		t.Fatalf("only %d hostile paths", len(hostile))
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, uri := range hostile {
			if text, err := read(uri); err == nil {
				t.Errorf("read %q = %q, want not found", uri, text)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // a FIFO open that blocked
		t.Fatal("a hostile read hung")
	}
}

// Watch announces a file added below a skill (or a new skill) to
// connected clients as a resource list change, and the new skill is then
// listed.
func TestWatchAnnouncesChanges(t *testing.T) {
	root := skillTree(t)
	s := skillserver.NewDir(root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := s.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 16)
	cs := connect(t, s, &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
		changed <- struct{}{}
	}})
	wait := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(30 * time.Second):
			t.Fatalf("no list_changed notification after %s", what)
		}
	}
	writeFile(t, root, "data-export/scripts/new.py", "print('new')\n")
	wait("a file was added below a skill")
	writeFile(t, root, "incident-review/SKILL.md", "---\nname: incident-review\ndescription: Review an incident.\n---\nBody.\n")
	for {
		wait("a skill was added")
		res, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		listed := false
		for _, r := range res.Resources {
			listed = listed || r.URI == "skill://incident-review/SKILL.md"
		}
		if listed {
			break
		}
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://data-export/scripts/new.py"}); err != nil {
		t.Errorf("the added file is not served: %v", err)
	}
}

func TestRequireBearerToken(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := httptest.NewServer(skillserver.RequireBearerToken(ok, "s3cret"))
	defer srv.Close()
	for header, want := range map[string]int{
		"":                   http.StatusUnauthorized,
		"Bearer wrong":       http.StatusUnauthorized,
		"Bearer s3cret":      http.StatusNoContent,
		"bearer s3cret":      http.StatusNoContent,
		"Basic s3cret":       http.StatusUnauthorized,
		"Bearer s3cretX":     http.StatusUnauthorized,
		"Bearer":             http.StatusUnauthorized,
		"Bearers3cret":       http.StatusUnauthorized,
		"Bearer  s3cret":     http.StatusNoContent,
		"Bearer s3cre":       http.StatusUnauthorized,
		"Token s3cret":       http.StatusUnauthorized,
		"Bearer s3cret more": http.StatusUnauthorized,
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, nil)
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Authorization %q: status %d, want %d", header, resp.StatusCode, want)
		}
		if want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %q: no Bearer challenge", header)
		}
	}
	if h := skillserver.RequireBearerToken(ok, ""); h != nil {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/", nil)
		req.Header.Set("Authorization", "Bearer ")
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("an empty token admitted a request: %d", rec.Code)
		}
	}
}
