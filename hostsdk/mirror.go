package hostsdk

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/skillcatalog/skillcatalog/events"
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
	// pluginIDs holds the IDs of the plugin's messages, visible or not.
	pluginIDs map[string]struct{}
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
	if e.plugin && e.id != "" {
		if m.pluginIDs == nil {
			m.pluginIDs = make(map[string]struct{})
		}
		m.pluginIDs[e.id] = struct{}{}
	}
}

// holdsPlugin reports whether the log holds a plugin message with the ID.
func (m *mirror) holdsPlugin(id string) bool {
	_, ok := m.pluginIDs[id]
	return ok
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

// align lines a history up with the log: it finds, in order, the visible
// runtime entries that are the history's runtime messages, sets their IDs
// in hist (the log's for those it holds, given or derived for the rest)
// and how many it holds, and returns the ranges of entries to hide so that
// the visible runtime entries are exactly those it holds:
//
//   - runtime entries the history skipped (it lost messages from its
//     front, as a framework that keeps the last N messages does, or from
//     its middle) are hidden, with the plugin's messages among them,
//     except the newest catalog, which stays visible at its place: before
//     the history's messages, where the model goes on seeing it;
//   - from the first runtime entry the history does not go on with (it was
//     summarised or edited there, or holds none of the log's messages),
//     every visible entry is hidden, the plugin's too (a catalog among
//     them is published again), and the history's messages from there
//     are new.
//
// A message with an ID is the entry with that ID. One without is an entry
// whose ID derives from it after the message before it in the history
// (as IDs are derived), or, where the history skipped entries, after
// nothing or one of the runtime entries shortly before that entry (the
// message its ID was derived after, when it was appended, may since have
// been hidden). The history's new messages derive theirs after the last
// message the log holds.
func (m *mirror) align(history []Message, hist *syncedHistory) []sessionlog.Range {
	var d deriver
	var gaps [][2]int // entries [lo, hi) the history skipped
	k, from, prev := 0, 0, ""
	for ; k < len(hist.index); k++ {
		msg := &history[hist.index[k]]
		j := m.nextRuntime(from)
		if j == len(m.entries) {
			break
		}
		if !m.follows(&d, j, prev, msg) {
			var ok bool
			if j, ok = m.resume(&d, history, hist, k, from); !ok {
				break
			}
			if lo := m.nextRuntime(from); lo < j {
				if k == 0 {
					lo = 0 // the front: superseded catalogs before it go too
				}
				gaps = append(gaps, [2]int{lo, j})
			}
		}
		hist.ids[k] = m.entries[j].id
		from, prev = j+1, m.entries[j].id
	}
	hist.held = k
	for i := k; i < len(hist.index); i++ {
		msg := &history[hist.index[i]]
		hist.ids[i] = msg.ID
		if msg.ID == "" {
			hist.ids[i] = derivedIDText(d.sum(prev, msg))
		}
		prev = hist.ids[i]
	}
	tail := m.nextRuntime(from)
	if len(gaps) == 0 && tail == len(m.entries) {
		return nil
	}
	return m.hideRanges(append(gaps, [2]int{tail, len(m.entries)}), tail)
}

// follows reports whether the entry at j is msg, following the message
// with the ID prev ("" for none).
func (m *mirror) follows(d *deriver, j int, prev string, msg *Message) bool {
	e := &m.entries[j]
	if msg.ID != "" {
		return e.id == msg.ID
	}
	return looksDerived(e.id) && isDerived(e.id, d.sum(prev, msg))
}

// maxPredGap bounds how many runtime entries before an entry resume looks
// at for the message its derived ID was derived after: the messages a
// framework edited away just before it was appended lie between them.
const maxPredGap = 16

// resume finds where the history goes on at its k-th runtime message
// after skipping entries: a visible runtime entry from from on that is
// the message (derived after nothing or after one of the maxPredGap
// runtime entries before it), the first from which the history runs on
// entry by entry to its own end or the log's, else the one from which it
// runs on longest.
func (m *mirror) resume(d *deriver, history []Message, hist *syncedHistory, k, from int) (int, bool) {
	msg := &history[hist.index[k]]
	// after holds the message's sums derived after the latest runtime
	// entries, alone its sum as a history's first message.
	var after [maxPredGap][16]byte
	var alone [16]byte
	seen := 0
	if msg.ID == "" {
		alone = d.sum("", msg)
	}
	best, bestRun := 0, 0
	for j := m.backRuntime(from, maxPredGap); j < len(m.entries); j++ {
		e := &m.entries[j]
		if e.plugin {
			continue
		}
		if j >= from && e.visible && m.isAfterAny(e.id, msg, alone, after[:min(seen, maxPredGap)]) {
			run, toAnEnd := m.run(d, history, hist, k, j)
			if toAnEnd {
				return j, true
			}
			if run > bestRun {
				best, bestRun = j, run
			}
		}
		if msg.ID == "" {
			after[seen%maxPredGap] = d.sum(e.id, msg)
			seen++
		}
	}
	return best, bestRun > 0
}

// isAfterAny reports whether an entry with the ID id is msg: its own ID,
// or one derived alone or after one of the entries whose sums are after.
func (m *mirror) isAfterAny(id string, msg *Message, alone [16]byte, after [][16]byte) bool {
	if msg.ID != "" {
		return id == msg.ID
	}
	if !looksDerived(id) {
		return false
	}
	if isDerived(id, alone) {
		return true
	}
	for _, sum := range after {
		if isDerived(id, sum) {
			return true
		}
	}
	return false
}

// run returns how many of the history's runtime messages from the k-th
// on are the visible runtime entries from j on, one after the other, and
// whether they run to the end of the history or of the log.
func (m *mirror) run(d *deriver, history []Message, hist *syncedHistory, k, j int) (int, bool) {
	n, prev := 1, m.entries[j].id
	for i := k + 1; i < len(hist.index); i++ {
		j = m.nextRuntime(j + 1)
		if j == len(m.entries) {
			return n, true
		}
		if !m.follows(d, j, prev, &history[hist.index[i]]) {
			return n, false
		}
		n, prev = n+1, m.entries[j].id
	}
	return n, true
}

// backRuntime returns the index of the entry n runtime entries (visible
// or not) before from, or 0.
func (m *mirror) backRuntime(from, n int) int {
	for j := from - 1; j >= 0; j-- {
		if !m.entries[j].plugin {
			if n--; n == 0 {
				return j
			}
		}
	}
	return 0
}

// nextRuntime returns the index of the first visible runtime entry from
// from on, or len(entries).
func (m *mirror) nextRuntime(from int) int {
	for j := from; j < len(m.entries); j++ {
		if e := &m.entries[j]; e.visible && !e.plugin {
			return j
		}
	}
	return len(m.entries)
}

// hideRanges returns the ranges of sequence numbers that hide the visible
// entries of spans (entry indexes [lo, hi)), except the newest catalog
// before tail, and the plugin's messages before tail that carry skills'
// instructions (a skill the user invoked, preloaded or attached again),
// which stay: a window that moves on keeps what the model was following,
// as it keeps the catalog, rather than have it attached again and again.
// A visible entry that stays ends a range.
func (m *mirror) hideRanges(spans [][2]int, tail int) []sessionlog.Range {
	kept := -1
	for j := tail - 1; j >= 0; j-- {
		if e := &m.entries[j]; e.visible && e.plugin && events.IsCatalogKind(e.msg.Source) {
			kept = j
			break
		}
	}
	var out []sessionlog.Range
	for _, sp := range spans {
		open := false
		for j := sp[0]; j < sp[1]; j++ {
			e := &m.entries[j]
			switch {
			case !e.visible:
			case j == kept || (j < tail && e.plugin && carriesSkills(e.msg.Source)):
				open = false
			case open:
				out[len(out)-1].To = e.seq
			default:
				out = append(out, sessionlog.Range{From: e.seq, To: e.seq})
				open = true
			}
		}
	}
	return out
}

// carriesSkills reports whether a plugin message's source says it carries
// skills' instructions.
func carriesSkills(src []byte) bool {
	return events.IsInvocationKind(src) || events.IsAttachKind(src)
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
