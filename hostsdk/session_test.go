package hostsdk_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// TestCompactionRecordedThroughTheHostRepublishes: the runtime compacts the
// model's context, hiding the catalog message, and records it with
// RecordCompaction; the next step publishes the catalog again.
func TestCompactionRecordedThroughTheHostRepublishes(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)
	ctx := context.Background()

	first := e.step("s1", "agent:a")
	expect(t, first, hostsdk.OutcomeInitial, "alpha")
	reply := hostsdk.Message{ID: "reply-1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Done."}}}
	seqs, err := e.host.Session("s1", nil).Append(ctx, reply)
	if err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 1 || seqs[0] != first.Appended[0]+1 {
		t.Fatalf("Append = %v, want the seq after the catalog's %v", seqs, first.Appended)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)

	summary := hostsdk.Message{ID: "summary-1", Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{{Type: "text", Text: "Summary of the session so far."}}}
	head, err := e.host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: seqs[0]}, Summary: &summary})
	if err != nil {
		t.Fatal(err)
	}
	if head.SurfaceRevision != 1 || head.Seq != seqs[0]+1 {
		t.Fatalf("RecordCompaction returned head %+v, want seq %d revision 1", head, seqs[0]+1)
	}
	again := e.step("s1", "agent:a")
	// A catalog was published before, so it comes back as the replacement.
	expect(t, again, hostsdk.OutcomeReplacement, "alpha")

	// The compaction record carries the summary, and hides what it says.
	l, err := e.store.Open(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p, err := l.ReadBackward(ctx, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range p.Events {
		switch {
		case ev.Seq <= seqs[0] && ev.Visible:
			t.Errorf("seq %d is visible after the compaction that hides 1..%d", ev.Seq, seqs[0])
		case ev.Seq == head.Seq && (ev.Type != sessionlog.TypeCompaction || !strings.Contains(string(ev.Body), "summary-1")):
			t.Errorf("compaction record = %s %s, want type %q with the summary", ev.Type, ev.Body, sessionlog.TypeCompaction)
		}
	}

	if _, err := e.host.Session("s1", nil).RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 5, To: 100}}); err == nil {
		t.Fatal("RecordCompaction of a range beyond the log succeeded")
	}
}

// TestCompactionNotRecordedIsNotSeen pins the documented behaviour of a
// runtime that compacts its context without telling the host: the log still
// shows the catalog as visible, so the plugin adds nothing, and the model
// goes without a catalog until the skills change.
func TestCompactionNotRecordedIsNotSeen(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha")
	// The runtime drops the catalog from its own context here, and records
	// nothing.
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
	e.register(tools.GlobalScope, "beta", "Second skill.")
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "alpha", "beta")
}

// TestHostReportsATornSessionFile: a session file whose last append never
// completed is repaired when the host opens it; the host logs it and says
// so when asked.
func TestHostReportsATornSessionFile(t *testing.T) {
	dir := t.TempDir()
	store, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	line := `{"seq":1,"type":"message","body":{"id":"m1","role":"user"}}` + "\n"
	if err := os.WriteFile(store.Path("torn"), []byte(line+`{"seq":2,"type":"mess`), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	e := newEnv(t, hostsdk.Options{})
	host, err := hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: store,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	rec, err := host.Session("torn", nil).Recovery(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rec.TornTailBytes != len(`{"seq":2,"type":"mess`) {
		t.Fatalf("Recovery = %+v, want the torn tail of %d bytes", rec, len(`{"seq":2,"type":"mess`))
	}
	if !strings.Contains(logs.String(), "session log repaired on open") || !strings.Contains(logs.String(), "torn_tail_bytes=21") {
		t.Fatalf("host log does not report the repair:\n%s", logs.String())
	}
	clean, err := host.Session("clean", nil).Recovery(context.Background())
	if err != nil || clean != (sessionlog.Recovery{}) {
		t.Fatalf("Recovery of a new session = %+v, %v; want nothing repaired", clean, err)
	}
}
