package skillgenkit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// syncBuffer is a log destination the host's goroutines may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// systemPrompt is the conversations' system prompt.
const systemPrompt = "You are a helpful assistant."

// fixture is a host over a skills directory and a session directory, the
// adapter, a Genkit registry with a scripted model, and the conversation
// of session "s1".
type fixture struct {
	host  *hostsdk.Host
	model *scriptedModel
	conv  *conversation
	logs  *syncBuffer
}

// newFixture opens a host the way a user does (hostsdk.Open). HOME is a
// fresh directory, so only the test's skills are found.
func newFixture(t *testing.T, skillsDir, sessionDir string) *fixture {
	t.Helper()
	return newFixtureWith(t, hostsdk.OpenOptions{SkillDirs: []string{skillsDir}, SessionDir: sessionDir})
}

// newFixtureWith is newFixture on a host opened with opts, whose logger is
// the fixture's.
func newFixtureWith(t *testing.T, opts hostsdk.OpenOptions) *fixture {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts.Logger = logger
	host, err := hostsdk.Open(t.Context(), &opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	skills, err := skillgenkit.New(t.Context(), host, &skillgenkit.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(t.Context())
	m := newScriptedModel(g, "test/scripted")
	return &fixture{host: host, model: m, logs: logs, conv: &conversation{
		g: g, model: m, skills: skills, id: "s1", history: []*ai.Message{ai.NewSystemTextMessage(systemPrompt)},
	}}
}

// published returns the plugin messages of session s1's log.
func (f *fixture) published(t *testing.T) []hostsdk.TranscriptEntry {
	t.Helper()
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var out []hostsdk.TranscriptEntry
	for _, e := range entries {
		if hostsdk.IsPluginMessage(e.Message) {
			out = append(out, e)
		}
	}
	return out
}

// Over four Generates of one conversation the model sees the catalog from
// the first call on, published once, loads a skill and reads its file
// through Genkit's tool loop, and is told once, by an appended
// replacement, of a skill added on disk; each request extends the previous
// one byte for byte.
func TestConversation(t *testing.T) {
	dir := copySkills(t)
	f := newFixture(t, dir, t.TempDir())

	f.model.queue(
		toolCall("skill", map[string]any{"name": "pdf-forms"}),
		toolCall("skill_resource", map[string]any{"name": "pdf-forms", "path": "scripts/list_fields.py"}),
		answer("The form has 23 fields; which values should I use?"))
	f.conv.turn(t, "Please fill in the W-9 form in forms/w9.pdf.")
	reqs := f.model.allRequests()
	if len(reqs) != 3 {
		t.Fatalf("the model was called %d times, want 3", len(reqs))
	}
	if names := toolNames(reqs[0]); names != "skill,skill_resource" {
		t.Errorf("the model is offered the tools %s, want skill,skill_resource", names)
	}
	if reqs[0].Messages[0].Role != ai.RoleSystem {
		t.Errorf("the first message is a %s message, want the system prompt", reqs[0].Messages[0].Role)
	}
	cats := catalogs(reqs[0])
	if len(cats) != 1 {
		t.Fatalf("the first request holds %d catalogs, want 1", len(cats))
	}
	wantNames(t, cats[0], "pdf-forms", "release-notes", "commit-messages")
	if got := lastToolResult(t, reqs[1]); !strings.Contains(got, "List the form's fields first") {
		t.Errorf("the skill tool's result lacks the skill's instructions:\n%s", got)
	}
	script, err := os.ReadFile(filepath.Join(dir, "pdf-forms", "scripts", "list_fields.py"))
	if err != nil {
		t.Fatal(err)
	}
	firstLine, _, _ := strings.Cut(string(script), "\n")
	if got := lastToolResult(t, reqs[2]); !strings.Contains(got, firstLine) {
		t.Errorf("the skill_resource result lacks the file's first line %q:\n%s", firstLine, got)
	}
	extends(t, reqs[0], reqs[1])
	extends(t, reqs[1], reqs[2])

	f.model.queue(answer("The W-4 works the same way."))
	f.conv.turn(t, "Thanks. And the W-4?")
	if got := len(catalogs(f.model.last(t))); got != 1 {
		t.Fatalf("the second Generate's request holds %d catalogs, want the first one only", got)
	}
	extends(t, reqs[2], f.model.last(t))

	watch := watchSkills(t, f.host)
	writeSkill(t, dir, "changelog", "Write a changelog entry for a merged change.", "Summarise the change in one line.\n")
	watch.await(t, func(c string) bool { return strings.Contains(c, "`changelog`") })
	f.model.queue(toolCall("skill", map[string]any{"name": "changelog"}), answer("Added the entry."))
	f.conv.turn(t, "Add a changelog entry for it.")
	reqs = f.model.allRequests()
	afterChange := reqs[len(reqs)-2]
	cats = catalogs(afterChange)
	if len(cats) != 2 || !strings.Contains(cats[1], "The available skills have changed") {
		t.Fatalf("after a skill was added the model sees %d catalogs, want the first and one replacement:\n%s", len(cats), strings.Join(cats, "\n---\n"))
	}
	wantNames(t, cats[1], "changelog", "pdf-forms")
	extends(t, reqs[len(reqs)-3], afterChange)
	if got := lastToolResult(t, reqs[len(reqs)-1]); !strings.Contains(got, "Summarise the change in one line.") {
		t.Errorf("the new skill does not load:\n%s", got)
	}

	f.model.queue(answer("You're welcome."))
	f.conv.turn(t, "Thanks!")
	if got := len(catalogs(f.model.last(t))); got != 2 {
		t.Errorf("a Generate after the change sees %d catalogs, want 2", got)
	}
	if got := len(f.published(t)); got != 2 {
		t.Errorf("the session log holds %d plugin messages, want the first catalog and one replacement", got)
	}
}

func toolNames(req request) string {
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Name)
	}
	return strings.Join(names, ",")
}

