package hostsdk

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// mirror is a session log as Sync matches a framework's history against
// it: its message records in log order, whether each is visible and the
// plugin's, and the position it is current up to. Only the plugin's
// messages are kept whole; the runtime's are the framework's to keep.
type mirror struct {
	head, surface uint64
	entries       []mirrorEntry
	// runtime counts the visible runtime entries.
	runtime int
}

type mirrorEntry struct {
	seq     uint64
	id      string
	plugin  bool
	visible bool
	msg     *Message // the plugin's messages only
}

// mirrorOf returns the session's mirror, current up to its log's head:
// read whole the first time (or after a compaction changed what is
// visible), then only what was appended since. The caller holds the
// session's turn.
func (h *Host) mirrorOf(ctx context.Context, st *session, sessionID string) (*mirror, error) {
	log, err := h.openLog(ctx, sessionID, st)
	if err != nil {
		return nil, storeError(ctx, false, err)
	}
	head, err := log.Head(ctx)
	if err != nil {
		return nil, storeError(ctx, false, fmt.Errorf("read the head of session %q: %w", sessionID, err))
	}
	mir := st.mirror
	if mir != nil && mir.head == head.Seq && mir.surface == head.SurfaceRevision {
		return mir, nil
	}
	if mir == nil || mir.surface != head.SurfaceRevision || head.Seq < mir.head {
		mir = &mirror{}
	}
	evs, page, err := readSince(ctx, log, mir.head)
	if err != nil {
		st.mirror = nil
		return nil, storeError(ctx, false, fmt.Errorf("read session %q: %w", sessionID, err))
	}
	for _, ev := range evs {
		mir.add(h, sessionID, ev)
	}
	mir.head, mir.surface = page.Seq, page.SurfaceRevision
	st.mirror = mir
	return mir, nil
}

// readSince reads every event after seq after, oldest first, and the head
// as of which the newest page was read.
func readSince(ctx context.Context, log sessionlog.Log, after uint64) ([]sessionlog.Event, sessionlog.Head, error) {
	var evs []sessionlog.Event
	var head sessionlog.Head
	var before uint64
	for first := true; ; first = false {
		page, err := log.ReadBackward(ctx, before, after, transcriptPage)
		if err != nil {
			return nil, sessionlog.Head{}, err
		}
		if first {
			head = page.Head
		}
		evs = append(evs, page.Events...)
		if !page.More || len(page.Events) == 0 {
			break
		}
		before = page.Events[len(page.Events)-1].Seq
	}
	slices.Reverse(evs)
	return evs, head, nil
}

// add adds an event read from the log: a message, or a compaction's
// summary; other records hold no message.
func (m *mirror) add(h *Host, sessionID string, ev sessionlog.Event) {
	if !holdsMessage(ev) {
		return
	}
	e := mirrorEntry{seq: ev.Seq, plugin: isPluginSource(ev.Source), visible: ev.Visible}
	if e.plugin {
		msg, ok := h.decodeMessage(sessionID, ev)
		if !ok {
			return
		}
		e.id, e.msg = msg.ID, &msg
	} else {
		// The runtime's message is the framework's to keep: only its ID.
		var idOnly struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(ev.Body, &idOnly); err != nil {
			h.log.Warn("skill catalog: a session-log message record does not decode; left out",
				"session", sessionID, "seq", ev.Seq, "err", err)
			return
		}
		e.id = idOnly.ID
	}
	m.push(e)
}

func (m *mirror) push(e mirrorEntry) {
	m.entries = append(m.entries, e)
	if e.visible && !e.plugin {
		m.runtime++
	}
}

// extend adds the messages a step appended at seqs, when they directly
// follow what the mirror holds; it reports false otherwise (another writer
// appended in between), and the mirror must be read again.
func (m *mirror) extend(seqs []uint64, msgs []Message) bool {
	if len(seqs) != len(msgs) || seqs[0] != m.head+1 {
		return false
	}
	for i := range msgs {
		e := mirrorEntry{seq: seqs[i], id: msgs[i].ID, plugin: IsPluginMessage(msgs[i]), visible: true}
		if e.plugin {
			msg := msgs[i]
			e.msg = &msg
		}
		m.push(e)
	}
	m.head = seqs[len(seqs)-1]
	return true
}

// runtimeCount is the number of visible runtime messages.
func (m *mirror) runtimeCount() int { return m.runtime }

// commonPrefix returns how many of the visible runtime messages, in order,
// have the IDs of the history's first runtime messages.
func (m *mirror) commonPrefix(hist syncedHistory) int {
	k := 0
	for _, e := range m.entries {
		if !e.visible || e.plugin {
			continue
		}
		if k == len(hist.ids) || !hist.matches(k, e.id) {
			return k
		}
		k++
	}
	return k
}

// runtimeSeq returns the sequence number of the k-th visible runtime
// message.
func (m *mirror) runtimeSeq(k int) uint64 {
	for _, e := range m.entries {
		if e.visible && !e.plugin {
			if k == 0 {
				return e.seq
			}
			k--
		}
	}
	return m.head
}

// hide marks the entries from seq from to seq to hidden.
func (m *mirror) hide(from, to uint64) {
	for i := range m.entries {
		e := &m.entries[i]
		if e.seq >= from && e.seq <= to && e.visible {
			e.visible = false
			if !e.plugin {
				m.runtime--
			}
		}
	}
}

// view is the conversation to send: the visible entries in log order, the
// runtime's taken from history (the k-th visible runtime entry is the
// history's k-th runtime message), then whatever of the history the log
// does not hold yet (an append that failed).
func (m *mirror) view(history []Message, hist syncedHistory) []ViewMessage {
	out := make([]ViewMessage, 0, len(m.entries)+len(hist.index)-m.runtime)
	k := 0
	for _, e := range m.entries {
		switch {
		case !e.visible:
		case e.plugin:
			out = append(out, ViewMessage{Message: *e.msg, Plugin: true, HistoryIndex: -1})
		case k < len(hist.index):
			out = append(out, ViewMessage{Message: history[hist.index[k]], HistoryIndex: hist.index[k]})
			k++
		}
	}
	for ; k < len(hist.index); k++ {
		out = append(out, ViewMessage{Message: history[hist.index[k]], HistoryIndex: hist.index[k]})
	}
	return out
}
