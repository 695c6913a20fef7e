package pglog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// countMarked reads the session through store and returns how many of its
// events carry marker, and its head.
func countMarked(t *testing.T, store *Store, session, marker string) (int, sessionlog.Head) {
	t.Helper()
	l, err := store.Open(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p, err := l.ReadBackward(context.Background(), 0, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range p.Events {
		if strings.Contains(string(e.Body), marker) {
			n++
		}
	}
	return n, p.Head
}

// TestAppendWhoseCommitReplyIsLost cuts the connection after the server
// committed an append and before its reply reached the client. The append
// must then either succeed (the records are durable, once) or fail with
// the log as it was: never fail with the records durable.
func TestAppendWhoseCommitReplyIsLost(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	direct := openStore(t, dsn, schema)
	store, proxy := proxiedStore(t, dsn, schema)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		hide bool
		cond bool
	}{{"plain", false, false}, {"conditional", false, true}, {"with a hide range", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			session := "in-doubt-" + strings.ReplaceAll(tc.name, " ", "-")
			l, err := store.Open(ctx, session)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			// Warm the connection up: its statements are prepared.
			for i := range 2 {
				if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(fmt.Sprintf(`{"warm":%d}`, i))}); err != nil {
					t.Fatal(err)
				}
			}
			marker := fmt.Sprintf("cut-%s-%d", session, time.Now().UnixNano())
			rec := sessionlog.Record{Type: "message", Body: []byte(`{"text":"` + marker + `"}`)}
			if tc.hide {
				rec = sessionlog.Record{Type: "compaction", Body: []byte(`{"summary":"` + marker + `"}`), Hide: &sessionlog.Range{From: 1, To: 1}}
			}
			proxy.arm(marker)
			cutsBefore := proxy.cutCount()
			var head sessionlog.Head
			if tc.cond {
				head, err = l.AppendIf(ctx, 2, rec)
			} else {
				head, err = l.Append(ctx, rec)
			}
			if proxy.cutCount() != cutsBefore+1 {
				t.Fatalf("the proxy cut %d connections, want 1: the test did not hide a commit", proxy.cutCount()-cutsBefore)
			}
			n, now := countMarked(t, direct, session, marker)
			switch {
			case err == nil && (n != 1 || head.Seq != 3 || now.Seq != 3):
				t.Fatalf("append succeeded with head %+v, but the log holds the record %d times, head %+v", head, n, now)
			case err != nil && (n != 0 || now.Seq != 2):
				t.Fatalf("append failed (%v), but the log holds the record %d times, head %+v: durable but reported failed", err, n, now)
			}
			t.Logf("append after a lost commit reply: head %+v, err %v", head, err)
		})
	}
}

// TestStepWhoseCommitReplyIsLost is the same cut under a host's step: the
// step either delivers the catalog it appended, or fails with nothing of
// it in the log and, failing open, appends the runtime's input once.
func TestStepWhoseCommitReplyIsLost(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	direct := openStore(t, dsn, schema)
	store, proxy := proxiedStore(t, dsn, schema)
	host, reg := timedHost(t, store, 0)
	ctx := context.Background()
	marker := fmt.Sprintf("user-input-%d", time.Now().UnixNano())
	input := hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{{Type: "text", Text: marker}}}
	// A first step opens the session through the proxy and prepares the
	// statements; it publishes nothing, as no skill is registered yet.
	if _, err := host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
		t.Fatal(err)
	}
	registerSkill(t, reg, 1)

	proxy.arm(marker)
	res, err := host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{input}}, &hostsdk.StepOptions{Turn: 1, Step: 1})
	if proxy.cutCount() != 1 {
		t.Fatalf("the proxy cut %d connections, want 1", proxy.cutCount())
	}
	n, head := countMarked(t, direct, "s1", marker)
	var herr *hostsdk.HostError
	switch {
	case err == nil:
		if res.Outcome != hostsdk.OutcomeInitial || len(res.Decision.Messages) != 2 || n != 1 || head.Seq != 2 ||
			len(res.Appended) != 2 || res.Appended[1] != 2 {
			t.Fatalf("step succeeded with %+v, but the log holds the input %d times, head %+v", res, n, head)
		}
	case errors.As(err, &herr):
		// Failing open, the step appended the input itself: once, since
		// the failed append wrote nothing.
		if n != 1 || head.Seq != 1 || res.Outcome != hostsdk.OutcomePluginError || len(res.Appended) != 1 {
			t.Fatalf("step failed (%v, outcome %s, appended %v), but the log holds the input %d times, head %+v; want it once", err, res.Outcome, res.Appended, n, head)
		}
	default:
		t.Fatalf("step failed with %v (%T): neither a success nor a *hostsdk.HostError", err, err)
	}
	t.Logf("step after a lost commit reply: outcome %s, err %v", res.Outcome, err)
}