// A SKILL.md that does not parse costs that skill only: the others are
// listed and load, and the host's log says which file was skipped and why.
func TestBrokenSkill(t *testing.T) {
	dir := copySkills(t)
	writeFile(t, filepath.Join(dir, "broken", "SKILL.md"), "---\nname: broken\ndescription: [unclosed\n---\nNever listed.\n")
	f := newFixture(t, dir, t.TempDir())

	f.model.queue(toolCall("skill", map[string]any{"name": "release-notes"}), answer("Here are the notes."))
	f.conv.turn(t, "Write the release notes.")
	reqs := f.model.allRequests()
	cats := catalogs(reqs[0])
	if len(cats) != 1 {
		t.Fatalf("the model sees %d catalogs, want 1", len(cats))
	}
	wantNames(t, cats[0], "pdf-forms", "release-notes", "commit-messages")
	if strings.Contains(cats[0], "broken") {
		t.Errorf("the catalog lists the broken skill:\n%s", cats[0])
	}
	if got := lastToolResult(t, reqs[1]); strings.HasPrefix(got, "Error") {
		t.Errorf("a good skill beside a broken one does not load: %s", got)
	}
	if logs := f.logs.String(); !strings.Contains(logs, filepath.Join("broken", "SKILL.md")) {
		t.Errorf("the host's log does not name the broken SKILL.md:\n%s", logs)
	}
}

// A new host, adapter and Genkit on the same session directory (a
// restarted process) publish nothing again, and the model still sees the
// catalog at its place in the caller's history.
func TestRestart(t *testing.T) {
	dir, sessions := copySkills(t), t.TempDir()
	f := newFixture(t, dir, sessions)
	f.model.queue(answer("Hello."))
	f.conv.turn(t, "Hi.")
	before := f.model.last(t)
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}

	g := newFixture(t, dir, sessions)
	g.conv.history = f.conv.history
	g.model.queue(answer("Still here."))
	g.conv.turn(t, "Are you still there?")
	after := g.model.last(t)
	cats := catalogs(after)
	if len(cats) != 1 || cats[0] != catalogs(before)[0] {
		t.Fatalf("after a restart the model sees %d catalogs, want the one it saw before", len(cats))
	}
	extends(t, before, after)
	if got := len(g.published(t)); got != 1 {
		t.Errorf("the session log holds %d plugin messages after a restart, want the first catalog only", got)
	}
}

