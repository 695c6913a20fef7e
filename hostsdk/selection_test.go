package hostsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog/pglog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

const unknownSkill = `Error: skill "%s" is unknown or no longer available`

// callSkill calls the `skill` tool for name in session as agent:a.
func (e *env) callSkill(session, name string) hostsdk.ToolResult {
	e.t.Helper()
	args, _ := json.Marshal(map[string]string{"name": name})
	out, err := e.host.Session(session, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: args})
	if err != nil {
		e.t.Fatalf("CallTool(%s, %s): %v", session, name, err)
	}
	return out
}

func (e *env) selectSkills(session string, sel hostsdk.Selection) {
	e.t.Helper()
	if err := e.host.Session(session, nil).SelectSkills(context.Background(), sel); err != nil {
		e.t.Fatalf("SelectSkills(%s, %+v): %v", session, sel, err)
	}
}

func expectUnknown(t *testing.T, out hostsdk.ToolResult, name string) {
	t.Helper()
	if want := strings.Replace(unknownSkill, "%s", name, 1); !out.IsError || out.Text != want {
		t.Fatalf("skill %q answered %q (error %v), want %q", name, out.Text, out.IsError, want)
	}
}

func expectLoaded(t *testing.T, out hostsdk.ToolResult, name string) {
	t.Helper()
	if out.IsError || out.Value == nil || out.Value.Name != name {
		t.Fatalf("skill %q answered %q (error %v), want its content", name, out.Text, out.IsError)
	}
}

// TestSelectionExcludeAndClear: excluding a skill publishes a replacement
// without it and the tool answers it unknown; clearing the selection
// publishes a replacement with it back.
func TestSelectionExcludeAndClear(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	for _, n := range []string{"alpha", "beta", "gamma"} {
		e.register(tools.GlobalScope, n, "Skill "+n+".")
	}
	e.mount(tools.GlobalScope)
	ctx := context.Background()

	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha", "beta", "gamma")
	e.selectSkills("s1", hostsdk.Selection{ExcludeNames: []string{"beta", "beta", "absent"}})
	got, err := e.host.Session("s1", nil).Selection(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(hostsdk.Selection{ExcludeNames: []string{"absent", "beta"}}, got); d != "" {
		t.Fatalf("Selection, normalized (-want +got):\n%s", d)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "alpha", "gamma")
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	expectUnknown(t, e.callSkill("s1", "beta"), "beta")
	expectLoaded(t, e.callSkill("s1", "alpha"), "alpha")

	// Another session in the same place is not affected, and steps of the
	// two interleave without either republishing.
	expect(t, e.step("s2", "agent:a"), hostsdk.OutcomeInitial, "alpha", "beta", "gamma")
	expectLoaded(t, e.callSkill("s2", "beta"), "beta")
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	expect(t, e.step("s2", "agent:a"), hostsdk.OutcomeUnchanged)

	// The same selection again writes nothing.
	before := logLength(t, e.store, "s1")
	e.selectSkills("s1", hostsdk.Selection{ExcludeNames: []string{"absent", "beta"}})
	if n := logLength(t, e.store, "s1"); n != before {
		t.Fatalf("re-selecting the selection in effect grew the log from %d to %d events", before, n)
	}

	e.selectSkills("s1", hostsdk.Selection{})
	if got, err := e.host.Session("s1", nil).Selection(ctx); err != nil || !got.IsZero() {
		t.Fatalf("Selection after clearing = %+v, %v; want the zero selection", got, err)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "alpha", "beta", "gamma")
	expectLoaded(t, e.callSkill("s1", "beta"), "beta")
}

// TestSelectionIncludeOnly: with inclusions, only the included skills are
// listed and loadable; exclusion wins over inclusion.
func TestSelectionIncludeOnly(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	for _, n := range []string{"alpha", "beta", "gamma"} {
		e.register(tools.GlobalScope, n, "Skill "+n+".")
	}
	e.mount(tools.GlobalScope)

	e.selectSkills("s1", hostsdk.Selection{IncludeNames: []string{"gamma", "alpha"}})
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha", "gamma")
	expectUnknown(t, e.callSkill("s1", "beta"), "beta")
	expectLoaded(t, e.callSkill("s1", "gamma"), "gamma")

	e.selectSkills("s1", hostsdk.Selection{IncludeNames: []string{"alpha", "gamma"}, ExcludeNames: []string{"gamma"}})
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "alpha")
	expectUnknown(t, e.callSkill("s1", "gamma"), "gamma")

	// A skill added later is not included.
	e.register(tools.GlobalScope, "delta", "Skill delta.")
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	expectUnknown(t, e.callSkill("s1", "delta"), "delta")
}

