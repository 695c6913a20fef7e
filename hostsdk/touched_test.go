package hostsdk_test

import (
	"encoding/json"
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
