package hostsdk

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// SyncResult is what a Sync did: the step's result, and the messages to
// send the model.
type SyncResult struct {
	StepResult
	// View is the conversation to send the model after the runtime's own
	// system prompt: every message of the session the model should see, in
	// the session log's order. The history's messages are there as the
	// runtime passed them (HistoryIndex says which), and the plugin's
	// messages (catalogs, replacements, tombstones, `/name` instructions)
	// at the places where they were appended. Messages a recorded
	// compaction hid are left out. Nil for a rejected step.
	View []ViewMessage
}

// ViewMessage is one message of a SyncResult's View.
type ViewMessage struct {
	Message Message
	// Plugin marks a message the plugin added (IsPluginMessage holds).
	Plugin bool
	// HistoryIndex is the index of the message in the history passed to
	// Sync, so a runtime can send its own value for it (with whatever the
	// framework keeps beside the content); -1 for a plugin message.
	HistoryIndex int
}

// IsPluginMessage reports whether m is a message the plugin added to a
// session: a catalog, a replacement or tombstone, or the instructions of a
// skill the user invoked. It reads the message's Source, which the plugin
// always sets and a runtime keeps with the message.
func IsPluginMessage(m Message) bool { return isPluginSource(m.Source) }

// Sync is the step for a runtime whose framework owns the conversation
// history and rebuilds the model's input from it on every call (Eino,
// Genkit, langchaingo): history is every message the framework is about to
// send, without its system prompt. Sync appends to the session log what
// is new in it, runs the plugin's step, and returns in View the list to
// send, with every plugin message the log holds spliced back at its place.
//
// How the history is matched against the log:
//
//   - Messages are matched by ID. A message without one gets an ID derived
//     from its content and the messages before it (a chain hash), so the
//     same history always derives the same IDs, and an edit changes the
//     IDs of the edited message and everything after it.
//   - Plugin messages in history (IsPluginMessage: a framework that keeps
//     what it was sent) are skipped; the log has them.
//   - The history is expected to extend what the log holds. Its new
//     messages are proposed to the step (user messages that carry no tool
//     result are marked UserInput, for `/name`) and appended with the
//     plugin's additions. A history sent again unchanged appends nothing,
//     and the step runs as any step does.
//   - A history that no longer holds what the log has (the framework
//     summarised, truncated or edited it) is taken as a compaction: Sync
//     records one hiding every logged message from the first that differs
//     on, so the plugin sees what the model lost (a catalog among them is
//     published again), and appends the history's messages from there as
//     new. A runtime that uses Sync need not call RecordCompaction.
//
// Everything Sync knows it reads from the log, so it is correct across
// separate runs of the framework, with any number of Session handles, and
// after the process restarts: a Host that has not seen the session reads
// its log once, then follows only what is appended.
//
// When the plugin fails and the host fails open, the history's new
// messages are appended all the same (see Session.Step), and View holds
// them without plugin additions; when the store fails too, View still
// holds them, and the next Sync appends them.
func (s *Session) Sync(ctx context.Context, history []Message) (SyncResult, error) {
	st := s.h.sessions.get(s.id)
	if err := st.enter(ctx); err != nil {
		return SyncResult{}, err
	}
	defer st.leave()
	hist := syncHistory(history)
	mir, err := s.prepareMirror(ctx, st, hist)
	if err != nil {
		return SyncResult{}, err
	}
	res, err := s.step(ctx, st, Decision{Messages: hist.fresh(history, mir.runtimeCount())})
	if res.Decision.Reject != nil {
		return SyncResult{StepResult: res}, err
	}
	if len(res.Appended) > 0 {
		appended := res.Decision.Messages
		if err != nil {
			appended = hist.fresh(history, mir.runtimeCount()) // fail-open: the history's own
		}
		if !mir.extend(res.Appended, appended) {
			// Another writer appended in between: read the log again.
			if mir, err = s.h.mirrorOf(ctx, st, s.id); err != nil {
				return SyncResult{StepResult: res}, err
			}
		}
	}
	return SyncResult{StepResult: res, View: mir.view(history, hist)}, err
}

// prepareMirror brings the session's mirror up to its log and makes the log
// hold a prefix of the history: what the history no longer holds is
// recorded as compacted.
func (s *Session) prepareMirror(ctx context.Context, st *session, hist syncedHistory) (*mirror, error) {
	mir, err := s.h.mirrorOf(ctx, st, s.id)
	if err != nil {
		return nil, err
	}
	common := mir.commonPrefix(hist.ids)
	if common == mir.runtimeCount() {
		return mir, nil
	}
	from := mir.runtimeSeq(common)
	log, err := s.h.openLog(ctx, s.id, st)
	if err != nil {
		return nil, storeError(ctx, false, err)
	}
	head, err := log.Append(ctx, sessionlog.Record{Type: sessionlog.TypeCompaction, Hide: &sessionlog.Range{From: from, To: mir.head}})
	if err != nil {
		return nil, storeError(ctx, false, fmt.Errorf("record what the framework's history no longer holds as compacted: %w", err))
	}
	if head.Seq != mir.head+1 {
		st.mirror = nil // another writer appended too: read it all again
		return s.h.mirrorOf(ctx, st, s.id)
	}
	mir.hide(from, mir.head)
	mir.head, mir.surface = head.Seq, head.SurfaceRevision
	return mir, nil
}

// syncedHistory is a framework's history as Sync matches it: the indexes
// and IDs (given or derived) of its runtime messages.
type syncedHistory struct {
	index []int
	ids   []string
}

// syncHistory finds the runtime messages of history and their IDs.
func syncHistory(history []Message) syncedHistory {
	var h syncedHistory
	prev := ""
	for i := range history {
		m := &history[i]
		if IsPluginMessage(*m) {
			continue
		}
		id := m.ID
		if id == "" {
			id = derivedID(prev, m)
		}
		h.index, h.ids = append(h.index, i), append(h.ids, id)
		prev = id
	}
	return h
}

// derivedID is the ID of a message that has none: a hash of the previous
// message's ID and the message's content, so equal histories derive equal
// IDs and an edit changes every later one.
func derivedID(prev string, m *Message) string {
	c := *m
	c.ID, c.UserInput = "", false
	body, err := appendMessageJSON([]byte(prev+"\x00"), &c)
	if err != nil {
		// A block whose raw JSON does not parse: fall back on its bytes.
		body, _ = json.Marshal(c.Content)
		body = append([]byte(prev+"\x00"+string(c.Role)+"\x00"), body...)
	}
	sum := xxh3.Hash128(body).Bytes()
	return "h-" + hex.EncodeToString(sum[:])
}

// fresh returns the history's runtime messages from the n-th on, as the
// step proposes them: with their IDs, and user messages that carry no tool
// result marked UserInput.
func (h syncedHistory) fresh(history []Message, n int) []Message {
	if n >= len(h.index) {
		return nil
	}
	out := make([]Message, 0, len(h.index)-n)
	for k := n; k < len(h.index); k++ {
		m := history[h.index[k]]
		m.ID = h.ids[k]
		if m.Role == RoleUser && !hasToolResult(m) {
			m.UserInput = true
		}
		out = append(out, m)
	}
	return out
}

func hasToolResult(m Message) bool {
	for _, c := range m.Content {
		if c.Type == BlockToolResult {
			return true
		}
	}
	return false
}