// TestSelectionByProvider: excluding a provider hides all of its skills,
// and the provider is never asked to load one; including a provider adds
// its skills to the included names.
func TestSelectionByProvider(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "local", "A runtime skill.")
	remote := skilltest.New(&skilltest.Options{Label: "remote"})
	remote.SetSkills(
		skilltest.Skill{Summary: skill.Summary{Name: "fetch", Description: "A remote skill.", Invocation: skill.DefaultPolicy()}, Content: "Fetch."},
		skilltest.Skill{Summary: skill.Summary{Name: "push", Description: "Another remote skill.", Invocation: skill.DefaultPolicy()}, Content: "Push."},
	)
	e.reg.AddProvider(tools.GlobalScope, remote.As(skilltest.Invalidator), nil)
	e.mount(tools.GlobalScope)

	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "fetch", "local", "push")
	e.selectSkills("s1", hostsdk.Selection{ExcludeProviders: []string{"remote"}})
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "local")
	expectUnknown(t, e.callSkill("s1", "fetch"), "fetch")
	if loads := remote.Loads(); len(loads) != 0 {
		t.Fatalf("the excluded provider was asked to load %v", loads)
	}

	e.selectSkills("s1", hostsdk.Selection{IncludeProviders: []string{"remote"}, IncludeNames: []string{"local"}, ExcludeNames: []string{"push"}})
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "fetch", "local")
	expectLoaded(t, e.callSkill("s1", "fetch"), "fetch")
	expectUnknown(t, e.callSkill("s1", "push"), "push")

	e.selectSkills("s1", hostsdk.Selection{IncludeProviders: []string{skills.RuntimeProvider}})
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "local")
	expectUnknown(t, e.callSkill("s1", "push"), "push")
	if d := cmp.Diff([]string{"fetch"}, remote.Loads()); d != "" {
		t.Fatalf("provider loads (-want +got):\n%s", d)
	}
}

