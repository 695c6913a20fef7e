package skillgenkit_test

import (
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
)

const (
	reattachedHeader = "The conversation was compacted, and the instructions of skills used earlier in this session"
	preloadedHeader  = "These skills are preloaded for this session"
	pdfFormsStep     = "List the form's fields first"
)

// countUser counts the user messages of a model request whose text
// contains all of texts.
func countUser(req request, texts ...string) int {
	n := 0
	for _, m := range req.Messages {
		if m.Role != ai.RoleUser {
			continue
		}
		all, s := true, text(m)
		for _, want := range texts {
			all = all && strings.Contains(s, want)
		}
		if all {
			n++
		}
	}
	return n
}

// A skill the model loaded through Genkit's own tool loop is attached
// again when the application summarises its history: the `skill`
// result's load record reaches the session log with Genkit's tool
// response, and the first model call after the compaction sees the
// skill's instructions once, as does every later one.
func TestReattachThroughTheLoop(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	f.model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer("Filled in."))
	f.conv.turn(t, "Please fill in the W-9 form.")
	f.model.queue(answer("Done."))
	f.conv.turn(t, "Thanks.")
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	loads := 0
	for _, e := range entries {
		if kind, skills, ok := events.ParseLoads(e.Message.Source); ok && kind == events.LoadKind && skills[0].Name == "pdf-forms" {
			loads++
		}
	}
	if loads != 1 {
		t.Fatalf("the session log holds %d tool results with the load record of pdf-forms, want 1", loads)
	}

	f.conv.history = []*ai.Message{ai.NewSystemTextMessage(systemPrompt),
		answer("Summary: the user had a W-9 filled in with the pdf-forms skill.")}
	f.model.queue(answer("Same steps for the 1099."))
	f.conv.turn(t, "And the 1099?")
	if got := countUser(f.model.last(t), reattachedHeader, `<skill_content name="pdf-forms">`, pdfFormsStep); got != 1 {
		t.Fatalf("after the compaction the model sees the skill attached again %d times, want 1", got)
	}
	f.model.queue(answer("You're welcome."))
	f.conv.turn(t, "Thanks.")
	if got := countUser(f.model.last(t), reattachedHeader); got != 1 {
		t.Errorf("the next Generate sees %d re-attachments, want the one", got)
	}
}

// Skills preloaded for the generations (the adapter's PreloadSkills, and
// the host's for the agent's scope) are in the conversation from the
// first model call, once, and attached again after a compaction.
func TestPreloadThroughTheLoop(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{copySkills(t)}, SessionDir: t.TempDir(),
		Preload: map[string][]string{"global": {"release-notes"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	skills, err := skillgenkit.New(t.Context(), host, &skillgenkit.Options{PreloadSkills: []string{"pdf-forms", "no-such-skill"}})
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(t.Context())
	m := newScriptedModel(g, "test/scripted")
	conv := &conversation{g: g, model: m, skills: skills, id: "s1", history: []*ai.Message{ai.NewSystemTextMessage(systemPrompt)}}

	m.queue(answer("Ready."))
	conv.turn(t, "Hello.")
	if got := countUser(m.last(t), preloadedHeader, `<skill_content name="release-notes">`, `<skill_content name="pdf-forms">`, pdfFormsStep); got != 1 {
		t.Fatalf("the first model call sees the preloaded skills %d times, want 1", got)
	}
	m.queue(answer("Still ready."))
	conv.turn(t, "Anything else?")
	if got := countUser(m.last(t), preloadedHeader); got != 1 {
		t.Errorf("the second Generate sees %d preload messages, want the one", got)
	}

	conv.history = []*ai.Message{ai.NewSystemTextMessage(systemPrompt), answer("Summary: nothing happened yet.")}
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
