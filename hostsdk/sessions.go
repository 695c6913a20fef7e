package hostsdk

import (
	"sync"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// session is what a Host keeps for one session it has met, until
// EndSession or Close: its open log, the head its last step sent the
// plugin, its skill selection as last read, and the callbacks the plugin
// made for it. One value replaces what would otherwise be a map per
// concern with lifecycles kept by hand.
type session struct {
	log sessionlog.Log // nil until opened
	// sent is the head the session's last step sent the plugin; valid when
	// headSent.
	sent     contract.SessionHead
	headSent bool
	// selection is known up to selection.seq when selectionKnown.
	selection      sessionSelection
	selectionKnown bool
	// made counts the callbacks the plugin made for the session.
	made Callbacks
	// notes are the registry's diagnostics of the snapshot the session's
	// last Snapshot callback answered with (skills.Snapshot.Diagnostics),
	// and incomplete what it said of an incomplete one
	// (skills.Snapshot.Incomplete), until a step takes them.
	notes, incomplete []string
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
}

// snapshotPlace is where a session's snapshot was taken.
type snapshotPlace struct{ cwd, agentScope string }

// sessionTable holds the sessions a Host has met. One mutex guards the
// table and every session's fields: each use is a few loads and stores.
type sessionTable struct {
	mu sync.Mutex
	m  map[string]*session
}

// getLocked returns the session, adding it when it is new. t.mu must be
// held.
func (t *sessionTable) getLocked(id string) *session {
	s := t.m[id]
	if s == nil {
		if t.m == nil {
			t.m = make(map[string]*session)
		}
		s = &session{}
		t.m[id] = s
	}
	return s
}

// openLog returns the session's open log, if it has one.
func (t *sessionTable) openLog(id string) (sessionlog.Log, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.m[id]; s != nil && s.log != nil {
		return s.log, true
	}
	return nil, false
}

// keepLog makes l the session's log unless another caller opened it first;
// it returns the log to use and whether it is l.
func (t *sessionTable) keepLog(id string, l sessionlog.Log) (sessionlog.Log, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.getLocked(id)
	if s.log != nil {
		return s.log, false
	}
	s.log = l
	return l, true
}

// end forgets a session and returns its log, nil when none was open.
func (t *sessionTable) end(id string) sessionlog.Log {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[id]
	delete(t.m, id)
	if s == nil {
		return nil
	}
	return s.log
}

// endAll forgets every session and returns their open logs by id.
func (t *sessionTable) endAll() map[string]sessionlog.Log {
	t.mu.Lock()
	defer t.mu.Unlock()
	logs := make(map[string]sessionlog.Log)
	for id, s := range t.m {
		if s.log != nil {
			logs[id] = s.log
		}
	}
	t.m = nil
	return logs
}

// sentHead returns the head the session's last step sent the plugin.
func (t *sessionTable) sentHead(id string) (contract.SessionHead, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.m[id]; s != nil && s.headSent {
		return s.sent, true
	}
	return contract.SessionHead{}, false
}

// setSentHead records the head a step of the session sent the plugin.
func (t *sessionTable) setSentHead(id string, head contract.SessionHead) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.getLocked(id)
	s.sent, s.headSent = head, true
}

// setOwnSources records the digests of the plugin's own sources a step
// appended, by sequence number, in place of the previous step's.
func (t *sessionTable) setOwnSources(id string, own map[uint64][]byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.getLocked(id).ownSources = own
}

// ownSource returns the digest of the plugin's own source at seq, if a
// step appended one there.
func (t *sessionTable) ownSource(id string, seq uint64) ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.m[id]; s != nil {
		d, ok := s.ownSources[seq]
		return d, ok
	}
	return nil, false
}

// setAnswered records the token of a complete snapshot the session's
// Snapshot was answered with at place.
func (t *sessionTable) setAnswered(id string, at snapshotPlace, token string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.getLocked(id)
	s.answered, s.answeredAt = token, at
}

// answered returns the token of the last complete snapshot the session's
// Snapshot was answered with, when that was at place.
func (t *sessionTable) answered(id string, at snapshotPlace) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.m[id]; s != nil && s.answered != "" && s.answeredAt == at {
		return s.answered, true
	}
	return "", false
}

// selection returns the session's selection as last read.
func (t *sessionTable) selection(id string) (sessionSelection, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.m[id]; s != nil && s.selectionKnown {
		return s.selection, true
	}
	return sessionSelection{}, false
}

// keepSelection remembers st for an open session unless what is
// remembered is known further: concurrent readers may finish out of order.
// A session that ended meanwhile keeps nothing; its next use reads again.
func (t *sessionTable) keepSelection(id string, st sessionSelection) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[id]
	if s == nil || s.log == nil || (s.selectionKnown && s.selection.seq > st.seq) {
		return
	}
	s.selection, s.selectionKnown = st, true
}

// updateSelection applies fn to the session's remembered selection, if it
// has one, and keeps what fn returns when ok.
func (t *sessionTable) updateSelection(id string, fn func(sessionSelection) (sessionSelection, bool)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[id]
	if s == nil || !s.selectionKnown {
		return
	}
	if st, ok := fn(s.selection); ok {
		s.selection = st
	}
}

// countCallback records one callback the plugin made for the session.
func (t *sessionTable) countCallback(id string, kind func(*Callbacks) *int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	*kind(&t.getLocked(id).made)++
}

// callbackMark is a session's callback counts at one moment.
type callbackMark struct {
	s    *session // nil: the session was not known
	made Callbacks
}

// markCallbacks returns the session's callback counts, to compare later.
func (t *sessionTable) markCallbacks(id string) callbackMark {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.m[id]; s != nil {
		return callbackMark{s: s, made: s.made}
	}
	return callbackMark{}
}

// callbacksSince returns the callbacks made for the session since mark. A
// session forgotten in between (EndSession) and met again counts from
// zero.
func (t *sessionTable) callbacksSince(id string, mark callbackMark) Callbacks {
	now := t.markCallbacks(id)
	if now.s != mark.s {
		return now.made
	}
	return now.made.since(mark.made)
}

// setSnapshotNotes records the diagnostics of the snapshot a Snapshot
// callback of the session answered with, and why it was incomplete.
func (t *sessionTable) setSnapshotNotes(id string, notes, incomplete []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.getLocked(id)
	s.notes, s.incomplete = notes, incomplete
}

// takeSnapshotNotes returns the diagnostics and the account of an
// incomplete snapshot recorded since the last take, and forgets them.
func (t *sessionTable) takeSnapshotNotes(id string) (notes, incomplete []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[id]
	if s == nil {
		return nil, nil
	}
	notes, incomplete = s.notes, s.incomplete
	s.notes, s.incomplete = nil, nil
	return notes, incomplete
}

// swapReasons records the fingerprint of a step's reasons and whether they
// name a problem, and returns whether the fingerprint differs from the
// session's previous step's, and whether that step's named a problem.
func (t *sessionTable) swapReasons(id string, fp uint64, troubled bool) (changed, wasTroubled bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.getLocked(id)
	changed, wasTroubled = !s.reasonsSeen || s.reasons != fp, s.troubled
	s.reasons, s.reasonsSeen, s.troubled = fp, true, troubled
	return changed, wasTroubled
}
