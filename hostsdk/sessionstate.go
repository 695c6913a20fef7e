package hostsdk

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// session is what a Host keeps for one session it has met, until
// Session.End or Close: its open log, the head its last step sent the
// plugin, its skill selection as last read, the callbacks the plugin made
// for it, and the mirror of a framework's history (see Session.Sync). A
// step looks the session up once and then works on this value, under its
// own mutex: the table's lock is held only to find it.
type session struct {
	// grants is the skill grants in force in the session's turn
	// (Options.ToolGrants).
	grants grantState
	// turn admits one step of the session at a time within this host (a
	// channel, so that a waiting step can give up with its context; its
	// waiters are served in order, so a slow step is not starved by
	// steps that keep arriving).
	turn chan struct{}

	mu  sync.Mutex
	log sessionlog.Log // nil until opened
	// touched are the paths Session.Touch reported since the session's
	// last step, which the next step takes (at most
	// contract.MaxTouchedPaths, the last ones).
	touched []string
	// sent is the head the session's last step sent the plugin; valid when
	// headSent.
	sent     contract.SessionHead
	headSent bool
	// selection is known up to selection.seq when selectionKnown.
	selection      sessionSelection
	selectionKnown bool
	// made counts the callbacks the plugin made for the session.
	made CallbackCounts
	// notes carry what the registry said beside the snapshots answered for
	// the session (names shared across origins, why one was incomplete,
	// which best-effort providers could not list) to the step they were
	// answered for. Not guarded by mu: it guards itself.
	notes hostanswer.Mailbox
	// reasons fingerprints the reasons of the session's last step, so that
	// only a change is logged; a fixed size whatever the reasons say.
	reasons     uint64
	reasonsSeen bool
	// troubled says the last step's reasons named a problem.
	troubled bool
	// ownSources maps the sequence numbers of the events a step appended
	// from the plugin's own answer to their sources' digests
	// (contract.SourceDigestOf), for the next step's recent events.
	ownSources map[uint64][]byte
	// answered is the token of the last complete snapshot the session's
	// Snapshot was answered with (by callback or ahead of a step), for the
	// working directory and agent scope in answeredAt: the base of the
	// delta a later step may carry (contract.StepRequest.Snapshot).
	answered   string
	answeredAt snapshotPlace
	// mirror is the session log as a framework's history sees it, kept by
	// Session.Sync; nil until a Sync reads it.
	mirror *mirror
	// directives is the session's own directive handler
	// (Session.HandleDirectives); nil means the host's.
	directives atomic.Pointer[DirectiveHandler]
	// loads maps the call ids of the session's recent `skill` tool calls
	// to the load records their results carry (ToolResult.Source), until
	// Sync appends the framework's message of that result with it; at
	// most maxPendingLoads.
	loads map[string][]byte
}

// maxPendingLoads bounds the load records a session keeps for results a
// framework has not handed to Sync yet; beyond it the oldest is dropped
// (that load is then not attached again after a compaction).
const maxPendingLoads = 64

func newSession() *session { return &session{turn: make(chan struct{}, 1)} }

// snapshotPlace is where a session's snapshot was taken.
type snapshotPlace struct{ cwd, agentScope string }

// sessionTable holds the sessions a Host has met. Its mutex guards only
// the map; each session guards its own fields.
type sessionTable struct {
	mu sync.Mutex
	m  map[string]*session
}

// get returns the session, adding it when it is new.
func (t *sessionTable) get(id string) *session {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[id]
	if s == nil {
		if t.m == nil {
			t.m = make(map[string]*session)
		}
		s = newSession()
		t.m[id] = s
	}
	return s
}

// lookup returns the session, nil when the host has not met it.
func (t *sessionTable) lookup(id string) *session {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[id]
}

// end forgets a session and returns its log, nil when none was open.
func (t *sessionTable) end(id string) sessionlog.Log {
	t.mu.Lock()
	s := t.m[id]
	delete(t.m, id)
	t.mu.Unlock()
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log
}

// endAll forgets every session and returns their open logs by id.
func (t *sessionTable) endAll() map[string]sessionlog.Log {
	t.mu.Lock()
	m := t.m
	t.m = nil
	t.mu.Unlock()
	logs := make(map[string]sessionlog.Log)
	for id, s := range m {
		s.mu.Lock()
		if s.log != nil {
			logs[id] = s.log
		}
		s.mu.Unlock()
	}
	return logs
}

// enter waits for the session's turn: one step at a time within a host.
// It fails only with ctx's error.
func (s *session) enter(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// leave ends the turn enter began.
func (s *session) leave() { <-s.turn }

// openLog returns the session's open log, if it has one.
func (s *session) openLog() (sessionlog.Log, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log, s.log != nil
}

// keepLog makes l the session's log unless another caller opened it first;
// it returns the log to use and whether it is l.
func (s *session) keepLog(l sessionlog.Log) (sessionlog.Log, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log != nil {
		return s.log, false
	}
	s.log = l
	return l, true
}

// sentHead returns the head the session's last step sent the plugin.
func (s *session) sentHead() (contract.SessionHead, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent, s.headSent
}

// setSentHead records the head a step of the session sent the plugin.
func (s *session) setSentHead(head contract.SessionHead) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent, s.headSent = head, true
}

// setOwnSources records the digests of the plugin's own sources a step
// appended, by sequence number, in place of the previous step's.
func (s *session) setOwnSources(own map[uint64][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ownSources = own
}

// ownSource returns the digest of the plugin's own source at seq, if a
// step appended one there.
func (s *session) ownSource(seq uint64) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.ownSources[seq]
	return d, ok
}

// setAnswered records the token of a complete snapshot the session's
// Snapshot was answered with at place.
func (s *session) setAnswered(at snapshotPlace, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answered, s.answeredAt = token, at
}

// answeredAt returns the token of the last complete snapshot the session's
// Snapshot was answered with, when that was at place.
func (s *session) answeredToken(at snapshotPlace) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.answered != "" && s.answeredAt == at {
		return s.answered, true
	}
	return "", false
}

// knownSelection returns the session's selection as last read.
func (s *session) knownSelection() (sessionSelection, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.selection, s.selectionKnown
}

// keepSelection remembers st for an open session unless what is
// remembered is known further: concurrent readers may finish out of order.
// A session whose log is not open keeps nothing; its next use reads again.
func (s *session) keepSelection(st sessionSelection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil || (s.selectionKnown && s.selection.seq > st.seq) {
		return
	}
	s.selection, s.selectionKnown = st, true
}

// updateSelection applies fn to the session's remembered selection, if it
// has one, and keeps what fn returns when ok.
func (s *session) updateSelection(fn func(sessionSelection) (sessionSelection, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.selectionKnown {
		return
	}
	if st, ok := fn(s.selection); ok {
		s.selection = st
	}
}

// countCallback records one callback the plugin made for the session.
func (s *session) countCallback(kind func(*CallbackCounts) *int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*kind(&s.made)++
}

// callbacks returns the callbacks made for the session so far.
func (s *session) callbacks() CallbackCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.made
}

// swapReasons records the fingerprint of a step's reasons and whether they
// name a problem, and returns whether the fingerprint differs from the
// session's previous step's, and whether that step's named a problem.
func (s *session) swapReasons(fp uint64, troubled bool) (changed, wasTroubled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed, wasTroubled = !s.reasonsSeen || s.reasons != fp, s.troubled
	s.reasons, s.reasonsSeen, s.troubled = fp, true, troubled
	return changed, wasTroubled
}
