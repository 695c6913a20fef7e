package skilleino_test

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
)

const (
	reattachedHeader = "The conversation was compacted, and the instructions of skills used earlier in this session"
	preloadedHeader  = "These skills are preloaded for this session"
	pdfFormsStep     = "List the form's fields first"
)

// countUser counts the user messages of a model request that contain all
// of texts.
func countUser(req request, texts ...string) int {
	n := 0
	for _, m := range req.Messages {
		if m.Role != schema.User {
			continue
		}
		all := true
		for _, s := range texts {
			all = all && strings.Contains(m.Content, s)
		}
		if all {
			n++
		}
	}
	return n
}

// A skill the model loaded through Eino's own tool loop is attached again
// when the caller summarises its history: the `skill` result's load record
// reaches the session log with the framework's tool message, and the first
// model call after the compaction sees the skill's instructions once, as
// does every later one.
func TestReattachThroughTheLoop(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	f.model.queue(toolCall("call-1", "skill", `{"name":"pdf-forms"}`), answer("Filled in."))
	f.conv.turn(t, "Please fill in the W-9 form.")
	if got := countUser(f.model.last(t), reattachedHeader); got != 0 {
		t.Fatalf("attached again before any compaction: %d", got)
	}
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	loads := 0
	for _, e := range entries {
		if kind, skills, ok := events.ParseLoads(e.Message.Source); ok && kind == events.LoadKind && skills[0].Name == "pdf-forms" && e.Message.Role == hostsdk.RoleTool {
			loads++
		}
	}
	if loads != 1 {
		t.Fatalf("the session log holds %d tool results with the load record of pdf-forms, want 1", loads)
	}

	f.conv.history = []*schema.Message{answer("Summary: the user had a W-9 filled in with the pdf-forms skill.")}
	f.model.queue(answer("Same steps for the 1099."))
	f.conv.turn(t, "And the 1099?")
	if got := countUser(f.model.last(t), reattachedHeader, `<skill_content name="pdf-forms">`, pdfFormsStep); got != 1 {
		t.Fatalf("after the compaction the model sees the skill attached again %d times, want 1", got)
	}
	f.model.queue(answer("You're welcome."))
	f.conv.turn(t, "Thanks.")
	if got := countUser(f.model.last(t), reattachedHeader); got != 1 {
		t.Errorf("the next Run sees %d re-attachments, want the one", got)
	}
}

// Skills preloaded for the agent (the adapter's PreloadSkills, and the
// host's for the agent's scope) are in the conversation from the first
// model call, once, and attached again after a compaction.
func TestPreloadThroughTheLoop(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{copySkills(t)}, SessionDir: t.TempDir(),
		Preload: map[string][]string{"global": {"release-notes"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	skills, err := skilleino.New(t.Context(), host, &skilleino.Options{PreloadSkills: []string{"pdf-forms", "no-such-skill"}})
	if err != nil {
		t.Fatal(err)
	}
	m := newScriptedModel()
	conv := &conversation{runner: newAgentRunner(t, m, skills.Middleware()), opts: []adk.AgentRunOption{skilleino.WithSession("s1")}}

	m.queue(answer("Ready."))
	conv.turn(t, "Hello.")
	first := m.last(t)
	if got := countUser(first, preloadedHeader, `<skill_content name="release-notes">`, `<skill_content name="pdf-forms">`, pdfFormsStep); got != 1 {
		t.Fatalf("the first model call sees the preloaded skills %d times, want 1", got)
	}
	m.queue(answer("Still ready."))
	conv.turn(t, "Anything else?")
	if got := countUser(m.last(t), preloadedHeader); got != 1 {
		t.Errorf("the second Run sees %d preload messages, want the one", got)
	}

	conv.history = []*schema.Message{answer("Summary: nothing happened yet.")}
	m.queue(answer("Ok."))
	conv.turn(t, "Go on.")
	last := m.last(t)
	if got := countUser(last, reattachedHeader, `<skill_content name="release-notes">`, `<skill_content name="pdf-forms">`); got != 1 {
		t.Errorf("after a compaction the preloaded skills are attached again %d times, want 1", got)
	}
	if got := countUser(last, preloadedHeader); got != 0 {
		t.Errorf("after a compaction the preload message is still seen %d times, want 0", got)
	}
}
