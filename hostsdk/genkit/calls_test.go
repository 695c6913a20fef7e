package skillgenkit_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/render"
)

// refPattern is what a derived call id looks like.
var refPattern = regexp.MustCompile(`^call_[0-9a-f]{24}$`)

// requestsOf returns the tool requests of a model message, in order.
func requestsOf(m *ai.Message) []*ai.ToolRequest {
	var out []*ai.ToolRequest
	for _, p := range m.Content {
		if p.IsToolRequest() {
			out = append(out, p.ToolRequest)
		}
	}
	return out
}

// Arguments the plugin's schema forbids reach the plugin, and the model
// reads the plugin's fixed error texts, as the plugin gives them for what
// the model sent (a null member included, which Genkit would drop), while
// the Generate goes on. The model is offered the plugin's own schemas.
func TestBadArgumentsReachThePlugin(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	cases := []struct {
		tool, input string
		want        string // the fixed text, where the test names it
	}{
		{"skill", `{"skill":"pdf-forms"}`, string(render.UnexpectedArgument("skill"))},
		{"skill", `{"name":"pdf-forms","force":true}`, string(render.UnexpectedArgument("force"))},
		{"skill", `{}`, string(render.MissingName())},
		{"skill", `"pdf-forms"`, string(render.ArgumentsOtherJSON(`"pdf-forms"`))},
		{"skill", `{"name":7}`, ""},
		{"skill_resource", `{"name":"pdf-forms"}`, ""},
		{"skill_resource", `{"name":"pdf-forms","path":"scripts/list_fields.py","offset":-1}`, ""},
	}
	reply := &ai.Message{Role: ai.RoleModel}
	for _, c := range cases {
		reply.Content = append(reply.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: c.tool, Input: args(t, c.input)}))
	}
	null := toolCall("skill", args(t, `{"name":null}`))
	f.model.queue(reply, null, answer("I will ask again properly."))
	resp := f.conv.turn(t, "Fill in the W-9.")
	if resp.Text() != "I will ask again properly." {
		t.Fatalf("the Generate answered %q", resp.Text())
	}

	reqs := f.model.allRequests()
	direct := f.host.Session("direct", nil)
	results := map[string]string{}
	for _, r := range append(toolResults(t, reqs[1]), toolResults(t, reqs[2])...) {
		results[r.Ref], _ = r.Output.(string)
	}
	sent := append(requestsOf(reqs[1].Messages[len(reqs[1].Messages)-2]), requestsOf(reqs[2].Messages[len(reqs[2].Messages)-2])...)
	cases = append(cases, struct{ tool, input, want string }{"skill", `{"name":null}`, ""})
	for i, r := range sent {
		c := cases[i]
		plugin, err := direct.CallTool(t.Context(), hostsdk.ToolCall{Name: c.tool, Arguments: json.RawMessage(c.input)})
		if err != nil {
			t.Fatal(err)
		}
		got := results[r.Ref]
		if !strings.HasPrefix(got, "Error") || got != plugin.Text || (c.want != "" && got != c.want) {
			t.Errorf("%s %s answers %q, want the plugin's %q", c.tool, c.input, got, plugin.Text)
		}
	}
	if got := results[sent[len(sent)-1].Ref]; got == string(render.MissingName()) {
		t.Errorf(`{"name":null} reached the plugin without its null member: %q`, got)
	}

	for _, d := range f.host.Tools("") {
		var want any
		if err := json.Unmarshal(d.InputSchema, &want); err != nil {
			t.Fatal(err)
		}
		for _, offered := range reqs[0].Tools {
			if offered.Name == d.Name && !jsonEqual(t, offered.InputSchema, want) {
				t.Errorf("the model is offered %s with the schema %v, want the plugin's %s", d.Name, offered.InputSchema, d.InputSchema)
			}
		}
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// Tool requests without a ref get a derived one before Genkit runs them:
// the same conversation derives the same ids, identical requests in one
// response get ids of their own and are both answered, a ref the model
// gave is kept, and the session log holds the ids the model saw.
func TestCallIDs(t *testing.T) {
	play := func(dir string) (*fixture, []*ai.ToolRequest) {
		f := newFixture(t, dir, t.TempDir())
		twice := toolCall("skill", map[string]any{"name": "pdf-forms"})
		twice.Content = append(twice.Content, twice.Content[0])
		given := toolCall("skill", map[string]any{"name": "release-notes"})
		given.Content[0].ToolRequest.Ref = "toolu_given"
		f.model.queue(twice, given, answer("Done."))
		f.conv.turn(t, "Fill in the W-9, then write the notes.")
		reqs := f.model.allRequests()
		if len(reqs) != 3 {
			t.Fatalf("the model was called %d times, want 3", len(reqs))
		}
		calls := requestsOf(reqs[1].Messages[len(reqs[1].Messages)-2])
		calls = append(calls, requestsOf(reqs[2].Messages[len(reqs[2].Messages)-2])...)
		for _, r := range append(toolResults(t, reqs[1]), toolResults(t, reqs[2])...) {
			if out, _ := r.Output.(string); !strings.Contains(out, "<skill_content") {
				t.Errorf("the call %s answers %q, want the skill", r.Ref, out)
			}
		}
		return f, calls
	}
	dir := copySkills(t)
	f, calls := play(dir)
	if len(calls) != 3 || !refPattern.MatchString(calls[0].Ref) || !refPattern.MatchString(calls[1].Ref) || calls[0].Ref == calls[1].Ref {
		t.Fatalf("the identical requests have the refs %q, want two derived ones", refs(calls))
	}
	if calls[2].Ref != "toolu_given" {
		t.Errorf("the model's own ref became %q", calls[2].Ref)
	}
	_, again := play(dir)
	if refs(again) != refs(calls) {
		t.Errorf("the same conversation derived %s, then %s", refs(calls), refs(again))
	}

	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	for _, e := range entries {
		for _, b := range e.Message.Content {
			if u, ok := b.ToolUse(); ok {
				logged = append(logged, u.ID)
			}
		}
	}
	if strings.Join(logged, ",") != refs(calls) {
		t.Errorf("the session log holds the tool uses %v, want %s", logged, refs(calls))
	}
}

func refs(calls []*ai.ToolRequest) string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Ref)
	}
	return strings.Join(out, ",")
}
