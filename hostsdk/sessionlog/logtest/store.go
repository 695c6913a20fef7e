package logtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// RunStore runs the Store conformance suite. newStore must return a new,
// empty store each time it is called. Stores are expected to keep a
// session's events after all its handles are closed.
func RunStore(t *testing.T, newStore func(t *testing.T) sessionlog.Store) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s sessionlog.Store)
	}{
		{"SharedHandles", testSharedHandles},
		{"Persistence", testPersistence},
		{"AwkwardIDs", testAwkwardIDs},
		{"BadOpen", testBadOpen},
		{"AppendIfAcrossHandles", testAppendIfAcrossHandles},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func openOK(t *testing.T, s sessionlog.Store, id string) sessionlog.Log {
	t.Helper()
	l, err := s.Open(context.Background(), id)
	if err != nil {
		t.Fatalf("Open(%q): %v", id, err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func testSharedHandles(t *testing.T, s sessionlog.Store) {
	a := openOK(t, s, "session-1")
	b := openOK(t, s, "session-1")
	m := &model{}
	appendOK(t, a, m, msg(1))
	checkHead(t, b, m)
	appendOK(t, b, m, msg(2))
	checkAll(t, a, m, 10)

	if err := a.Close(); err != nil {
		t.Fatalf("Close first handle: %v", err)
	}
	if _, err := a.Head(context.Background()); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("Head on a closed handle: error %v, want ErrClosed", err)
	}
	// The other handle keeps working.
	appendOK(t, b, m, msg(3))
	checkAll(t, b, m, 10)

	other := openOK(t, s, "session-2")
	checkHead(t, other, &model{})
}

func testPersistence(t *testing.T, s sessionlog.Store) {
	m := &model{}
	l := openOK(t, s, "persist")
	appendOK(t, l, m, msg(1), compaction(1, 1), msg(3))
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	l = openOK(t, s, "persist")
	checkHead(t, l, m)
	checkAll(t, l, m, 2)
	appendOK(t, l, m, msg(4))
	checkAll(t, l, m, 10)
}

// awkwardIDs are session ids that a naive file-per-session store would map
// to the same file, outside its directory, or to no valid name at all.
var awkwardIDs = []string{
	"plain", "PLAIN", "Plain", "../escape", "..", ".", "a/b", "a\\b", "a%2Fb", "a%2fb", "/abs",
	"con", "nul", "with space", "ünïcödé", "\x00nul", "tab\there", "dot.name", "~tilde",
	strings.Repeat("x", 300), strings.Repeat("x", 299) + "y", strings.Repeat("é", 200),
}

func testAwkwardIDs(t *testing.T, s sessionlog.Store) {
	models := make(map[string]*model)
	for i, id := range awkwardIDs {
		l := openOK(t, s, id)
		m := &model{}
		appendOK(t, l, m, sessionlog.Record{Type: "message", Body: []byte(fmt.Sprintf(`{"id":%d}`, i))})
		models[id] = m
		if err := l.Close(); err != nil {
			t.Fatalf("Close(%q): %v", id, err)
		}
	}
	for _, id := range awkwardIDs {
		l := openOK(t, s, id)
		checkAll(t, l, models[id], 10)
	}
}

func testBadOpen(t *testing.T, s sessionlog.Store) {
	if l, err := s.Open(context.Background(), ""); err == nil {
		_ = l.Close()
		t.Error("Open of an empty session id succeeded")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if l, err := s.Open(ctx, "x"); !errors.Is(err, context.Canceled) {
		if err == nil {
			_ = l.Close()
		}
		t.Errorf("Open with a cancelled context: error %v, want context.Canceled", err)
	}
}
