package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// syncEnv is a host made by Open over a skills directory and a session
// directory of its own, with the plugin binary.
type syncEnv struct {
	t                     *testing.T
	skillsDir, sessionDir string
	cwd                   string
}

func newSyncEnv(t *testing.T) *syncEnv {
	t.Helper()
	t.Setenv("HOME", t.TempDir()) // no user-level skills of the machine's
	e := &syncEnv{t: t, skillsDir: t.TempDir(), sessionDir: t.TempDir(), cwd: t.TempDir()}
	e.writeSkill("alpha", "First skill.", "Do alpha.")
	e.writeSkill("beta", "Second skill.", "Do beta.")
	return e
}

func (e *syncEnv) writeSkill(name, desc, body string) {
	e.t.Helper()
	dir := filepath.Join(e.skillsDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.t.Fatal(err)
	}
	text := fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n%s\n", name, desc, body)
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// open opens a host as a runtime would at start-up, and a handle on
// session s1.
func (e *syncEnv) open() (*hostsdk.Host, *hostsdk.Session) {
	e.t.Helper()
	host, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{
		SkillDirs: []string{e.skillsDir}, SessionDir: e.sessionDir,
		Launcher: pluginproc.Binary{Path: pluginPath}, Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { host.Close() })
	return host, host.Session("s1", &hostsdk.SessionOptions{Cwd: e.cwd})
}

func userMsg(text string) hostsdk.Message {
	return hostsdk.Message{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(text)}}
}

func assistantMsg(text string) hostsdk.Message {
	return hostsdk.Message{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(text)}}
}

