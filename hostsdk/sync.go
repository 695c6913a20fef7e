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
// session: a catalog, a replacement or tombstone, the instructions of a
// skill the user invoked, the relevant-skills message, or the skills
// preloaded or attached again after a compaction. It reads the message's
// Source, which the plugin always sets and a runtime keeps with the
// message. A `skill` tool result whose source is the plugin's load record
// (ToolResult.Source) is not one: it is the runtime's.
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
//     from its content and the message before it (a chain hash), so the
//     same history always derives the same IDs, and an edit changes the
//     IDs of the edited message and everything after it.
//   - Plugin messages in history (a framework that keeps what it was sent)
//     are skipped; the log has them. They are known by IsPluginMessage, or
//     by an ID that a plugin message of the log has (a framework that
//     keeps a message's ID but not its source). A message that claims to
//     be the plugin's in any other way is the runtime's.
//   - The history is expected to extend what the log holds. Its new
//     messages are proposed to the step (user messages that carry no tool
//     result are marked UserInput, for `/name`) and appended with the
//     plugin's additions. A history sent again unchanged appends nothing,
//     and the step runs as any step does.
//   - A history that lost messages from its front (a framework that keeps
//     its last N messages) or its middle (the first message and the last
//     N) goes on from a message the log holds. Sync records the messages
//     it lost as compacted and appends only what is new, so a user's
//     message is proposed once, and a `/name` in it invoked once. The
//     plugin's messages among the lost are hidden with them, except those
//     that carry skills' instructions (a skill the user invoked, preloaded
//     or attached again after a compaction: the window keeps what the
//     model follows) and the newest catalog: it stays visible at its
//     place, which is now before
//     the history's first message, so the model always sees the catalog,
//     at the start of the conversation, where the prompt cache keeps it
//     (a window changes every later byte at every call). An older catalog
//     it replaced goes once the window moves.
//   - A history that no longer goes on with what the log holds (the
//     framework summarised or edited it, or kept none of the logged
//     messages) is taken as a compaction: Sync records one hiding every
//     logged message from the first that differs on, so the plugin sees
//     what the model lost (a catalog among them is published again), and
//     appends the history's messages from there as new.
//
// A `skill` tool result's load record (ToolResult.Source) reaches the log
// without the framework's help: CallTool remembers it by the call's id,
// and Sync sets it as the source of the new tool-result message that
// answers that call, so that the skill is attached again after a
// compaction hides it (the framework's history keeps no source; the
// message's derived ID does not depend on it).
//
// A runtime that uses Sync need not call RecordCompaction. The log's
// visible messages are always what View holds.
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
	if err := s.h.checkOpen("sync session", s.id); err != nil {
		return SyncResult{}, err
	}
	st := s.h.sessions.get(s.id)
	if err := st.enter(ctx); err != nil {
		return SyncResult{}, err
	}
	defer st.leave()
	mir, hist, err := s.prepareMirror(ctx, st, history)
	if err != nil {
		return SyncResult{}, err
	}
	fresh := st.withLoadSources(hist.fresh(history))
	res, err := s.step(ctx, st, s.stepOf(Decision{Messages: fresh}, nil))
	if res.Decision.Reject != nil {
		return SyncResult{StepResult: res}, err
	}
	if len(res.Appended) > 0 {
		appended := res.Decision.Messages
		if err != nil {
			appended = fresh // fail-open: the history's own
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

// Record appends to the session log what is new in history, as Sync
// does, but runs no step: for what a framework adds after the last model
// call of a run (the model's final answer), so that the log holds it even
// when the conversation ends there. The next Sync finds it in the log.
func (s *Session) Record(ctx context.Context, history []Message) error {
	if err := s.h.checkOpen("record session", s.id); err != nil {
		return err
	}
	st := s.h.sessions.get(s.id)
	if err := st.enter(ctx); err != nil {
		return err
	}
	defer st.leave()
	mir, hist, err := s.prepareMirror(ctx, st, history)
	if err != nil {
		return err
	}
	fresh := st.withLoadSources(hist.fresh(history))
	if len(fresh) == 0 {
		return nil
	}
	log, err := s.h.openLog(ctx, s.id, st)
	if err != nil {
		return storeError(ctx, false, err)
	}
	seqs, err := appendMessages(ctx, log, fresh, fresh)
	if err != nil {
		return storeError(ctx, false, fmt.Errorf("record the history of session %q: %w", s.id, err))
	}
	if !mir.extend(seqs, fresh) {
		st.mirror = nil // another writer appended too: read it all again next time
	}
	return nil
}

// prepareMirror brings the session's mirror up to its log, lines the
// history up with it (see mirror.align), and records as compacted what the
// log shows the model and the history no longer holds, so that the log's
// visible runtime messages are the history's first ones. It returns the
// history's runtime messages with their IDs.
func (s *Session) prepareMirror(ctx context.Context, st *session, history []Message) (*mirror, syncedHistory, error) {
	for attempt := 1; ; attempt++ {
		mir, err := s.h.mirrorOf(ctx, st, s.id)
		if err != nil {
			return nil, syncedHistory{}, err
		}
		hist := syncHistory(history, mir)
		hides := mir.align(history, &hist)
		if len(hides) == 0 {
			return mir, hist, nil
		}
		head, err := s.recordHidden(ctx, st, hides)
		if err != nil {
			return nil, syncedHistory{}, err
		}
		if head.Seq == mir.head+uint64(len(hides)) {
			for _, r := range hides {
				mir.hide(r.From, r.To)
			}
			mir.head, mir.surface = head.Seq, head.SurfaceRevision
			return mir, hist, nil
		}
		// Another writer appended too: read the log again, and line the
		// history up with what it holds now.
		st.mirror = nil
		if attempt == maxAlignAttempts {
			// Give up hiding for this call; the next one hides what is left.
			if mir, err = s.h.mirrorOf(ctx, st, s.id); err != nil {
				return nil, syncedHistory{}, err
			}
			hist = syncHistory(history, mir)
			mir.align(history, &hist)
			return mir, hist, nil
		}
	}
}

// maxAlignAttempts bounds how often prepareMirror reads the log again
// when other writers keep appending to the session.
const maxAlignAttempts = 3

// recordHidden appends one compaction record for each range.
func (s *Session) recordHidden(ctx context.Context, st *session, hides []sessionlog.Range) (sessionlog.Head, error) {
	log, err := s.h.openLog(ctx, s.id, st)
	if err != nil {
		return sessionlog.Head{}, storeError(ctx, false, err)
	}
	recs := make([]sessionlog.Record, len(hides))
	for i := range hides {
		recs[i] = sessionlog.Record{Type: sessionlog.TypeCompaction, Hide: &hides[i]}
	}
	head, err := log.Append(ctx, recs...)
	if err != nil {
		return sessionlog.Head{}, storeError(ctx, false, fmt.Errorf("record what the framework's history no longer holds as compacted: %w", err))
	}
	st.grants.set(nil) // a compaction ends the turn's grants, as RecordCompaction does
	return head, nil
}

// syncedHistory is a framework's history as Sync matches it: the indexes
// of its runtime messages, and their IDs once mirror.align has set them
// (given, the log's for a message it holds, or derived).
type syncedHistory struct {
	index []int
	ids   []string
	// held counts the runtime messages, from the first, that the log
	// holds as its visible runtime messages once align's hides are
	// recorded; the rest are new.
	held int
}

// syncHistory finds the runtime messages of history: all but the
// plugin's, which are known by their source, or by the ID of a plugin
// message the log holds (a framework that keeps a message's ID but not
// its source).
func syncHistory(history []Message, mir *mirror) syncedHistory {
	h := syncedHistory{index: make([]int, 0, len(history))}
	for i := range history {
		m := &history[i]
		if IsPluginMessage(*m) || (m.ID != "" && mir.holdsPlugin(m.ID)) {
			continue
		}
		h.index = append(h.index, i)
	}
	h.ids = make([]string, len(h.index))
	return h
}

// deriver derives the IDs of messages that have none (see derivedSum),
// reusing one hasher.
type deriver struct {
	h   *xxh3.Hasher
	buf []byte
}

// sum is derivedSum after the message with the ID prev.
func (d *deriver) sum(prev string, m *Message) [16]byte {
	if d.h == nil {
		d.h = xxh3.New()
	}
	d.buf = append(d.buf[:0], prev...)
	return derivedSum(d.h, d.buf, m)
}

// looksDerived reports whether id may be a derived ID.
func looksDerived(id string) bool { return len(id) == len("h-")+2*16 && id[:2] == "h-" }

// isDerived reports whether id is the derived ID of sum, without
// rendering it.
func isDerived(id string, sum [16]byte) bool {
	if !looksDerived(id) {
		return false
	}
	var digits [2 * len(sum)]byte
	copy(digits[:], id[2:])
	var got [16]byte
	if _, err := hex.Decode(got[:], digits[:]); err != nil {
		return false
	}
	return got == sum
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

// fresh returns the history's runtime messages the log does not hold, as
// the step proposes them: with their IDs, and user messages that carry no
// tool result marked UserInput.
func (h syncedHistory) fresh(history []Message) []Message {
	if h.held >= len(h.index) {
		return nil
	}
	out := make([]Message, 0, len(h.index)-h.held)
	for k := h.held; k < len(h.index); k++ {
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
