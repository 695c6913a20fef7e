package hostsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// Content block types, and the constructors and readers of the blocks a
// runtime's transcript holds (see contract.ContentBlock): text, a model's
// tool call, a tool's result, an image. Any other block (a model's
// thinking, a document) is kept as its JSON with RawBlock.
const (
	BlockText       = contract.BlockText
	BlockToolUse    = contract.BlockToolUse
	BlockToolResult = contract.BlockToolResult
	BlockImage      = contract.BlockImage
)

type (
	// ToolUse is a model's call of a tool, as a "tool_use" block holds it.
	ToolUse = contract.ToolUse
	// ToolOutput is a tool call's result, as a "tool_result" block holds it.
	ToolOutput = contract.ToolOutput
	// Image is an image, as an "image" block holds it.
	Image = contract.Image
)

// TextBlock returns a plain text block.
func TextBlock(text string) ContentBlock { return contract.TextBlock(text) }

// ToolUseBlock returns a "tool_use" block; input must be a JSON object.
func ToolUseBlock(id, name string, input json.RawMessage) (ContentBlock, error) {
	return contract.ToolUseBlock(id, name, input)
}

// ToolResultBlock returns a "tool_result" block answering the call callID.
func ToolResultBlock(callID string, content []ContentBlock, isError bool) (ContentBlock, error) {
	return contract.ToolResultBlock(callID, content, isError)
}

// ImageBlock returns an "image" block, inline or by URL.
func ImageBlock(img Image) (ContentBlock, error) { return contract.ImageBlock(img) }

// RawBlock returns the block raw encodes, kept as it is: any JSON object
// with a string member "type".
func RawBlock(raw json.RawMessage) (ContentBlock, error) { return contract.RawBlock(raw) }

// TranscriptEntry is one message of a session's log.
type TranscriptEntry struct {
	// Seq is the message's sequence number in the session log.
	Seq uint64
	// Visible is false for a message a recorded compaction hid from the
	// model.
	Visible bool
	// Compaction is true for the summary a compaction put in the place of
	// the messages it hid.
	Compaction bool
	// Plugin is true for a message the plugin added (IsPluginMessage): a
	// catalog, a replacement or tombstone, a user-invoked skill's
	// instructions.
	Plugin  bool
	Message Message
}

// transcriptPage is how many events Transcript reads a call.
const transcriptPage = 1024

// Transcript reads the session's messages back from its log, oldest first:
// the messages of every step and of Append, and the summaries of
// recorded compactions, each with its source and with its content blocks
// as they were appended (blocks other than plain text byte for byte). A
// runtime that restarts rebuilds the model's context from the visible
// entries. Records that hold no message (a compaction without a summary, a
// skill selection) are left out; a message record that cannot be decoded
// is left out too, and logged, so one bad record never costs the rest.
func (s *Session) Transcript(ctx context.Context) ([]TranscriptEntry, error) {
	log, err := s.h.sessionLog(ctx, s.id)
	if err != nil {
		return nil, err
	}
	evs, _, err := readSince(ctx, log, 0)
	if err != nil {
		return nil, fmt.Errorf("read the transcript of session %q: %w", s.id, err)
	}
	var out []TranscriptEntry
	for _, ev := range evs {
		if msg, ok := s.h.decodeMessage(s.id, ev); ok {
			out = append(out, TranscriptEntry{Seq: ev.Seq, Visible: ev.Visible, Compaction: ev.Type == sessionlog.TypeCompaction,
				Plugin: IsPluginMessage(msg), Message: msg})
		}
	}
	return out, nil
}

// holdsMessage reports whether a session-log event holds a message: a
// message record, or a compaction's summary.
func holdsMessage(ev sessionlog.Event) bool {
	return (ev.Type == sessionlog.TypeMessage || ev.Type == sessionlog.TypeCompaction) && ev.Body != nil
}

// decodeMessage returns the message an event holds, with a source of its
// own (stores may share the bytes they hold, see sessionlog.Log). A
// record that holds none reports false; one that does not decode is
// logged and reports false too, so one bad record never costs the rest.
func (h *Host) decodeMessage(sessionID string, ev sessionlog.Event) (Message, bool) {
	if !holdsMessage(ev) {
		return Message{}, false
	}
	var msg Message
	if err := json.Unmarshal(ev.Body, &msg); err != nil {
		h.log.Warn("skill catalog: a session-log message record does not decode; left out",
			"session", sessionID, "seq", ev.Seq, "err", err)
		return Message{}, false
	}
	msg.Source = bytes.Clone(ev.Source)
	return msg, true
}
