package hostsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// Append appends messages the runtime adds to the session outside a step
// — the model's reply, tool results, user input that arrives between
// steps — to the session log, and returns their sequence numbers. Messages
// proposed to a step go through Step instead, which appends them with the
// plugin's additions. A runtime that hands its history to Sync need not
// call it: Sync appends what is new in the history.
func (s *Session) Append(ctx context.Context, msgs ...Message) ([]uint64, error) {
	log, err := s.h.sessionLog(ctx, s.id)
	if err != nil {
		return nil, err
	}
	seqs, err := appendMessages(ctx, log, msgs, msgs)
	if err != nil {
		return nil, fmt.Errorf("append messages to session %q: %w", s.id, err)
	}
	return seqs, nil
}

// Compaction is what a runtime's context compaction did to a session: the
// events it took out of the model's context, and what it put in their place.
type Compaction struct {
	// Hide is the range of session-log sequence numbers the model no longer
	// sees. Both ends must name existing events.
	Hide sessionlog.Range
	// Summary, if set, is the message that replaces them in the model's
	// context. It is the compaction record's body; nil records none.
	Summary *Message
}

// RecordCompaction records that the runtime compacted the session's
// context, as a compaction record hiding c.Hide, and returns the log's new
// head. The plugin reads visibility from the log only: if the hidden range
// held the catalog the model last saw, the next step publishes the
// current catalog again. A compaction the runtime does not record leaves
// the plugin believing the model still sees that catalog, so the next
// step adds nothing and the model goes without a catalog until the
// skills change. A runtime that hands its history to Sync need not call
// it: Sync records what the history no longer holds.
func (s *Session) RecordCompaction(ctx context.Context, c Compaction) (sessionlog.Head, error) {
	log, err := s.h.sessionLog(ctx, s.id)
	if err != nil {
		return sessionlog.Head{}, err
	}
	hide := c.Hide
	rec := sessionlog.Record{Type: sessionlog.TypeCompaction, Hide: &hide}
	if c.Summary != nil {
		if err := c.Summary.CheckUTF8(); err != nil {
			return sessionlog.Head{}, fmt.Errorf("compaction summary: %w", err) // refused, as Append refuses it
		}
		if rec.Body, err = json.Marshal(c.Summary); err != nil {
			return sessionlog.Head{}, fmt.Errorf("encode compaction summary %q: %w", c.Summary.ID, err)
		}
		rec.Source = bytes.Clone(c.Summary.Source) // the log may keep it; the runtime keeps its own
	}
	head, err := log.Append(ctx, rec)
	if err != nil {
		return sessionlog.Head{}, fmt.Errorf("record compaction of session %q: %w", s.id, err)
	}
	// A compaction ends the turn's grants: the skill's instructions the
	// model followed may be gone with it.
	s.h.sessions.get(s.id).grants.set(nil)
	return head, nil
}

// Recovery reports what opening the session's log repaired (a torn last
// line, the lines of an append cut short), opening it if the host has not
// yet. Stores that repair nothing report the zero Recovery. The host also
// logs a warning when it opens a session that needed repair.
func (s *Session) Recovery(ctx context.Context) (sessionlog.Recovery, error) {
	log, err := s.h.sessionLog(ctx, s.id)
	if err != nil {
		return sessionlog.Recovery{}, err
	}
	if r, ok := log.(recoverer); ok {
		return r.Recovery(), nil
	}
	return sessionlog.Recovery{}, nil
}

// recoverer is a log that reports what opening it repaired, as
// sessionlog.FileHandle does.
type recoverer interface{ Recovery() sessionlog.Recovery }

// warnRepaired logs what opening a session's log repaired, if anything.
func (h *Host) warnRepaired(sessionID string, log sessionlog.Log) {
	r, ok := log.(recoverer)
	if !ok {
		return
	}
	rec := r.Recovery()
	if rec.Repaired() {
		h.log.Warn("session log repaired on open: an append that never completed was dropped",
			"session", sessionID,
			"torn_tail_bytes", rec.TornTailBytes,
			"incomplete_append_lines", rec.IncompleteAppendLines,
			"incomplete_append_bytes", rec.IncompleteAppendBytes)
	}
	if rec.UnparsedLines > 0 {
		h.log.Warn("session log holds lines that are not records; they are kept and skipped",
			"session", sessionID, "unparsed_lines", rec.UnparsedLines)
	}
}