// A caller that summarises its history (a compaction the application
// made) gets the catalog published again, once.
func TestCompaction(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	f.model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer("Filled in."))
	f.conv.turn(t, "Please fill in the W-9 form.")
	f.model.queue(answer("Done."))
	f.conv.turn(t, "Thanks.")

	f.conv.history = []*ai.Message{ai.NewSystemTextMessage(systemPrompt),
		answer("Summary: the user had a W-9 filled in with the pdf-forms skill.")}
	f.model.queue(answer("Same steps for the 1099."))
	f.conv.turn(t, "And the 1099?")
	compacted := f.model.last(t)
	cats := catalogs(compacted)
	if len(cats) != 1 {
		t.Fatalf("after the caller summarised its history the model sees %d catalogs, want 1", len(cats))
	}
	wantNames(t, cats[0], "pdf-forms")
	f.model.queue(answer("You're welcome."))
	f.conv.turn(t, "Thanks.")
	if got := len(catalogs(f.model.last(t))); got != 1 {
		t.Errorf("the Generate after the compaction sees %d catalogs, want 1", got)
	}
	extends(t, compacted, f.model.last(t))
	// The skill the model loaded before the compaction is attached again
	// (TestReattachThroughTheLoop).
	if got := len(f.published(t)); got != 3 {
		t.Errorf("the session log holds %d plugin messages, want the first catalog, one republished after the compaction and the re-attachment of pdf-forms", got)
	}
}

// A Generate whose context names no session fails and says how to name
// one, rather than mixing its messages into another conversation's log;
// so does one that does not offer the model the skill tools the catalog
// would name.
func TestMisuse(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	f.model.queue(answer("Hello."))
	f.conv.history = append(f.conv.history, ai.NewUserTextMessage("Hi."))
	_, err := genkit.Generate(t.Context(), f.conv.g, ai.WithModel(f.model.model), ai.WithMessages(f.conv.history...),
		ai.WithTools(f.conv.skills.Tools()...), ai.WithMiddleware(f.conv.skills.Middleware()))
	if err == nil || !strings.Contains(err.Error(), "WithSession") {
		t.Errorf("a Generate without a session ended with %v, want an error naming WithSession", err)
	}
	_, err = genkit.Generate(skillgenkit.WithSession(t.Context(), "s1"), f.conv.g, ai.WithModel(f.model.model),
		ai.WithMessages(f.conv.history...), ai.WithMiddleware(f.conv.skills.Middleware()))
	if err == nil || !strings.Contains(err.Error(), "ai.WithTools(skills.Tools()...)") {
		t.Errorf("a Generate without the tools ended with %v, want an error naming ai.WithTools", err)
	}
	if got := len(f.model.allRequests()); got != 0 {
		t.Errorf("the model was called %d times, want 0", got)
	}
}

// brokenStore is a session store that cannot open any session's log: a
// database that is down, say.
type brokenStore struct{}

func (brokenStore) Open(context.Context, string) (sessionlog.Log, error) {
	return nil, errors.New("the session database is unreachable")
}

// When the session store fails, the Generate goes on: the model is called
// without the catalog, the tool call answers the model with the failure as
// text (an error would end the Generate), and both failures are logged.
func TestStoreUnavailable(t *testing.T) {
	f := newFixtureWith(t, hostsdk.OpenOptions{SkillDirs: []string{copySkills(t)}, Store: brokenStore{}})
	f.model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer("I could not load the skill."))
	f.conv.turn(t, "Please fill in the W-9 form.")
	reqs := f.model.allRequests()
	if len(reqs) != 2 {
		t.Fatalf("the model was called %d times, want 2", len(reqs))
	}
	if got := len(catalogs(reqs[0])); got != 0 {
		t.Errorf("the model sees %d catalogs without a store, want 0", got)
	}
	if got := lastToolResult(t, reqs[1]); !strings.HasPrefix(got, "Error: the skill tool is unavailable") || !strings.Contains(got, "unreachable") {
		t.Errorf("the failed tool call answers %q, want the failure as text", got)
	}
	logs := f.logs.String()
	if !strings.Contains(logs, "the step failed") || !strings.Contains(logs, "unreachable") {
		t.Errorf("the adapter did not log the failed step:\n%s", logs)
	}
	if !strings.Contains(logs, "a tool call failed") {
		t.Errorf("the adapter did not log the failed tool call:\n%s", logs)
	}
}

