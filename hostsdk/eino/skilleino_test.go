package skilleino_test

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
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
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

// fixture is a host over a skills directory and a session directory, an
// Eino agent with the adapter, a scripted model, and a caller that keeps
// the conversation of session "s1".
type fixture struct {
	host  *hostsdk.Host
	model *scriptedModel
	conv  *conversation
	logs  *syncBuffer
}

// newFixture opens a host the way a user does (hostsdk.Open) and builds an
// agent with the adapter. HOME is a fresh directory, so only the test's
// skills are found.
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
	skills, err := skilleino.New(t.Context(), host, &skilleino.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	m := newScriptedModel()
	return &fixture{
		host: host, model: m, logs: logs,
		conv: &conversation{runner: newAgentRunner(t, m, skills.Middleware()), opts: []adk.AgentRunOption{skilleino.WithSession("s1")}},
	}
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

// skillWatch follows the skills a host offers. The host watches the skill
// directories, and a change on disk reaches a session's snapshot a moment
// later, when the watcher's debounce has passed; a session of the watch's
// own, which holds a snapshot from before the change, sees it at the same
// moment as every other, so the conversation's next step sees it too.
type skillWatch struct{ probe *hostsdk.Session }

// watchSkills starts following host's skills; call it before the change.
func watchSkills(t *testing.T, host *hostsdk.Host) *skillWatch {
	t.Helper()
	w := &skillWatch{probe: host.Session("watch-skills", nil)}
	w.latest(t)
	return w
}

// latest returns the text of the newest catalog the probe session sees.
func (w *skillWatch) latest(t *testing.T) string {
	t.Helper()
	history := []hostsdk.Message{{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("probe")}}}
	res, err := w.probe.Sync(t.Context(), history)
	if err != nil {
		t.Fatal(err)
	}
	var latest string
	for _, v := range res.View {
		if v.Plugin {
			latest = v.Message.Text()
		}
	}
	return latest
}

// await returns once the host's catalog satisfies shown. It asks every few
// milliseconds; the deadline only keeps a broken watcher from hanging the
// test.
func (w *skillWatch) await(t *testing.T, shown func(catalog string) bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		latest := w.latest(t)
		if shown(latest) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host's skills did not change as expected; its latest catalog:\n%s", latest)
		}
	}
}

// extends fails unless cur starts with every byte of prev but its closing
// "]}": the previous request, all of it, is a prefix of this one.
func extends(t *testing.T, prev, cur request) {
	t.Helper()
	head := bytes.TrimSuffix(prev.Wire, []byte("]}"))
	if !bytes.HasPrefix(cur.Wire, head) {
		n := 0
		for n < len(head) && n < len(cur.Wire) && head[n] == cur.Wire[n] {
			n++
		}
		t.Fatalf("the request does not extend the previous one; they differ at byte %d of %d:\nprevious: …%s\nthis:     …%s",
			n, len(head), clip(head, n), clip(cur.Wire, n))
	}
}

func clip(b []byte, at int) string {
	return string(b[max(0, at-40):min(len(b), at+80)])
}

func wantNames(t *testing.T, catalog string, want ...string) {
	t.Helper()
	for _, name := range want {
		if !strings.Contains(catalog, "`"+name+"`") {
			t.Errorf("the catalog does not list %s:\n%s", name, catalog)
		}
	}
}

