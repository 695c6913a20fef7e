package hostsdk_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// loopReplica is a replica with runtime skills of the given names on
// store: replicas on one store are several writers of the same sessions.
func loopReplica(t *testing.T, store sessionlog.Store, names ...string) (*hostsdk.Host, *skills.Registry, *hostsdk.Plugin) {
	t.Helper()
	r, err := newReplica(context.Background(), "r", pluginPath, store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.host.Close(); err != nil {
			t.Errorf("close host: %v", err)
		}
	})
	for _, name := range names {
		if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: name, Description: "Skill " + name + ".", Content: "Instructions."}); err != nil {
			t.Fatal(err)
		}
	}
	return r.host, r.reg, r.plugin
}

// TestLoopStepCallbacks counts, through the plugin binary, on the file
// store and on PostgreSQL, the host callbacks of steps of an agent loop. A step whose session
// only grew by events that cannot change the decision makes none; a skill
// change, a new catalog from another writer, a compaction, a gap larger
// than what a step carries and a restarted plugin still give the right
// decision, with the callbacks counted here.
func TestLoopStepCallbacks(t *testing.T) {
	t.Run("file", func(t *testing.T) {
		store, err := sessionlog.NewFileStore(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		loopStepCallbacks(t, store)
	})
	t.Run("postgres", func(t *testing.T) {
		store, _, _ := postgresStore(t, "loop")
		loopStepCallbacks(t, store)
	})
}

// loopStepCallbacks is TestLoopStepCallbacks on one store.
func loopStepCallbacks(t *testing.T, store sessionlog.Store) {
	host, reg, p := loopReplica(t, store, "alpha", "beta")
	ctx := context.Background()
	step := func() hostsdk.StepResult {
		t.Helper()
		res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatalf("PreStep: %v", err)
		}
		return res
	}
	appendMessages := func(n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			if _, err := host.Session("s1", nil).Append(ctx, loopMessages()...); err != nil {
				t.Fatal(err)
			}
		}
	}
	type want struct {
		outcome   hostsdk.Outcome
		names     []string
		callbacks hostsdk.CallbackCounts
	}
	check := func(what string, res hostsdk.StepResult, w want) {
		t.Helper()
		t.Logf("%s: %s, %d Snapshot and %d ReadEvents calls", what, res.Outcome, res.Callbacks.Snapshot, res.Callbacks.ReadEvents)
		if res.Outcome != w.outcome || res.Callbacks != w.callbacks {
			t.Errorf("%s: %s with callbacks %+v, want %s with %+v", what, res.Outcome, res.Callbacks, w.outcome, w.callbacks)
		}
		if names, published := catalog(res); published && fmt.Sprint(names) != fmt.Sprint(w.names) {
			t.Errorf("%s: published %v, want %v", what, names, w.names)
		}
	}

	// The first step learns everything: the snapshot and the log.
	check("first step", step(), want{hostsdk.OutcomeInitial, []string{"alpha", "beta"}, hostsdk.CallbackCounts{Snapshot: 1, ReadEvents: 1}})
	check("the step after it (its own catalog carried)", step(), want{outcome: hostsdk.OutcomeUnchanged})
	for i := 1; i <= 5; i++ {
		appendMessages(1) // the model's reply and a tool result
		check(fmt.Sprintf("loop step %d", i), step(), want{outcome: hostsdk.OutcomeUnchanged})
	}

	// A skill changes: the host sends the change with the step, as a delta
	// of the snapshot it answered before, and the session's growth still
	// comes with it: no callback.
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "gamma", Description: "Skill gamma.", Content: "Instructions."}); err != nil {
		t.Fatal(err)
	}
	appendMessages(1)
	check("a skill added", step(), want{hostsdk.OutcomeReplacement, []string{"alpha", "beta", "gamma"}, hostsdk.CallbackCounts{}})
	reg.Unregister(tools.GlobalScope, "gamma")
	check("a skill removed", step(), want{hostsdk.OutcomeReplacement, []string{"alpha", "beta"}, hostsdk.CallbackCounts{}})
	appendMessages(1)
	check("the loop step after the change", step(), want{outcome: hostsdk.OutcomeUnchanged})

	// Another writer of the session publishes its own catalog; the step
	// carries it, so the plugin replaces it without reading the log.
	other, _, _ := loopReplica(t, store, "zeta")
	res, err := other.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("the other writer's step", res, want{hostsdk.OutcomeReplacement, []string{"zeta"}, hostsdk.CallbackCounts{Snapshot: 1, ReadEvents: 1}})
	appendMessages(1)
	check("a step after another writer's catalog", step(), want{hostsdk.OutcomeReplacement, []string{"alpha", "beta"}, hostsdk.CallbackCounts{}})

	// A compaction rewrites what the model sees: the log is read again,
	// for the catalog and once more, whole, for the skills whose
	// instructions it may have hid (re-attachment).
	head, err := host.Session("s1", nil).Append(ctx, loopMessages()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: head[0], To: head[1]}}); err != nil {
		t.Fatal(err)
	}
	check("a compaction that keeps the catalog", step(), want{hostsdk.OutcomeUnchanged, nil, hostsdk.CallbackCounts{ReadEvents: 2}})
	check("the step after the compaction", step(), want{outcome: hostsdk.OutcomeUnchanged})
	last := step().Appended // nothing: the catalog is the one published above
	if len(last) != 0 {
		t.Fatalf("a settled step appended %v", last)
	}

	// More new events than a step carries: the plugin reads the gap.
	appendMessages(40) // 80 events, over the 64 a step carries
	check("a gap larger than a step carries", step(), want{hostsdk.OutcomeUnchanged, nil, hostsdk.CallbackCounts{ReadEvents: 1}})
	appendMessages(1)
	check("the loop step after the gap", step(), want{outcome: hostsdk.OutcomeUnchanged})

	// A restarted plugin has no cache: it asks for the snapshot and reads
	// the log back to its newest catalog, and publishes nothing again. Over 64
	// events (a first page) lie above that catalog, so the scan takes two
	// pages. The session was compacted, so the new plugin also reads the
	// whole log once for re-attachment (one page holds it).
	pid := p.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); p.PID() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the killed plugin process is still running")
		}
	}
	appendMessages(1)
	check("a restarted plugin", step(), want{hostsdk.OutcomeUnchanged, nil, hostsdk.CallbackCounts{Snapshot: 1, ReadEvents: 3}})
	appendMessages(1)
	check("the loop step after the restart", step(), want{outcome: hostsdk.OutcomeUnchanged})
	if p.PID() == pid || p.PID() == 0 {
		t.Errorf("plugin pid %d after the restart (was %d)", p.PID(), pid)
	}
}