// One Skills serves concurrent Generates of different conversations:
// every session's log holds its own messages and one catalog.
func TestConcurrentConversations(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	const sessions, turns = 4, 3
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for i := range sessions {
		c := &conversation{g: f.conv.g, skills: f.conv.skills, id: fmt.Sprintf("c%d", i)}
		c.model = newScriptedModel(f.conv.g, "test/"+c.id)
		wg.Go(func() {
			for turn := range turns {
				c.history = append(c.history, ai.NewUserTextMessage(fmt.Sprintf("%s, turn %d", c.id, turn)))
				if err := c.queueAndRun(t, turn); err != nil {
					errs <- fmt.Errorf("session %s, turn %d: %w", c.id, turn, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range sessions {
		id := fmt.Sprintf("c%d", i)
		entries, err := f.host.Session(id, nil).Transcript(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		plugin, own := 0, 0
		for _, e := range entries {
			switch {
			case hostsdk.IsPluginMessage(e.Message):
				plugin++
			case strings.HasPrefix(e.Message.Text(), "c") && !strings.HasPrefix(e.Message.Text(), id+","):
				t.Errorf("session %s holds another conversation's message %q", id, e.Message.Text())
			default:
				own++
			}
		}
		// Each turn: the user's message, the tool request, its response,
		// the answer; the last answer too, logged when the model gave it.
		if want := 4 * turns; plugin != 1 || own != want {
			t.Errorf("session %s holds %d plugin and %d own messages, want 1 and %d", id, plugin, own, want)
		}
	}
}

// queueAndRun queues a skill load and an answer and runs one Generate,
// keeping resp.History().
func (c *conversation) queueAndRun(t *testing.T, turn int) error {
	c.model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer(fmt.Sprintf("Done %d.", turn)))
	resp, err := c.generate(t.Context())
	if err != nil {
		return err
	}
	c.history = resp.History()
	return nil
}

// The session log keeps what the model was sent: a user's image beside
// its text, and a tool request whose input is not an object as the model
// sent it, whose result tells the model so.
func TestMessagesKeptAsSent(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	url := "https://example.com/w9.png"
	f.conv.history = append(f.conv.history, ai.NewUserMessage(ai.NewTextPart("Fill in this form."), ai.NewMediaPart("image/png", url)))
	f.model.queue(toolCall("skill", "pdf-forms"), answer("Let me try again."))
	resp, err := f.conv.generate(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := lastToolResult(t, f.model.last(t)); !strings.HasPrefix(got, "Error") {
		t.Fatalf("the tool answered %q, want an error the model reads", got)
	}
	if resp.Text() != "Let me try again." {
		t.Errorf("the Generate answered %q", resp.Text())
	}
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	user, call := entries[0].Message, entries[2].Message
	if len(user.Content) != 2 || user.Content[0].Text != "Fill in this form." || !strings.Contains(string(user.Content[1].Raw), url) {
		t.Errorf("the user's message is logged as %+v, want its text and its image", user.Content)
	}
	if len(call.Content) != 1 || !strings.Contains(string(call.Content[0].Raw), `"arguments":"\"pdf-forms\""`) {
		t.Errorf("the tool request is logged as %s, want its input as the model sent it", call.Content[0].Raw)
	}
}

// Parts Genkit writes into the caller's own messages (the documents of
// ai.WithDocs, for a model without native context support, go into the
// last user message, in place) are not the conversation: the session log
// leaves them out, so the message still matches its record and is not
// taken for an edit, and the catalog is published once.
func TestGenkitsOwnPartsAreNotAnEdit(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	docs := ai.WithDocs(ai.DocumentFromText("The W-9 asks for a taxpayer identification number.", nil))
	for turn, user := range []string{"Please fill in the W-9 form.", "And the W-4?"} {
		f.model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer(fmt.Sprintf("Done %d.", turn)))
		f.conv.history = append(f.conv.history, ai.NewUserTextMessage(user))
		resp, err := genkit.Generate(skillgenkit.WithSession(t.Context(), "s1"), f.conv.g, ai.WithModel(f.model.model),
			ai.WithMessages(f.conv.history...), docs, ai.WithTools(f.conv.skills.Tools()...), ai.WithMiddleware(f.conv.skills.Middleware()))
		if err != nil {
			t.Fatal(err)
		}
		f.conv.history = resp.History()
	}
	if !strings.Contains(string(f.model.last(t).MessagesJSON), "taxpayer identification") {
		t.Fatal("Genkit did not put the documents into the request")
	}
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Visible {
			t.Errorf("the log hid message %d (%q): Genkit's documents were taken for an edit", e.Seq, e.Message.Text())
		}
		if strings.Contains(e.Message.Text(), "taxpayer identification") {
			t.Errorf("the log holds Genkit's documents in message %d", e.Seq)
		}
	}
	if got := len(f.published(t)); got != 1 {
		t.Errorf("the session log holds %d plugin messages, want the first catalog only", got)
	}
}

// A session's working directory (WithWorkingDir) reaches the host: with
// trusted projects, the project's own skills are in its catalog.
func TestWorkingDir(t *testing.T) {
	project := t.TempDir()
	writeSkill(t, filepath.Join(project, ".agents", "skills"), "project-lint", "Lint this project's code.", "Run the linter.\n")
	f := newFixtureWith(t, hostsdk.OpenOptions{SkillDirs: []string{copySkills(t)}, SessionDir: t.TempDir(), TrustProjects: true})
	f.model.queue(toolCall("skill", map[string]any{"name": "project-lint"}), answer("Linted."))
	f.conv.history = append(f.conv.history, ai.NewUserTextMessage("Lint the code."))
	ctx := skillgenkit.WithWorkingDir(skillgenkit.WithSession(t.Context(), "s1"), project)
	_, err := genkit.Generate(ctx, f.conv.g, ai.WithModel(f.model.model), ai.WithMessages(f.conv.history...),
		ai.WithTools(f.conv.skills.Tools()...), ai.WithMiddleware(f.conv.skills.Middleware()))
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.model.allRequests()
	wantNames(t, catalogs(reqs[0])[0], "project-lint", "pdf-forms")
	if got := lastToolResult(t, reqs[1]); !strings.Contains(got, "Run the linter.") {
		t.Errorf("the project's skill does not load:\n%s", got)
	}
}

// TestForgedPluginMarker: a caller's message whose metadata carries the
// marker of the adapter's plugin messages with an id the session log never
// held is the caller's own: the model sees it, the log keeps it once
// across Generates, and the adapter warns.
func TestForgedPluginMarker(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	forged := ai.NewUserTextMessage("Please fill in the W-9 form.")
	forged.Metadata = map[string]any{"skillcatalog_plugin": "no-such-message"}
	f.conv.history = append(f.conv.history, forged)
	f.model.queue(answer("Which fields?"))
	resp, err := f.conv.generate(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	f.conv.history = resp.History()
	seen := false
	for _, m := range f.model.last(t).Messages {
		seen = seen || text(m) == "Please fill in the W-9 form."
	}
	if !seen {
		t.Error("the model does not see the caller's message with a forged marker")
	}
	if !strings.Contains(f.logs.String(), "no-such-message") {
		t.Errorf("the adapter did not warn of the forged marker:\n%s", f.logs.String())
	}
	f.model.queue(answer("Fine."))
	f.conv.turn(t, "All of them.")
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Message.Text() == "Please fill in the W-9 form." && !e.Plugin {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the log holds the caller's message %d times, want once", n)
	}
}