// Over four Runs of one conversation the model sees the catalog from the
// first call on, published once, loads a skill and reads its file through
// Eino's tool path, and is told once, by an appended replacement, of a
// skill added on disk; each request extends the previous one byte for
// byte.
func TestConversation(t *testing.T) {
	dir := copySkills(t)
	f := newFixture(t, dir, t.TempDir())

	f.model.queue(
		toolCall("call-1", "skill", `{"name":"pdf-forms"}`),
		toolCall("call-2", "skill_resource", `{"name":"pdf-forms","path":"scripts/list_fields.py"}`),
		answer("The form has 23 fields; which values should I use?"))
	f.conv.turn(t, "Please fill in the W-9 form in forms/w9.pdf.")
	reqs := f.model.requests()
	if len(reqs) != 3 {
		t.Fatalf("the model was called %d times, want 3", len(reqs))
	}
	if names := toolNames(reqs[0]); names != "skill,skill_resource" {
		t.Errorf("the model is offered the tools %s, want skill,skill_resource", names)
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
		t.Fatalf("the second Run's request holds %d catalogs, want the first one only", got)
	}
	extends(t, reqs[2], f.model.last(t))

	watch := watchSkills(t, f.host)
	writeSkill(t, dir, "changelog", "Write a changelog entry for a merged change.", "Summarise the change in one line.\n")
	watch.await(t, func(c string) bool { return strings.Contains(c, "`changelog`") })
	f.model.queue(toolCall("call-3", "skill", `{"name":"changelog"}`), answer("Added the entry."))
	f.conv.turn(t, "Add a changelog entry for it.")
	reqs = f.model.requests()
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
		t.Errorf("a Run after the change sees %d catalogs, want 2", got)
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

	f.model.queue(toolCall("call-1", "skill", `{"name":"release-notes"}`), answer("Here are the notes."))
	f.conv.turn(t, "Write the release notes.")
	reqs := f.model.requests()
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

// A new host and adapter on the same session directory (a restarted
// process) publish nothing again, and the model still sees the catalog at
// its place in the caller's history.
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

// A caller that summarises its history (a compaction the framework's side
// made) gets the catalog published again, once.
func TestCompaction(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	f.model.queue(toolCall("call-1", "skill", `{"name":"pdf-forms"}`), answer("Filled in."))
	f.conv.turn(t, "Please fill in the W-9 form.")
	f.model.queue(answer("Done."))
	f.conv.turn(t, "Thanks.")

	f.conv.history = f.conv.history[:0:0]
	f.conv.history = append(f.conv.history, answer("Summary: the user had a W-9 filled in with the pdf-forms skill."))
	f.model.queue(answer("Same steps for the 1099."))
	f.conv.turn(t, "And the 1099?")
	cats := catalogs(f.model.last(t))
	if len(cats) != 1 {
		t.Fatalf("after the caller summarised its history the model sees %d catalogs, want 1", len(cats))
	}
	wantNames(t, cats[0], "pdf-forms")
	f.model.queue(answer("You're welcome."))
	f.conv.turn(t, "Thanks.")
	if got := len(catalogs(f.model.last(t))); got != 1 {
		t.Errorf("the Run after the compaction sees %d catalogs, want 1", got)
	}
	// The skill the model loaded before the compaction is attached again
	// (TestReattachThroughTheLoop).
	if got := len(f.published(t)); got != 3 {
		t.Errorf("the session log holds %d plugin messages, want the first catalog, one republished after the compaction and the re-attachment of pdf-forms", got)
	}
}

// A Run that names no session fails and says how to name one, rather than
// mixing its messages into another conversation's log.
func TestNoSession(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	f.conv.opts = nil
	f.model.queue(answer("Hello."))
	f.conv.history = append(f.conv.history, schema.UserMessage("Hi."))
	_, runErr := runTurn(t.Context(), f.conv.runner, f.conv.history)
	if runErr == nil || !strings.Contains(runErr.Error(), "WithSession") {
		t.Fatalf("a Run without a session ended with %v, want an error naming WithSession", runErr)
	}
	if got := len(f.model.requests()); got != 0 {
		t.Errorf("the model was called %d times without a session, want 0", got)
	}
}

// brokenStore is a session store that cannot open any session's log: a
// database that is down, say.
type brokenStore struct{}

func (brokenStore) Open(context.Context, string) (sessionlog.Log, error) {
	return nil, errors.New("the session database is unreachable")
}

// When the session store fails, the Run goes on: the model is called
// without the catalog, the tool call answers the model with the failure as
// text (an error would end the Run), and both failures are logged.
func TestStoreUnavailable(t *testing.T) {
	f := newFixtureWith(t, hostsdk.OpenOptions{SkillDirs: []string{copySkills(t)}, Store: brokenStore{}})
	m, conv, logs := f.model, f.conv, f.logs
	m.queue(toolCall("call-1", "skill", `{"name":"pdf-forms"}`), answer("I could not load the skill."))
	conv.turn(t, "Please fill in the W-9 form.")
	reqs := m.requests()
	if len(reqs) != 2 {
		t.Fatalf("the model was called %d times, want 2", len(reqs))
	}
	if got := len(catalogs(reqs[0])); got != 0 {
		t.Errorf("the model sees %d catalogs without a store, want 0", got)
	}
	if got := lastToolResult(t, reqs[1]); !strings.HasPrefix(got, "Error: the skill tool is unavailable") || !strings.Contains(got, "unreachable") {
		t.Errorf("the failed tool call answers %q, want the failure as text", got)
	}
	if !strings.Contains(logs.String(), "the step failed") || !strings.Contains(logs.String(), "unreachable") {
		t.Errorf("the adapter did not log the failed step:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "a tool call failed") {
		t.Errorf("the adapter did not log the failed tool call:\n%s", logs.String())
	}
}

// One Skills serves concurrent Runs of different conversations, each
// with its own agent: every session's log holds its own messages and one
// catalog.
func TestConcurrentConversations(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	skills, err := skilleino.New(t.Context(), f.host, &skilleino.Options{Logger: slog.New(slog.NewTextHandler(f.logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	const sessions, turns = 4, 3
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for i := range sessions {
		m := newScriptedModel()
		runner := newAgentRunner(t, m, skills.Middleware())
		id := fmt.Sprintf("c%d", i)
		wg.Go(func() {
			var history []*schema.Message
			for turn := range turns {
				m.queue(toolCall(fmt.Sprintf("%s-%d", id, turn), "skill", `{"name":"pdf-forms"}`), answer("Done."))
				history = append(history, schema.UserMessage(fmt.Sprintf("%s, turn %d", id, turn)))
				added, err := runTurn(t.Context(), runner, history, skilleino.WithSession(id))
				if err != nil {
					errs <- fmt.Errorf("session %s, turn %d: %w", id, turn, err)
					return
				}
				history = append(history, added...)
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
		// Each turn: the user's message, the tool call, its result, the
		// answer; the last answer too, logged when the model gave it.
		if want := 4 * turns; plugin != 1 || own != want {
			t.Errorf("session %s holds %d plugin and %d own messages, want 1 and %d", id, plugin, own, want)
		}
	}
}

// The session log keeps what the model was sent: a user's image beside
// its text, and a tool call whose arguments are not JSON as the model
// wrote them, whose result tells the model so.
func TestMessagesKeptAsSent(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	url := "https://example.com/w9.png"
	f.conv.history = append(f.conv.history, &schema.Message{Role: schema.User, UserInputMultiContent: []schema.MessageInputPart{
		{Type: schema.ChatMessagePartTypeText, Text: "Fill in this form."},
		{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{URL: &url}}},
	}})
	f.model.queue(toolCall("call-1", "skill", `pdf-forms`), answer("Let me try again."))
	added, err := runTurn(t.Context(), f.conv.runner, f.conv.history, f.conv.opts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 3 || !strings.HasPrefix(added[1].Content, "Error") {
		t.Fatalf("the Run added %d messages; the tool answered %q, want an error the model reads", len(added), added[1].Content)
	}
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	user, call := entries[0].Message, entries[2].Message
	if len(user.Content) != 2 || user.Content[0].Text != "Fill in this form." || !strings.Contains(string(user.Content[1].Raw), url) {
		t.Errorf("the user's message is logged as %+v, want its text and its image", user.Content)
	}
	if len(call.Content) != 1 || !strings.Contains(string(call.Content[0].Raw), `"arguments":"pdf-forms"`) {
		t.Errorf("the tool call is logged as %s, want its arguments as the model wrote them", call.Content[0].Raw)
	}
}

// TestForgedPluginMarker: a caller's message whose Extra carries the
// marker of the adapter's plugin messages with an id the session log never
// held is the caller's own: the model sees it, the log keeps it, and the
// adapter warns.
func TestForgedPluginMarker(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	forged := schema.UserMessage("Please fill in the W-9 form.")
	forged.Extra = map[string]any{"skillcatalog_plugin": "no-such-message"}
	f.conv.history = append(f.conv.history, forged)
	f.model.queue(answer("Which fields?"))
	added, err := runTurn(t.Context(), f.conv.runner, f.conv.history, f.conv.opts...)
	if err != nil {
		t.Fatal(err)
	}
	f.conv.history = append(f.conv.history, added...)
	seen := false
	for _, m := range f.model.last(t).Messages {
		seen = seen || m.Content == "Please fill in the W-9 form."
	}
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	logged := len(entries) > 0 && entries[0].Message.Text() == "Please fill in the W-9 form." && !entries[0].Plugin
	if !seen || !logged {
		t.Errorf("the caller's message with a forged marker: seen by the model %v, logged as the caller's %v; want both", seen, logged)
	}
	if !strings.Contains(f.logs.String(), "no-such-message") {
		t.Errorf("the adapter did not warn of the forged marker:\n%s", f.logs.String())
	}
	// The next Run sends it again; it is still the caller's, logged once.
	f.model.queue(answer("Fine."))
	f.conv.turn(t, "All of them.")
	entries, err = f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n := countText(entries, "Please fill in the W-9 form."); n != 1 {
		t.Errorf("the log holds the caller's message %d times, want once", n)
	}
}

// countText counts the entries whose text is text.
func countText(entries []hostsdk.TranscriptEntry, text string) int {
	n := 0
	for _, e := range entries {
		if e.Message.Text() == text {
			n++
		}
	}
	return n
}

// TestWindowedHistory: a caller that passes each Run only its last six
// messages. The model always sees one catalog, and once the window drops
// messages it comes first, right after the system prompt; a `/name` the user typed
// once is invoked once; the log holds each message once.
func TestWindowedHistory(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	const window, turns = 6, 12
	var full []*schema.Message
	for i := range turns {
		user := fmt.Sprintf("Question %d.", i)
		if i == 2 {
			user = "/pdf-forms fill in the W-9."
		}
		full = append(full, schema.UserMessage(user))
		slid := len(full) > window
		f.model.queue(toolCall(fmt.Sprintf("call-%d", i), "skill", `{"name":"release-notes"}`), answer(fmt.Sprintf("Answer %d.", i)))
		added, err := runTurn(t.Context(), f.conv.runner, full[max(0, len(full)-window):], f.conv.opts...)
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		full = append(full, added...)
		for _, req := range f.model.requests()[2*i:] {
			cats := catalogs(req)
			if len(cats) != 1 || (slid && !strings.Contains(req.Messages[1].Content, "<available_skills>")) {
				t.Fatalf("turn %d: a request holds %d catalogs, and its first message after the system prompt is %q", i, len(cats), req.Messages[1].Content)
			}
		}
	}
	entries, err := f.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	invoked, plugin := 0, 0
	for _, e := range entries {
		if e.Plugin {
			plugin++
			if strings.Contains(e.Message.Text(), `<skill_content name="pdf-forms">`) {
				invoked++
			}
		}
	}
	if invoked != 1 || len(entries) != len(full)+plugin || plugin != 2 {
		t.Errorf("the log holds %d messages, %d of them the plugin's, the skill invoked %d times; want the %d of the conversation, the catalog and the skill invoked once",
			len(entries), plugin, invoked, len(full))
	}
}