// timedHost is a host on store with the plugin mounted in process, no
// skills, and the given PreStepTimeout (0: the default).
func timedHost(t *testing.T, store sessionlog.Store, timeout time.Duration) (*hostsdk.Host, *skills.Registry) {
	t.Helper()
	tree := tools.NewTree()
	if err := tree.AddScope("agent:a", tools.GlobalScope); err != nil {
		t.Fatal(err)
	}
	reg := skilltest.NewRegistry(t)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store,
		Logger: slog.New(slog.DiscardHandler), PreStepTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Close() })
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	return host, reg
}

// lockSession holds the session's row locked, as a long transaction of
// another process would, until the returned function is called.
func lockSession(t *testing.T, dsn string, s *Store, session string) (unlock func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, fillSchema(`SELECT FROM {s}.sessions WHERE id = $1 FOR UPDATE`, s.schema), []byte(session)); err != nil {
		t.Fatal(err)
	}
	var once bool
	unlock = func() {
		if once {
			return
		}
		once = true
		_ = tx.Rollback(ctx)
		_ = conn.Close(ctx)
	}
	t.Cleanup(unlock)
	return unlock
}

// TestAppendOnALockedSessionHonoursTheDeadline: an append waiting for a
// session row that another transaction holds locked returns when its
// context's deadline passes, and leaves nothing behind: the append it sent
// does not commit once the lock is released.
func TestAppendOnALockedSessionHonoursTheDeadline(t *testing.T) {
	dsn := testDSN(t)
	s := openStore(t, dsn, freshSchema(t, dsn))
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		rec  sessionlog.Record
	}{
		{"plain", sessionlog.Record{Type: "message", Body: []byte(`{"late":true}`)}},
		{"with a hide range", sessionlog.Record{Type: "compaction", Hide: &sessionlog.Range{From: 1, To: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			session := "locked-" + strings.ReplaceAll(tc.name, " ", "-")
			l, err := s.Open(ctx, session)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(`{"first":true}`)}); err != nil {
				t.Fatal(err)
			}
			unlock := lockSession(t, dsn, s, session)
			const timeout = 300 * time.Millisecond
			done := make(chan error, 1)
			go func() {
				actx, cancel := context.WithTimeout(ctx, timeout)
				defer cancel()
				_, err := l.AppendIf(actx, 1, tc.rec)
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(10 * timeout):
				unlock()
				t.Fatalf("AppendIf still waiting for the locked row %s after its %s deadline", 10*timeout, timeout)
			}
			if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, sessionlog.ErrOutcomeUnknown) {
				t.Errorf("AppendIf = %v, want an error wrapping context.DeadlineExceeded, with a known outcome", err)
			}
			unlock()
			// Queued behind anything still waiting for the row: it must
			// find the head where it was.
			if _, err := l.AppendIf(ctx, 1, sessionlog.Record{Type: "message", Body: []byte(`{"next":true}`)}); err != nil {
				t.Fatalf("append after the lock was released: %v (the timed-out append committed late)", err)
			}
		})
	}
}

