package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// searchSkillsDir writes a root of skills with overlapping descriptions.
func searchSkillsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, desc := range map[string]string{
		"pdf-forms":      "Fill PDF forms and extract their fields.",
		"pdf-merge":      "Merge PDF files into one document.",
		"invoice-pdf":    "Create invoices as PDF files from billable hours.",
		"release-notes":  "Write release notes from merged changes.",
		"deploy-preview": "Deploy a preview of the branch and post its link.",
		"code-review":    "Review a change for bugs and style.",
	} {
		body := fmt.Sprintf("# %s\n\nUse the scripts in this folder to %s\n", name, strings.ToLower(desc))
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSearchMatchesTheTool: the command's batch form ranks exactly as the
// skill_search tool of the plugin binary does for a host over the same
// skills.
func TestSearchMatchesTheTool(t *testing.T) {
	dir := searchSkillsDir(t)
	queries := []string{"fill a PDF form", "merge the PDF invoices", "deploy a preview link", "zebra"}
	var in bytes.Buffer
	for i, q := range queries {
		fmt.Fprintf(&in, `{"id": "q%d", "query": %q}`+"\n", i, q)
	}
	file := filepath.Join(t.TempDir(), "queries.jsonl")
	if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"search", "-skills", dir, "-home", dir, "-queries", file, "-k", "10"}, &stdout, &stderr); code != 0 {
		t.Fatalf("search exited %d: %s", code, stderr.String())
	}
	var got []batchResult
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r batchResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, r)
	}

	host := toolHost(t, dir)
	var want []batchResult
	for i, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q, "limit": 10})
		res, err := host.Session("s", &hostsdk.SessionOptions{Cwd: dir, AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill_search", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("tool: %v %s", err, res.Text)
		}
		r := batchResult{ID: fmt.Sprintf("q%d", i), Results: []batchResult1{}}
		for _, h := range res.Search.Hits {
			r.Results = append(r.Results, batchResult1{Name: h.Name, Score: h.Score})
		}
		want = append(want, r)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("search -queries differs from the tool (-tool +command):\n%s", diff)
	}
	if len(got[0].Results) == 0 || got[0].Results[0].Name != "pdf-forms" || len(got[3].Results) != 0 {
		t.Errorf("results %+v", got)
	}
}

// toolHost is a host over dir's skills with the plugin binary (this test
// binary) mounted with the search tool.
func toolHost(t *testing.T, dir string) *hostsdk.Host {
	t.Helper()
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{dir}, HomeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	reg.AddProvider(tools.GlobalScope, fsys, nil)
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: self}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, &hostsdk.MountOptions{SearchTool: true}); err != nil {
		t.Fatal(err)
	}
	return host
}

func TestSearchCommand(t *testing.T) {
	dir := searchSkillsDir(t)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"search", "-skills", dir, "-home", dir, "fill a PDF form"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "1. pdf-forms  score ") || !strings.Contains(stdout.String(), "\n   Fill PDF forms and extract their fields.\n") {
		t.Errorf("output:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"search", "-skills", dir, "-home", dir, "-json", "zebra"}, &stdout, &stderr); code != 0 || strings.TrimSpace(stdout.String()) != "{\n  \"query\": \"zebra\",\n  \"hits\": []\n}" {
		t.Errorf("exit %d, output %q", code, stdout.String())
	}
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"search", "-skills", dir}, 2, "give one QUERY, or -queries FILE"},
		{[]string{"search", "-skills", dir, "-k", "11", "x"}, 2, "-k must be from 1 to 10, got 11"},
		{[]string{"search", "-skills", dir, "-queries", "-", "x"}, 2, "give -queries FILE or a QUERY, not both"},
		{[]string{"search", "-skills", dir, "-home", dir, "how do I"}, 1, "Error: the query holds no word to search for"},
		{[]string{"search", "-skills", filepath.Join(dir, "absent"), "x"}, 1, "absent"},
	} {
		stdout.Reset()
		stderr.Reset()
		if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.err)
		}
	}
}

// TestSearchBatchSkipsBadLines: a line that is not a query object is
// reported and skipped; the rest are answered.
func TestSearchBatchSkipsBadLines(t *testing.T) {
	dir := searchSkillsDir(t)
	file := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(file, []byte("{\"id\": \"a\", \"query\": \"merge PDF files\"}\nnot json\n{\"id\": \"b\"}\n\n{\"id\": \"c\", \"query\": \"review\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"search", "-skills", dir, "-home", dir, "-queries", file}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), "\n"); n != 2 || !strings.Contains(stdout.String(), `{"id":"a","results":[{"name":"pdf-merge"`) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "q.jsonl:2: not a") || !strings.Contains(stderr.String(), "q.jsonl:3: not a") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

func TestExplainRequest(t *testing.T) {
	dir := searchSkillsDir(t)
	var stdout, stderr bytes.Buffer
	args := []string{"explain", "-skills", dir, "-home", dir, "-relevant-skills", "on", "-description-max-length", "20", "-request", "fill a PDF form", "-json"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var ex explanation
	if err := json.Unmarshal(stdout.Bytes(), &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Relevant == nil || len(ex.Relevant.Skills) == 0 || ex.Relevant.Skills[0] != "pdf-forms" || !strings.Contains(ex.Relevant.Message, "-`pdf-forms`: Fill PDF forms and extract their fields.\n") {
		t.Errorf("relevant %+v", ex.Relevant)
	}
	stdout.Reset()
	args = []string{"explain", "-skills", dir, "-home", dir, "-request", "fill a PDF form"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "The request adds no relevant-skills message: no skill matches it well enough, or every one that does is described in full in the catalog.") {
		t.Errorf("exit %d:\n%s", code, stdout.String())
	}
	file := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(file, []byte("{\"id\": \"r1\", \"query\": \"fill a PDF form\"}\n{\"id\": \"r2\", \"query\": \"bake a cake\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	args = []string{"explain", "-skills", dir, "-home", dir, "-relevant-skills", "on", "-description-max-length", "20", "-requests", file}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "{\"id\":\"r1\",\"relevant\":[\"pdf-forms\"]}\n{\"id\":\"r2\",\"relevant\":[]}\n"; stdout.String() != want {
		t.Errorf("-requests printed %q, want %q", stdout.String(), want)
	}
}
