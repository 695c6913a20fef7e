package hostsdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// toolTurn is the model's call of the `skill` tool for name, with the id
// id, and the framework's message of its result (no source: a framework
// keeps none).
func toolTurn(t *testing.T, s *hostsdk.Session, id, name string) []hostsdk.Message {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"name": name})
	use, err := hostsdk.ToolUseBlock(id, "skill", args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.CallTool(context.Background(), hostsdk.ToolCall{CallID: id, Name: "skill", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("load %s: %q, %v", name, res.Text, err)
	}
	if kind, skills, ok := events.ParseLoads(res.Source); !ok || kind != events.LoadKind || skills[0].Name != name {
		t.Fatalf("load %s: the result's source %s is not its load record", name, res.Source)
	}
	result, err := hostsdk.ToolResultBlock(id, []hostsdk.ContentBlock{hostsdk.TextBlock(res.Text)}, false)
	if err != nil {
		t.Fatal(err)
	}
	return []hostsdk.Message{
		{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{use}},
		{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{result}},
	}
}

// reattachedIn returns the plugin messages of a view that attach skills
// again.
func reattachedIn(view []hostsdk.ViewMessage) []hostsdk.Message {
	var out []hostsdk.Message
	for _, v := range view {
		if kind, _, ok := events.ParseLoads(v.Message.Source); v.Plugin && ok && kind == events.ReattachKind {
			out = append(out, v.Message)
		}
	}
	return out
}

// TestSyncReattachesLoadedSkills: through the plugin binary, a skill the
// model loaded with Session.CallTool reaches the log with its load record
// on the framework's tool-result message (Sync sets it), and once the
// framework's history is summarised, the step attaches the skill again:
// once, in the view from then on, and not again after a restart.
func TestSyncReattachesLoadedSkills(t *testing.T) {
	e := newSyncEnv(t)
	host, s := e.open()
	history := []hostsdk.Message{userMsg("Do the alpha thing.")}
	mustSync(t, s, history)
	history = append(history, toolTurn(t, s, "call-1", "alpha")...)
	res := mustSync(t, s, history)
	if got := reattachedIn(res.View); len(got) != 0 {
		t.Fatalf("attached again before any compaction: %d", len(got))
	}
	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1].Message
	if kind, skills, ok := events.ParseLoads(last.Source); !ok || kind != events.LoadKind || skills[0].Name != "alpha" || hostsdk.IsPluginMessage(last) {
		t.Fatalf("the tool result was logged with the source %s, want alpha's load record on a runtime message", last.Source)
	}

	summarised := []hostsdk.Message{userMsg("Summary: alpha was used."), userMsg("Go on.")}
	res = mustSync(t, s, summarised)
	got := reattachedIn(res.View)
	if len(got) != 1 || !strings.Contains(got[0].Text(), "<skill_content name=\"alpha\">") || !strings.Contains(got[0].Text(), "Do alpha.") {
		t.Fatalf("after the summary the view attaches again %d messages: %+v", len(got), got)
	}
	if len(res.Reattached) != 1 || res.Reattached[0].Name != "alpha" || res.Reattached[0].State != "" {
		t.Errorf("StepResult.Reattached = %+v, want alpha as loaded", res.Reattached)
	}
	if res = mustSync(t, s, summarised); len(reattachedIn(res.View)) != 1 || len(res.Appended) != 0 {
		t.Errorf("the next call: %d re-attachments in the view, %d appended; want 1 and 0", len(reattachedIn(res.View)), len(res.Appended))
	}
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	_, resumed := e.open()
	if res = mustSync(t, resumed, summarised); len(reattachedIn(res.View)) != 1 || len(res.Appended) != 0 {
		t.Errorf("after a restart: %d re-attachments in the view, %d appended; want 1 and 0", len(reattachedIn(res.View)), len(res.Appended))
	}
}