// TestStepOnALockedSessionHonoursTheDeadline: a step whose append waits for
// a session row that another transaction holds locked returns a
// *hostsdk.HostError wrapping context.DeadlineExceeded once
// Options.PreStepTimeout passes, fails open, and leaves the log unchanged.
func TestStepOnALockedSessionHonoursTheDeadline(t *testing.T) {
	dsn := testDSN(t)
	s := openStore(t, dsn, freshSchema(t, dsn))
	const timeout = 300 * time.Millisecond
	host, _ := timedHost(t, s, timeout)
	ctx := context.Background()
	if _, err := host.Session("locked", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
		t.Fatal(err)
	}
	unlock := lockSession(t, dsn, s, "locked")
	input := hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Hello."}}}
	type stepped struct {
		res hostsdk.StepResult
		err error
	}
	done := make(chan stepped, 1)
	go func() {
		res, err := host.Session("locked", &hostsdk.SessionOptions{AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{input}}, &hostsdk.StepOptions{Turn: 1, Step: 1})
		done <- stepped{res, err}
	}()
	var got stepped
	select {
	case got = <-done:
	case <-time.After(10 * timeout):
		unlock()
		t.Fatalf("PreStep still blocked on the locked session row %s after its %s PreStepTimeout", 10*timeout, timeout)
	}
	var herr *hostsdk.HostError
	if !errors.As(got.err, &herr) || !errors.Is(got.err, context.DeadlineExceeded) {
		t.Errorf("PreStep error = %v (%T), want a *hostsdk.HostError wrapping context.DeadlineExceeded", got.err, got.err)
	}
	if got.res.Outcome != hostsdk.OutcomePluginError || len(got.res.Decision.Messages) != 1 {
		t.Errorf("PreStep result = %+v, want the downstream decision with outcome %s", got.res, hostsdk.OutcomePluginError)
	}
	unlock()
	l, err := s.Open(ctx, "locked")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.AppendIf(ctx, 0, sessionlog.Record{Type: "message", Body: []byte(`{"next":true}`)}); err != nil {
		t.Fatalf("append after the lock was released: %v (the timed-out step's append committed late)", err)
	}
}

// TestAppendLostBeforeTheServer loses an append's request on its way: the
// append fails, the log is as it was, and the session takes appends again.
func TestAppendLostBeforeTheServer(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	direct := openStore(t, dsn, schema)
	store, proxy := proxiedStore(t, dsn, schema)
	ctx := context.Background()
	l, err := store.Open(ctx, "lost")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(`{"warm":1}`)}); err != nil {
		t.Fatal(err)
	}
	marker := fmt.Sprintf("lost-request-%d", time.Now().UnixNano())
	proxy.armDrop(marker)
	head, err := l.AppendIf(ctx, 1, sessionlog.Record{Type: "message", Body: []byte(`{"text":"` + marker + `"}`)})
	if proxy.cutCount() != 1 {
		t.Fatalf("the proxy dropped %d requests, want 1", proxy.cutCount())
	}
	n, now := countMarked(t, direct, "lost", marker)
	if err == nil || errors.Is(err, sessionlog.ErrOutcomeUnknown) || n != 0 || now.Seq != 1 {
		t.Fatalf("AppendIf = %+v, %v; the log holds the record %d times, head %+v: want a failure, the log as it was", head, err, n, now)
	}
	if head, err := l.AppendIf(ctx, 1, sessionlog.Record{Type: "message", Body: []byte(`{"after":1}`)}); err != nil || head.Seq != 2 {
		t.Fatalf("the next append = %+v, %v; want head 2", head, err)
	}
}

// TestFencedAppendWritesNothing: once settle has declared an append
// failed, a statement of that append that reaches the server only then
// (held up on the lost connection) writes nothing.
func TestFencedAppendWritesNothing(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	l, err := s.OpenLog(ctx, "fenced")
	if err != nil {
		t.Fatal(err)
	}
	token := []byte("0123456789abcdef")
	found, _, err := l.settle(ctx, token, 1)
	if err != nil || found {
		t.Fatalf("settle of an append never sent = %v, %v; want not found", found, err)
	}
	recs := []sessionlog.Record{{Type: "message", Body: []byte(`{"late":true}`)}}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := l.appendPlain(ctx, conn, nil, columnsOf(recs, false), token); !errors.Is(err, errNoSessionRow) {
		t.Errorf("the fenced append's statement = %v, want it to update no row", err)
	}
	hide := []sessionlog.Record{{Type: "compaction", Hide: &sessionlog.Range{From: 1, To: 1}}}
	if _, err := l.appendWithHides(ctx, ctx, conn, nil, hide, columnsOf(hide, true), 1, token); !errors.Is(err, errNoSessionRow) {
		t.Errorf("the fenced append's transaction = %v, want it to update no row", err)
	}
	if h, err := l.Head(ctx); err != nil || h.Seq != 0 {
		t.Fatalf("head = %+v, %v; want the empty log", h, err)
	}
}