// TestInProcessLoopStepCallbacks: the plugin in the host's process makes
// the same callbacks as the binary, and StepResult counts them alike.
func TestInProcessLoopStepCallbacks(t *testing.T) {
	host, reg, _ := modeEnv(t, &hostsdk.LoadOptions{InProcess: true}, hostsdk.Options{})
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "Skill alpha.", Content: "Instructions."}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, want := range []hostsdk.CallbackCounts{{Snapshot: 1, ReadEvents: 1}, {}, {}, {}} {
		if i > 1 {
			if _, err := host.Session("s1", nil).Append(ctx, loopMessages()...); err != nil {
				t.Fatal(err)
			}
		}
		res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Callbacks != want {
			t.Errorf("step %d (%s): callbacks %+v, want %+v", i, res.Outcome, res.Callbacks, want)
		}
	}
}

// TestManySessionsStepWithoutCallbacks: a host with more live sessions
// than a small snapshot cache would hold (1,200, all seeing the same
// skills) answers each session's second step from its caches: no
// callback, one round trip.
func TestManySessionsStepWithoutCallbacks(t *testing.T) {
	r, err := newReplica(context.Background(), "r", pluginPath, sessionlog.NewMemoryStore())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.host.Close() })
	for _, name := range []string{"alpha", "beta"} {
		if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: name, Description: "Skill " + name + ".", Content: "Instructions."}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	const sessions = 1200
	for pass, want := range []hostsdk.Outcome{hostsdk.OutcomeInitial, hostsdk.OutcomeUnchanged} {
		made := 0
		for s := range sessions {
			res, err := r.host.Session(fmt.Sprintf("s%d", s), &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != want {
				t.Fatalf("pass %d, session %d: %s, want %s", pass, s, res.Outcome, want)
			}
			made += res.Callbacks.Total()
		}
		if pass == 1 && made != 0 {
			t.Errorf("the second steps of %d sessions made %d callbacks, want none", sessions, made)
		}
	}
}