// shape renders a view as one token per message: the history index of a
// runtime message, or the kind of a plugin message with the skills it
// lists.
func shape(view []hostsdk.ViewMessage) string {
	var parts []string
	for _, v := range view {
		if !v.Plugin {
			parts = append(parts, fmt.Sprint(v.HistoryIndex))
			continue
		}
		if kind, skills, ok := events.ParseLoads(v.Message.Source); ok && kind == events.ReattachKind {
			var names []string
			for _, l := range skills {
				names = append(names, l.Name)
			}
			parts = append(parts, "reattach("+strings.Join(names, ",")+")")
			continue
		}
		var src struct {
			Kind    string `json:"kind"`
			Update  bool   `json:"update"`
			Entries []struct {
				Name string `json:"name"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(v.Message.Source, &src); err != nil {
			parts = append(parts, "bad-source")
			continue
		}
		var names []string
		for _, e := range src.Entries {
			names = append(names, e.Name)
		}
		kind := "catalog"
		if src.Update {
			kind = "update"
		}
		parts = append(parts, kind+"("+strings.Join(names, ",")+")")
	}
	return strings.Join(parts, " ")
}

func mustSync(t *testing.T, s *hostsdk.Session, history []hostsdk.Message) hostsdk.SyncResult {
	t.Helper()
	res, err := s.Sync(context.Background(), history)
	if err != nil {
		t.Fatalf("Sync: %v", err)
	}
	return res
}

func checkSync(t *testing.T, what string, res hostsdk.SyncResult, outcome hostsdk.Outcome, appended int, view string) {
	t.Helper()
	if res.Outcome != outcome || len(res.Appended) != appended || shape(res.View) != view {
		t.Errorf("%s: outcome %s, %d appended, view %q; want %s, %d, %q", what, res.Outcome, len(res.Appended), shape(res.View), outcome, appended, view)
	}
}

// TestSyncMirrorsAFrameworksHistory: the framework hands its whole history
// at every call; the catalog is published once, spliced back at its place
// on every later call, and never appended twice.
func TestSyncMirrorsAFrameworksHistory(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	history := []hostsdk.Message{userMsg("Fill in the form.")}
	checkSync(t, "first call", mustSync(t, s, history), hostsdk.OutcomeInitial, 2, "0 catalog(alpha,beta)")

	history = append(history, assistantMsg("Done."), userMsg("Thanks. And the next one?"))
	res := mustSync(t, s, history)
	checkSync(t, "second run", res, hostsdk.OutcomeUnchanged, 2, "0 catalog(alpha,beta) 1 2")
	if res.View[3].Message.Text() != "Thanks. And the next one?" {
		t.Errorf("the view's last message is %q, want the history's own", res.View[3].Message.Text())
	}

	// The same history again (a retried call): nothing appended.
	checkSync(t, "the same history again", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 0, "0 catalog(alpha,beta) 1 2")

	// A framework that keeps what it was sent hands the catalog back: it is
	// recognised, not mirrored.
	var withCatalog []hostsdk.Message
	for _, v := range res.View {
		withCatalog = append(withCatalog, v.Message)
	}
	checkSync(t, "the view handed back", mustSync(t, s, withCatalog), hostsdk.OutcomeUnchanged, 0, "0 catalog(alpha,beta) 2 3")

	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, en := range entries {
		got = append(got, fmt.Sprintf("%s/%v/%v", en.Message.Role, en.Plugin, en.Message.UserInput))
	}
	want := []string{"user/false/true", "user/true/false", "assistant/false/false", "user/false/true"}
	if !slices.Equal(got, want) {
		t.Errorf("the log holds %v, want %v", got, want)
	}
}

// TestSyncAcrossARestart: a new Host on the same store and skills reads
// the session's log, republishes nothing, and splices the catalog back.
func TestSyncAcrossARestart(t *testing.T) {
	e := newSyncEnv(t)
	host, s := e.open()
	history := []hostsdk.Message{userMsg("one"), assistantMsg("two")}
	mustSync(t, s, history)
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	_, s = e.open()
	history = append(history, userMsg("three"))
	checkSync(t, "after the restart", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 1, "0 1 catalog(alpha,beta) 2")
}

// TestSyncPublishesAChangeOnce: a skill added on disk between runs is one
// replacement, after the messages of the run it arrived in.
func TestSyncPublishesAChangeOnce(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	history := []hostsdk.Message{userMsg("one")}
	mustSync(t, s, history)
	e.writeSkill("gamma", "Third skill.", "Do gamma.")
	history = append(history, assistantMsg("two"), userMsg("three"))
	res := syncUntil(t, s, history, hostsdk.OutcomeReplacement)
	checkSync(t, "after the change", res, hostsdk.OutcomeReplacement, len(res.Appended), "0 catalog(alpha,beta) 1 2 update(alpha,beta,gamma)")
	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 5 {
		t.Errorf("the log holds %d messages, want 5: the history's three and two catalogs", len(entries))
	}
	checkSync(t, "the next call", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 0, "0 catalog(alpha,beta) 1 2 update(alpha,beta,gamma)")
}

// syncUntil syncs the same history until the step's outcome is want: the
// provider sees a change on disk once its watcher has.
func syncUntil(t *testing.T, s *hostsdk.Session, history []hostsdk.Message, want hostsdk.Outcome) hostsdk.SyncResult {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := mustSync(t, s, history)
		if res.Outcome == want || time.Now().After(deadline) {
			return res
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSyncTakesAShorterHistoryAsACompaction: a framework that summarises
// its history drops what the log holds; Sync records it as compacted, and
// the catalog it held is published again, once.
func TestSyncTakesAShorterHistoryAsACompaction(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	history := []hostsdk.Message{userMsg("one"), assistantMsg("two"), userMsg("three")}
	mustSync(t, s, history)
	summarised := []hostsdk.Message{userMsg("Summary: one, two, three."), userMsg("four")}
	// The catalog went with what the summary replaced: it comes back as a
	// complete replacement.
	checkSync(t, "after the summary", mustSync(t, s, summarised), hostsdk.OutcomeReplacement, 3, "0 1 update(alpha,beta)")
	checkSync(t, "the next call", mustSync(t, s, summarised), hostsdk.OutcomeUnchanged, 0, "0 1 update(alpha,beta)")

	// An edit keeps what came before the edited message: the summary.
	edited := []hostsdk.Message{summarised[0], userMsg("four, edited")}
	checkSync(t, "after an edit", mustSync(t, s, edited), hostsdk.OutcomeReplacement, 2, "0 1 update(alpha,beta)")

	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var visible []string
	for _, en := range entries {
		if en.Visible {
			visible = append(visible, en.Message.Text())
		}
	}
	if len(visible) != 3 || visible[0] != "Summary: one, two, three." || visible[1] != "four, edited" {
		t.Errorf("the log's visible messages are %q", visible)
	}
}

// TestSyncUsesTheFrameworksIDs: given IDs are the log's; messages without
// derive the same IDs from the same history.
func TestSyncUsesTheFrameworksIDs(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	first := userMsg("one")
	first.ID = "event-17"
	history := []hostsdk.Message{first, assistantMsg("two")}
	mustSync(t, s, history)
	mustSync(t, s, history)
	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || entries[0].Message.ID != "event-17" || !strings.HasPrefix(entries[1].Message.ID, "h-") {
		t.Fatalf("the log holds %+v", entries)
	}
	// A copy of the history, not the same values, derives the same IDs.
	again := []hostsdk.Message{first, assistantMsg("two"), userMsg("three")}
	checkSync(t, "a copy", mustSync(t, s, again), hostsdk.OutcomeUnchanged, 1, "0 1 catalog(alpha,beta) 2")
}

// TestSyncKeepsTheHistoryWhenThePluginFails: a step that fails open still
// appends the framework's messages, and the next call goes on from them.
func TestSyncKeepsTheHistoryWhenThePluginFails(t *testing.T) {
	e := newEnv(t, hostsdk.Options{PreStepTimeout: 300 * time.Millisecond})
	e.mount(tools.GlobalScope)
	blocking := newBlockingProvider()
	e.reg.AddProvider(tools.GlobalScope, blocking, nil)
	s := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"})
	history := []hostsdk.Message{userMsg("one")}
	res, err := s.Sync(context.Background(), history)
	var hostErr *hostsdk.HostError
	if !errors.As(err, &hostErr) {
		t.Fatalf("Sync with a hung provider: %v, want a *HostError", err)
	}
	if res.Outcome != hostsdk.OutcomePluginError || len(res.Appended) != 1 || shape(res.View) != "0" {
		t.Fatalf("the failed step: outcome %s, appended %v, view %q; want the history appended and sent", res.Outcome, res.Appended, shape(res.View))
	}
	blocking.SetHang(skilltest.OpList, false)
	history = append(history, assistantMsg("two"))
	checkSync(t, "after the failure", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 1, "0 1")
}

// TestSessionToolsAreTheMountsOwn: the handle offers the mount's tools as
// the agent sees them, and runs their calls.
func TestSessionToolsAreTheMountsOwn(t *testing.T) {
	e := newSyncEnv(t)
	host, s := e.open()
	var names []string
	for _, d := range s.Tools() {
		if len(d.InputSchema) == 0 || d.Description == "" {
			t.Errorf("tool %s comes without a schema or description", d.Name)
		}
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"skill", "skill_resource"}) {
		t.Fatalf("Tools() = %v", names)
	}
	res, err := s.CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil || res.IsError || !strings.Contains(res.Text, "Do alpha.") {
		t.Fatalf("CallTool(skill alpha) = %q, %v", res.Text, err)
	}
	if _, err := host.Session("s2", &hostsdk.SessionOptions{Cwd: "relative/dir"}).Sync(context.Background(), nil); !errors.Is(err, hostsdk.ErrRelativeCwd) {
		t.Errorf("a session with a relative directory: %v, want ErrRelativeCwd", err)
	}
	if _, err := host.Session("s2", &hostsdk.SessionOptions{AgentScope: "agent:nobody"}).Step(context.Background(), hostsdk.Decision{}, nil); !errors.Is(err, tools.ErrUnknownScope) {
		t.Errorf("a session in an unknown scope: %v, want ErrUnknownScope", err)
	}
}

// TestStepsOfOneSessionTakeTurns: goroutines stepping one session through
// one host never fail, however they interleave (a step that kept losing
// the append to faster ones used to give up after 16 attempts).
func TestStepsOfOneSessionTakeTurns(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.mount(tools.GlobalScope)
	e.register(tools.GlobalScope, "alpha", "First skill.")
	const workers, steps = 4, 150
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for i := range steps {
				msg := userMsg(fmt.Sprintf("worker %d step %d", w, i))
				msg.ID = fmt.Sprintf("w%d-%d", w, i)
				_, err := e.host.Session("s", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: []hostsdk.Message{msg}}, nil)
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatalf("a step failed: %v", err)
		}
	}
	entries, err := e.host.Session("s", nil).Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	catalogs := 0
	for _, en := range entries {
		if en.Plugin {
			catalogs++
		}
	}
	if len(entries) != workers*steps+1 || catalogs != 1 {
		t.Errorf("the log holds %d messages, %d of them catalogs; want %d and 1", len(entries), catalogs, workers*steps+1)
	}
}

// TestStepsOfTwoHostsOnOneStoreDoNotStarve: two hosts sharing a session
// store step one session at once; every step lands, the catalog once.
func TestStepsOfTwoHostsOnOneStoreDoNotStarve(t *testing.T) {
	store := sessionlog.NewMemoryStore()
	var hosts []*hostsdk.Host
	for range 2 {
		tree, reg := tools.NewTree(), skilltest.NewRegistry(t)
		if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
			t.Fatal(err)
		}
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "First skill.", Content: "x"}); err != nil {
			t.Fatal(err)
		}
		h, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		p, err := h.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, h)
	}
	const perHost, steps = 3, 120
	errs := make(chan error, 2*perHost)
	for hi, host := range hosts {
		for w := range perHost {
			go func() {
				for i := range steps {
					msg := userMsg("x")
					msg.ID = fmt.Sprintf("h%d-w%d-%d", hi, w, i)
					if _, err := host.Session("s", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: []hostsdk.Message{msg}}, nil); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
	}
	for range 2 * perHost {
		if err := <-errs; err != nil {
			t.Fatalf("a step failed: %v", err)
		}
	}
	entries, err := hosts[0].Session("s", nil).Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	catalogs := 0
	for _, en := range entries {
		if en.Plugin {
			catalogs++
		}
	}
	if len(entries) != 2*perHost*steps+1 || catalogs != 1 {
		t.Errorf("the log holds %d messages, %d of them catalogs; want %d and 1", len(entries), catalogs, 2*perHost*steps+1)
	}
}

// TestRecordLogsARunsLastMessages: what a run adds after its last model
// call reaches the log without a step, and the next Sync goes on from it.
func TestRecordLogsARunsLastMessages(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	history := []hostsdk.Message{userMsg("one")}
	mustSync(t, s, history)
	history = append(history, assistantMsg("The final answer."))
	if err := s.Record(context.Background(), history); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(context.Background(), history); err != nil {
		t.Fatal(err)
	}
	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || entries[2].Message.Text() != "The final answer." {
		t.Fatalf("the log holds %d messages, the last %q; want the answer recorded once", len(entries), entries[len(entries)-1].Message.Text())
	}
	history = append(history, userMsg("two"))
	checkSync(t, "the next run", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 1, "0 catalog(alpha,beta) 1 2")
}

// TestSyncWithNoMount: a host with no plugin mounted steps without it, and
// the history still reaches the log (this used to panic).
func TestSyncWithNoMount(t *testing.T) {
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: registry, Sessions: sessionlog.NewMemoryStore(),
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	s := host.Session("s1", nil)
	res, err := s.Sync(context.Background(), []hostsdk.Message{userMsg("one")})
	if err != nil || res.Outcome != hostsdk.OutcomeNoPlugin || len(res.Appended) != 1 || shape(res.View) != "0" {
		t.Fatalf("Sync with no mount: outcome %s, appended %v, view %q, err %v; want no-plugin, the message appended", res.Outcome, res.Appended, shape(res.View), err)
	}
}

// TestSyncWithAMessageWindow: a framework that sends the model only its
// last messages (the most common truncation) loses messages from the
// front of its history at every call. Sync hides only those, appends only
// what is new, keeps the catalog before the window where the model sees
// it, and takes a user's `/name` once.
func TestSyncWithAMessageWindow(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	const window, steps, invokedAt = 6, 300, 40
	var full []hostsdk.Message
	var last hostsdk.SyncResult
	invocations, published, badViews := 0, 0, 0
	for i := range steps {
		text := fmt.Sprintf("question %d", i)
		if i == invokedAt {
			text = "/alpha question " + fmt.Sprint(i)
		}
		full = append(full, userMsg(text))
		history := full[max(0, len(full)-window):]
		last = mustSync(t, s, history)
		invocations += len(last.Invocations)
		switch last.Outcome {
		case hostsdk.OutcomeInitial, hostsdk.OutcomeReplacement, hostsdk.OutcomeTombstone:
			published++
		}
		var runtime []int
		catalogs := 0
		for _, v := range last.View {
			switch {
			case !v.Plugin:
				runtime = append(runtime, v.HistoryIndex)
			case events.IsCatalogKind(v.Message.Source):
				catalogs++
			}
		}
		var bad string
		switch {
		case catalogs != 1 || !slices.Equal(runtime, seq(len(history))):
			bad = fmt.Sprintf("holds %d catalogs and the history's messages %v; want one catalog and the window's %d messages", catalogs, runtime, len(history))
		case i >= window && !events.IsCatalogKind(last.View[0].Message.Source):
			bad = "does not start with the catalog"
		}
		if bad != "" {
			if badViews == 0 {
				t.Errorf("step %d: the view %q %s", i, shape(last.View), bad)
			}
			badViews++
		}
		full = append(full, assistantMsg(fmt.Sprintf("answer %d", i)))
	}
	if invocations != 1 || published != 1 || badViews != 0 {
		t.Errorf("over %d steps the /alpha typed once was invoked %d times, a catalog published %d times, and %d views were wrong; want 1, 1 and 0", steps, invocations, published, badViews)
	}
	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	plugin := 0
	var visible []string
	for _, en := range entries {
		if en.Plugin {
			plugin++
		}
		if en.Visible {
			visible = append(visible, en.Message.Text())
		}
	}
	if len(entries) > len(full)+plugin || plugin != 2 {
		t.Errorf("the log holds %d messages, %d of them the plugin's, for a conversation of %d; want at most %d, 2 of them the plugin's", len(entries), plugin, len(full), len(full)+2)
	}
	var sent []string
	for _, v := range last.View {
		sent = append(sent, v.Message.Text())
	}
	if !slices.Equal(visible, sent) {
		t.Errorf("the log's visible messages are not what the model was last sent:\n%q\nwant\n%q", visible, sent)
	}
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// conversationOf returns n messages of a conversation, a user's and the
// model's in turn.
func conversationOf(n int) []hostsdk.Message {
	out := make([]hostsdk.Message, n)
	for i := range out {
		if i%2 == 0 {
			out[i] = userMsg(fmt.Sprintf("question %d", i/2))
		} else {
			out[i] = assistantMsg(fmt.Sprintf("answer %d", i/2))
		}
	}
	return out
}

// TestSyncLinesAHistoryUpWithTheLog: how Sync takes each way a framework
// may cut its history. Every case first syncs the first calls of a
// conversation whole; the view's runtime messages are always the
// history's, and the log's visible messages what the view shows.
func TestSyncLinesAHistoryUpWithTheLog(t *testing.T) {
	conv := conversationOf(12)
	for _, tc := range []struct {
		name string
		// synced is how many messages of conv were synced whole, one
		// call per message; then history is sent.
		synced  int
		history []hostsdk.Message
		outcome hostsdk.Outcome
		// appended counts the messages the last call appended;
		// transcript the log's messages afterwards.
		appended, transcript int
		view                 string
	}{
		{"the front dropped", 8, conv[3:9], hostsdk.OutcomeUnchanged, 1, 10, "catalog(alpha,beta) 0 1 2 3 4 5"},
		{"the front dropped twice over", 8, conv[6:9], hostsdk.OutcomeUnchanged, 1, 10, "catalog(alpha,beta) 0 1 2"},
		{"the first message kept, the middle dropped", 8, append([]hostsdk.Message{conv[0]}, conv[5:9]...), hostsdk.OutcomeUnchanged, 1, 10, "0 catalog(alpha,beta) 1 2 3 4"},
		{"the front dropped and the last message edited", 8, append(slices.Clone(conv[4:7]), userMsg("question 3, edited")), hostsdk.OutcomeUnchanged, 1, 10, "catalog(alpha,beta) 0 1 2 3"},
		{"the front dropped and nothing new", 8, conv[2:8], hostsdk.OutcomeUnchanged, 0, 9, "catalog(alpha,beta) 0 1 2 3 4 5"},
		// A history that holds none of the log's messages is a
		// compaction of them all: the catalog went with them.
		{"nothing the log holds", 8, conv[9:12], hostsdk.OutcomeReplacement, 4, 13, "0 1 2 update(alpha,beta)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newSyncEnv(t)
			_, s := e.open()
			for i := 1; i <= tc.synced; i++ {
				mustSync(t, s, conv[:i])
			}
			checkSync(t, "the cut history", mustSync(t, s, tc.history), tc.outcome, tc.appended, tc.view)
			res := mustSync(t, s, tc.history)
			checkSync(t, "the same again", res, hostsdk.OutcomeUnchanged, 0, tc.view)
			entries, err := s.Transcript(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var visible, sent []string
			for _, en := range entries {
				if en.Visible {
					visible = append(visible, en.Message.Text())
				}
			}
			for _, v := range res.View {
				sent = append(sent, v.Message.Text())
			}
			if len(entries) != tc.transcript || !slices.Equal(visible, sent) {
				t.Errorf("the log holds %d messages, the visible ones %q; want %d, and what the view shows: %q", len(entries), visible, tc.transcript, sent)
			}
		})
	}
}

// TestSyncWithAMessageWindowAfterAChange: a replacement the window lost
// stays in its place, the catalog it replaced goes; after a restart the
// window goes on from the log with nothing published or invoked again.
func TestSyncWithAMessageWindowAfterAChange(t *testing.T) {
	e := newSyncEnv(t)
	host, s := e.open()
	const window = 4
	conv := conversationOf(40)
	conv[14] = userMsg("/beta now")
	step := func(s *hostsdk.Session, n int) hostsdk.SyncResult {
		return mustSync(t, s, conv[max(0, n-window):n])
	}
	for n := 1; n <= 9; n += 2 {
		step(s, n)
	}
	e.writeSkill("gamma", "Third skill.", "Do gamma.")
	res := syncUntil(t, s, conv[11-window:11], hostsdk.OutcomeReplacement)
	// The first catalog stays before the window until the window moves.
	checkSync(t, "the change", res, hostsdk.OutcomeReplacement, len(res.Appended), "catalog(alpha,beta) 0 1 2 3 update(alpha,beta,gamma)")
	checkSync(t, "the window past the first catalog", step(s, 13), hostsdk.OutcomeUnchanged, 2, "0 1 update(alpha,beta,gamma) 2 3")
	res = step(s, 15)
	if len(res.Invocations) != 1 {
		t.Fatalf("the /beta step invoked %d skills, want 1", len(res.Invocations))
	}
	// The window moved past the /beta message without holding the log's
	// messages in order, which Sync takes as a compaction: the skill the
	// user invoked is attached again, once; from then on the window keeps
	// it before its first message, as it keeps the catalog.
	checkSync(t, "the window past the replacement", step(s, 19), hostsdk.OutcomeUnchanged, 5, "update(alpha,beta,gamma) 0 1 2 3 reattach(beta)")
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	_, s = e.open()
	invoked := 0
	for n := 21; n <= 39; n += 2 {
		res := step(s, n)
		invoked += len(res.Invocations)
		want := "update(alpha,beta,gamma) reattach(beta) 0 1 2 3"
		if n == 21 {
			want = "update(alpha,beta,gamma) 0 1 reattach(beta) 2 3" // not passed yet
		}
		checkSync(t, fmt.Sprintf("after the restart, %d messages", n), res, hostsdk.OutcomeUnchanged, 2, want)
	}
	entries, err := s.Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	plugin := 0
	for _, en := range entries {
		if en.Plugin {
			plugin++
		}
	}
	if invoked != 0 || len(entries) != 39+4 || plugin != 4 {
		t.Errorf("after the restart %d invocations; the log holds %d messages, %d of them the plugin's; want none, 43 and 4", invoked, len(entries), plugin)
	}
}

// TestSyncKnowsAPluginMessageByItsID: a framework that keeps only the ID
// of a plugin message it was sent hands it back as the plugin's; a
// message with an ID no plugin message of the log has is the runtime's.
func TestSyncKnowsAPluginMessageByItsID(t *testing.T) {
	e := newSyncEnv(t)
	_, s := e.open()
	history := []hostsdk.Message{userMsg("one")}
	res := mustSync(t, s, history)
	catalog := res.View[1].Message
	kept := hostsdk.Message{ID: catalog.ID, Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("anything")}}
	history = append(history, kept, assistantMsg("two"))
	checkSync(t, "the catalog by its ID", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 1, "0 catalog(alpha,beta) 2")
	forged := userMsg("three")
	forged.ID = "skill-catalog-never-logged"
	history = append(history, forged)
	checkSync(t, "an ID the log never held", mustSync(t, s, history), hostsdk.OutcomeUnchanged, 1, "0 catalog(alpha,beta) 2 3")
}
