package hostsdk

import (
	"context"
	"encoding/binary"
	"encoding/hex"
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
	common := mir.commonPrefix(hist)
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
// of its runtime messages and their IDs, each given (ids) or derived
// (sums, rendered only for a message the log does not hold yet).
type syncedHistory struct {
	index []int
	ids   []string
	sums  [][16]byte
}

// syncHistory finds the runtime messages of history and their IDs.
func syncHistory(history []Message) syncedHistory {
	h := syncedHistory{index: make([]int, 0, len(history)), ids: make([]string, 0, len(history)), sums: make([][16]byte, 0, len(history))}
	var hasher *xxh3.Hasher
	var prev []byte
	for i := range history {
		m := &history[i]
		if IsPluginMessage(*m) {
			continue
		}
		var sum [16]byte
		if m.ID == "" {
			if hasher == nil {
				hasher = xxh3.New()
			}
			sum = derivedSum(hasher, prev, m)
			prev = hex.AppendEncode(append(prev[:0], "h-"...), sum[:])
		} else {
			prev = append(prev[:0], m.ID...)
		}
		h.index, h.ids, h.sums = append(h.index, i), append(h.ids, m.ID), append(h.sums, sum)
	}
	return h
}

// id returns the ID of the history's k-th runtime message.
func (h syncedHistory) id(k int) string {
	if h.ids[k] != "" {
		return h.ids[k]
	}
	return derivedIDText(h.sums[k])
}

// matches reports whether the history's k-th runtime message has the ID
// id, without rendering a derived one.
func (h syncedHistory) matches(k int, id string) bool {
	if h.ids[k] != "" {
		return h.ids[k] == id
	}
	var sum [16]byte
	var digits [2 * len(sum)]byte
	if len(id) != 2+len(digits) || id[:2] != "h-" {
		return false
	}
	copy(digits[:], id[2:])
	if _, err := hex.Decode(sum[:], digits[:]); err != nil {
		return false
	}
	return sum == h.sums[k]
}

// derivedSum is the hash behind the ID of a message that has none: of the
// previous message's ID and the message's role, content and source, so
// equal histories derive equal IDs and an edit changes every later one.
// Each field is hashed with its length, so no two messages' fields run
// together into the same bytes.
func derivedSum(h *xxh3.Hasher, prev []byte, m *Message) [16]byte {
	h.Reset()
	hashBytes(h, prev)
	hashField(h, string(m.Role))
	for _, c := range m.Content {
		if c.Raw != nil {
			hashField(h, "raw")
			hashBytes(h, c.Raw)
			continue
		}
		hashField(h, c.Type)
		hashField(h, c.Text)
	}
	hashBytes(h, m.Source)
	return h.Sum128().Bytes()
}

// derivedIDText renders a derived ID: "h-" and 32 hexadecimal digits.
func derivedIDText(sum [16]byte) string {
	var id [2 + 2*len(sum)]byte
	copy(id[:], "h-")
	hex.Encode(id[2:], sum[:])
	return string(id[:])
}

func hashBytes(h *xxh3.Hasher, b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

func hashField(h *xxh3.Hasher, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.WriteString(s)
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
		m.ID = h.id(k)
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
