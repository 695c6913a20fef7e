package hostsdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

func TestTouchedPathsOf(t *testing.T) {
	for _, tc := range []struct {
		args string
		want []string
	}{
		{`{"file_path":"/w/src/app.go","content":"x"}`, []string{"/w/src/app.go"}},
		{`{"path":"a.go"}`, []string{"a.go"}},
		{`{"filePath":"b.ts"}`, []string{"b.ts"}},
		{`{"filename":"c.md"}`, []string{"c.md"}},
		{`{"file":"d.sql"}`, []string{"d.sql"}},
		{`{"notebook_path":"n.ipynb"}`, []string{"n.ipynb"}},
		{`{"paths":["x.go","y.go"],"files":["z.go"]}`, []string{"x.go", "y.go", "z.go"}},
		{`{"path":"a.go","file_path":"b.go"}`, []string{"a.go", "b.go"}},
		{`{"command":"cat a.go","pattern":"*.go"}`, nil},
		{`{"path":42,"paths":[1,"q.go"],"file":""}`, nil},
		{`["a.go"]`, nil},
		{`not json`, nil},
	} {
		if got := hostsdk.TouchedPathsOf(json.RawMessage(tc.args)); !slices.Equal(got, tc.want) {
			t.Errorf("TouchedPathsOf(%s) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestTouchedPathsOfMessages(t *testing.T) {
	call, err := contract.ToolUseBlock("c1", "Edit", json.RawMessage(`{"file_path":"/w/db/1.sql","old_string":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	read, err := contract.ToolUseBlock("c2", "read_file", json.RawMessage(`{"path":"docs/a.md"}`))
	if err != nil {
		t.Fatal(err)
	}
	msgs := []hostsdk.Message{
		{ID: "u1", Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{{Type: "text", Text: `{"path":"not a call.go"}`}}},
		{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{call, read}},
	}
	if got, want := hostsdk.TouchedPathsOfMessages(msgs), []string{"/w/db/1.sql", "docs/a.md"}; !slices.Equal(got, want) {
		t.Errorf("TouchedPathsOfMessages = %q, want %q", got, want)
	}
}

// TestSessionTouch: files a runtime reports with Session.Touch, and the
// files its tool calls name, reach the plugin with the next step; a skill
// scoped by paths enters the catalog there, once.
func TestSessionTouch(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	for name, md := range map[string]string{
		"alpha":    "---\nname: alpha\ndescription: First skill.\n---\nDo alpha.\n",
		"go-style": "---\nname: go-style\ndescription: Go style rules.\npaths: \"*.go\"\n---\nUse gofmt.\n",
		"sql":      "---\nname: sql\ndescription: SQL rules.\npaths: [\"db/**\"]\n---\nUse migrations.\n",
	} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, SessionDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	s := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/repo"})
	user := func(text string) hostsdk.Decision {
		return hostsdk.Decision{Messages: []hostsdk.Message{{Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(text)}}}}
	}
	codes := func(res hostsdk.StepResult) []contract.ReasonCode {
		var out []contract.ReasonCode
		for _, r := range res.Reasons {
			out = append(out, r.Code)
		}
		return out
	}
	res, err := s.Step(t.Context(), user("hello"), nil)
	if err != nil || res.Outcome != hostsdk.OutcomeInitial {
		t.Fatalf("first step: %v, %v", res.Outcome, err)
	}
	s.Touch("/repo/cmd/main.go")
	res, err = s.Step(t.Context(), hostsdk.Decision{}, nil)
	if err != nil || res.Outcome != hostsdk.OutcomeReplacement || !slices.Contains(codes(res), contract.ReasonPathsActivated) {
		t.Fatalf("after Touch: %v %v, %v", res.Outcome, codes(res), err)
	}
	if res, err = s.Step(t.Context(), hostsdk.Decision{}, nil); err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
		t.Fatalf("Touch's paths were sent twice: %v, %v", res.Outcome, err)
	}
	call, err := contract.ToolUseBlock("c1", "Write", json.RawMessage(`{"file_path":"db/1.sql"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err = s.Step(t.Context(), hostsdk.Decision{Messages: []hostsdk.Message{{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{call}}}}, nil)
	if err != nil || res.Outcome != hostsdk.OutcomeReplacement || !slices.Contains(codes(res), contract.ReasonPathsActivated) {
		t.Fatalf("after a tool call on db/1.sql: %v %v, %v", res.Outcome, codes(res), err)
	}
}