// TestSelectionSurvivesResume: a new Host on the same file store (the
// runtime restarted) keeps the session's selection: nothing is republished
// and the excluded skill stays unknown; a fork that copies the log keeps it
// too.
func TestSelectionSurvivesResume(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	open := func() *env {
		store, err := sessionlog.NewFileStore(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := &env{t: t, tree: tools.NewTree(), reg: skilltest.NewRegistry(t), store: store}
		if err := e.tree.AddScope("agent:a", tools.GlobalScope); err != nil {
			t.Fatal(err)
		}
		if e.host, err = hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: store, Logger: slog.New(slog.DiscardHandler)}); err != nil {
			t.Fatal(err)
		}
		if e.plugin, err = e.host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"alpha", "beta"} {
			e.register(tools.GlobalScope, n, "Skill "+n+".")
		}
		e.mount(tools.GlobalScope)
		return e
	}

	first := open()
	expect(t, first.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha", "beta")
	first.selectSkills("s1", hostsdk.Selection{ExcludeNames: []string{"beta"}})
	expect(t, first.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "alpha")
	if err := first.host.Close(); err != nil {
		t.Fatal(err)
	}

	second := open()
	t.Cleanup(func() { second.host.Close() })
	expectUnknown(t, second.callSkill("s1", "beta"), "beta")
	expect(t, second.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	if got, err := second.host.Session("s1", nil).Selection(ctx); err != nil || strings.Join(got.ExcludeNames, ",") != "beta" {
		t.Fatalf("resumed Selection = %+v, %v", got, err)
	}

	// A fork copies the parent's records, the selection's among them.
	copyLog(t, second.store, "s1", "fork")
	expect(t, second.step("fork", "agent:a"), hostsdk.OutcomeUnchanged)
	expectUnknown(t, second.callSkill("fork", "beta"), "beta")
	second.selectSkills("fork", hostsdk.Selection{})
	expect(t, second.step("fork", "agent:a"), hostsdk.OutcomeReplacement, "alpha", "beta")
	expect(t, second.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
}

// TestSelectionWrittenByAnotherHost: two hosts share a store, as replicas
// do; a selection one host records is honoured by the other's next step
// and tool call, whether the other host had already read the session or
// not.
func TestSelectionWrittenByAnotherHost(t *testing.T) {
	for _, kind := range []string{"file", "without-seeker", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "postgres" {
				// Two stores on one schema: the connections of two host
				// processes.
				testSelectionWrittenByAnotherHost(t, pgStores(t, 2))
				return
			}
			var store sessionlog.Store
			store, err := sessionlog.NewFileStore(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if kind == "without-seeker" {
				store = plainStore{store}
			}
			testSelectionWrittenByAnotherHost(t, []sessionlog.Store{store, store})
		})
	}
}

// pgStores opens n stores on one fresh PostgreSQL schema, dropped when the
// test ends; it skips the test without a server (testneeds.PostgresDSN).
func pgStores(t *testing.T, n int) []sessionlog.Store {
	t.Helper()
	dsn := testneeds.PostgresDSN(t)
	ctx := context.Background()
	schema := fmt.Sprintf("selection_%d_%d", os.Getpid(), time.Now().UnixNano())
	var stores []sessionlog.Store
	t.Cleanup(func() {
		for _, s := range stores {
			s.(*pglog.Store).Close()
		}
		conn, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	for i := 0; i < n; i++ {
		s, err := pglog.Open(ctx, dsn, &pglog.Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	return stores
}

// plainStore hands out logs with the methods of sessionlog.Log only, as a
// store that does not implement sessionlog.TypeSeeker would.
type plainStore struct{ sessionlog.Store }

func (s plainStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	return plainLog{l}, nil
}

type plainLog struct{ sessionlog.Log }

func testSelectionWrittenByAnotherHost(t *testing.T, stores []sessionlog.Store) {
	ctx := context.Background()
	store := stores[0]
	var reps []*replica
	for i, name := range []string{"r0", "r1"} {
		r, err := newReplica(ctx, name, pluginPath, stores[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.host.Close() })
		for _, n := range []string{"alpha", "beta"} {
			if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: n, Description: "Skill " + n + ".", Content: "Do " + n + "."}); err != nil {
				t.Fatal(err)
			}
		}
		reps = append(reps, r)
	}
	step := func(r *replica) hostsdk.StepResult {
		t.Helper()
		res, err := r.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	call := func(r *replica, name string) hostsdk.ToolResult {
		t.Helper()
		out, err := r.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"` + name + `"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	expect(t, step(reps[0]), hostsdk.OutcomeInitial, "alpha", "beta")
	expect(t, step(reps[1]), hostsdk.OutcomeUnchanged)
	if err := reps[1].host.Session("s1", nil).SelectSkills(ctx, hostsdk.Selection{ExcludeNames: []string{"alpha"}}); err != nil {
		t.Fatal(err)
	}
	// r0 knew the session before the selection was written.
	expectUnknown(t, call(reps[0], "alpha"), "alpha")
	expect(t, step(reps[0]), hostsdk.OutcomeReplacement, "beta")
	expect(t, step(reps[1]), hostsdk.OutcomeUnchanged)

	// A selection followed by many events before the next step: more than
	// a step carries inline, and more than one page of a selection read.
	l, err := store.Open(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := reps[0].host.Session("s1", nil).SelectSkills(ctx, hostsdk.Selection{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if _, err := l.Append(ctx, loopRecords()...); err != nil {
			t.Fatal(err)
		}
	}
	expect(t, step(reps[1]), hostsdk.OutcomeReplacement, "alpha", "beta")
	expect(t, step(reps[0]), hostsdk.OutcomeUnchanged)
	expectLoaded(t, call(reps[1], "alpha"), "alpha")
}

// TestSelectionRecordInTheLog: the record is a skill-selection event with
// no source and a canonical JSON body, which the plugin neither reads as a
// catalog nor lets hide anything; a malformed newer record is skipped.
func TestSelectionRecordInTheLog(t *testing.T) {
	t.Run("file", func(t *testing.T) { testSelectionRecordInTheLog(t, newEnv(t, hostsdk.Options{})) })
	t.Run("without-seeker", func(t *testing.T) {
		e := newEnv(t, hostsdk.Options{})
		// A second host on the same files, seeing them without the seeker.
		store := plainStore{e.store}
		host, err := hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: store})
		if err != nil {
			t.Fatal(err)
		}
		e.host.Close()
		e.host, e.store = host, store
		if e.plugin, err = host.Load(context.Background(), &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}}); err != nil {
			t.Fatal(err)
		}
		testSelectionRecordInTheLog(t, e)
	})
}

func testSelectionRecordInTheLog(t *testing.T, e *env) {
	e.register(tools.GlobalScope, "alpha", "Skill alpha.")
	e.register(tools.GlobalScope, "beta", "Skill beta.")
	e.mount(tools.GlobalScope)
	ctx := context.Background()

	e.selectSkills("s1", hostsdk.Selection{ExcludeProviders: []string{"x"}, ExcludeNames: []string{"beta"}, IncludeNames: []string{"beta", "alpha"}})
	evs := readAll(t, e.store, "s1")
	if len(evs) != 1 {
		t.Fatalf("log holds %d events, want the selection record", len(evs))
	}
	ev := evs[0]
	if ev.Type != sessionlog.TypeSkillSelection || ev.Source != nil || !ev.Visible {
		t.Fatalf("selection record = %+v", ev)
	}
	if want := `{"includeNames":["alpha","beta"],"excludeNames":["beta"],"excludeProviders":["x"]}`; string(ev.Body) != want {
		t.Fatalf("selection body = %s, want %s", ev.Body, want)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha")

	// Records a newer runtime or a hand edit got wrong are skipped: the
	// newest readable one stays in effect.
	l, err := e.store.Open(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, body := range []string{`{"excludeNames":["Not A Name"]}`, `{"includeNames":"alpha"}`, `[]`, `null`} {
		if _, err := l.Append(ctx, sessionlog.Record{Type: sessionlog.TypeSkillSelection, Body: []byte(body)}); err != nil {
			t.Fatal(err)
		}
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	expectUnknown(t, e.callSkill("s1", "beta"), "beta")
	// Unknown fields are ignored.
	if _, err := l.Append(ctx, sessionlog.Record{Type: sessionlog.TypeSkillSelection, Body: []byte(`{"excludeNames":["alpha"],"note":"later"}`)}); err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "beta")
}

func TestSelectSkillsRefusesInvalidSelections(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	many := make([]string, hostsdk.MaxSelectionEntries+1)
	for i := range many {
		many[i] = "a"
	}
	for _, tc := range []struct {
		sel  hostsdk.Selection
		want string
	}{
		{hostsdk.Selection{IncludeNames: []string{"ok", "Bad Name"}}, `Selection.IncludeNames[1]: invalid skill name "Bad Name": must match ^[a-z0-9]+(-[a-z0-9]+)*$`},
		{hostsdk.Selection{ExcludeNames: []string{""}}, `Selection.ExcludeNames[0]: invalid skill name "": must match`},
		{hostsdk.Selection{ExcludeNames: []string{strings.Repeat("a", 257)}}, `Selection.ExcludeNames[0]: skill name of 257 bytes, at most 256 are allowed`},
		{hostsdk.Selection{IncludeProviders: []string{""}}, `Selection.IncludeProviders[0]: provider label is empty`},
		{hostsdk.Selection{ExcludeProviders: []string{"ok", "\xff"}}, `Selection.ExcludeProviders[1]: provider label "\xff" is not valid UTF-8`},
		{hostsdk.Selection{ExcludeProviders: []string{strings.Repeat("p", 300)}}, `Selection.ExcludeProviders[0]: provider label of 300 bytes, at most 256 are allowed`},
		{hostsdk.Selection{IncludeNames: many}, `Selection.IncludeNames has 1025 entries, at most 1024 are allowed`},
	} {
		err := e.host.Session("s1", nil).SelectSkills(context.Background(), tc.sel)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SelectSkills(%.80v) = %v, want an error containing %q", tc.sel, err, tc.want)
		}
	}
	if n := logLength(t, e.store, "s1"); n != 0 {
		t.Fatalf("refused selections wrote %d events", n)
	}
}

// TestSelectionInProcess: the in-process plugin applies the same
// selection.
func TestSelectionInProcess(t *testing.T) {
	store := sessionlog.NewMemoryStore()
	tree, reg := tools.NewTree(), skilltest.NewRegistry(t)
	for _, n := range []string{"alpha", "beta"} {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: n, Description: "Skill " + n + "."}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	p, err := h.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.Session("s1", nil).SelectSkills(ctx, hostsdk.Selection{ExcludeNames: []string{"alpha"}}); err != nil {
		t.Fatal(err)
	}
	res, err := h.Session("s1", &hostsdk.SessionOptions{AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, res, hostsdk.OutcomeInitial, "beta")
	out, err := h.Session("s1", &hostsdk.SessionOptions{AgentScope: tools.GlobalScope}).CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil {
		t.Fatal(err)
	}
	expectUnknown(t, out, "alpha")
}

func readAll(t *testing.T, store sessionlog.Store, session string) []sessionlog.Event {
	t.Helper()
	l, err := store.Open(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p, err := l.ReadBackward(context.Background(), 0, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]sessionlog.Event, len(p.Events))
	for i, ev := range p.Events {
		out[len(out)-1-i] = ev
	}
	return out
}

func logLength(t *testing.T, store sessionlog.Store, session string) int {
	t.Helper()
	return len(readAll(t, store, session))
}

// copyLog forks a session: the new log starts with a copy of every record
// of the parent (type, source, body and hide range, in order).
func copyLog(t *testing.T, store sessionlog.Store, from, to string) {
	t.Helper()
	evs := readAll(t, store, from)
	recs := make([]sessionlog.Record, 0, len(evs))
	for _, ev := range evs {
		recs = append(recs, sessionlog.Record{Type: ev.Type, Source: ev.Source, Body: ev.Body})
	}
	l, err := store.Open(context.Background(), to)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(context.Background(), recs...); err != nil {
		t.Fatal(err)
	}
}

// countingStore counts the reads of the logs it hands out.
type countingStore struct {
	sessionlog.Store
	reads *atomic.Int64
}

func (s countingStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	return countingLog{l, s.reads}, nil
}

type countingLog struct {
	sessionlog.Log
	reads *atomic.Int64
}

func (l countingLog) ReadBackward(ctx context.Context, before, after uint64, max int) (sessionlog.Page, error) {
	l.reads.Add(1)
	return l.Log.ReadBackward(ctx, before, after, max)
}

func (l countingLog) Head(ctx context.Context) (sessionlog.Head, error) {
	l.reads.Add(1)
	return l.Log.Head(ctx)
}

func (l countingLog) NewestOfType(ctx context.Context, typ string) (uint64, sessionlog.Head, bool, error) {
	l.reads.Add(1)
	return l.Log.(sessionlog.TypeSeeker).NewestOfType(ctx, typ)
}

// TestSelectionCostsNoExtraReads: once a session's selection is known, a
// step where nothing changed and a step of an agent loop (events appended
// since the previous step) read the session log once, with a selection or
// without: the selection costs no read of its own.
func TestSelectionCostsNoExtraReads(t *testing.T) {
	files, err := sessionlog.NewFileStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var reads atomic.Int64
	store := countingStore{files, &reads}
	ctx := context.Background()
	r, err := newReplica(ctx, "r", pluginPath, store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.host.Close() })
	for _, n := range []string{"alpha", "beta"} {
		if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: n, Description: "Skill " + n + "."}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.host.Session("selected", nil).SelectSkills(ctx, hostsdk.Selection{ExcludeNames: []string{"beta"}}); err != nil {
		t.Fatal(err)
	}
	// The log the runtime appends through between steps is not counted.
	appendLoop := func(session string) {
		l, err := files.Open(ctx, session)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if _, err := l.Append(ctx, loopRecords()...); err != nil {
			t.Fatal(err)
		}
	}
	stepReads := func(session string, loop bool) int64 {
		t.Helper()
		if loop {
			appendLoop(session)
		}
		before := reads.Load()
		res, err := r.host.Session(session, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != hostsdk.OutcomeUnchanged {
			t.Fatalf("session %s: outcome %s, want unchanged", session, res.Outcome)
		}
		return reads.Load() - before
	}
	for _, s := range []string{"plain", "selected"} {
		for i := 0; i < 3; i++ { // publish, read it back, settle
			if _, err := r.host.Session(s, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, loop := range []bool{false, true, false, true} {
		// One read: the events since the previous step, which the step
		// carries to the plugin and the host checks for a new selection.
		plain, selected := stepReads("plain", loop), stepReads("selected", loop)
		if selected != 1 || plain != 1 {
			t.Fatalf("a step (loop %v) read the log %d times with a selection, %d times without; want once", loop, selected, plain)
		}
	}
}

// TestSelectionUnderConcurrentSteps: steps and selection changes of one
// session race; afterwards the session's next step publishes the catalog
// of the selection recorded last.
func TestSelectionUnderConcurrentSteps(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	for _, n := range []string{"alpha", "beta", "gamma"} {
		e.register(tools.GlobalScope, n, "Skill "+n+".")
	}
	e.mount(tools.GlobalScope)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 8; i++ {
				if _, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 8; i++ {
			sel := hostsdk.Selection{ExcludeNames: []string{[]string{"alpha", "beta", "gamma"}[i%3]}}
			if err := e.host.Session("s1", nil).SelectSkills(ctx, sel); err != nil {
				errs <- err
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	e.selectSkills("s1", hostsdk.Selection{IncludeNames: []string{"gamma"}})
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "gamma")
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	expectUnknown(t, e.callSkill("s1", "alpha"), "alpha")
}
