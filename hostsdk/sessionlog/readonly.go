package sessionlog

import "bytes"

// ParseFileLog reads the events of a FileLog's file from its bytes, oldest
// first, without opening (and so without repairing or locking) the file:
// for a reader such as a tool that shows what a session recorded while its
// host may still be appending. It reads what OpenFile would keep: an
// unterminated last line and the lines of a multi-record Append whose
// last line is missing are left out. Each event's seq is its line number
// and Visible reflects every Hide range read; a line that is not a record
// comes back as an Event with Type "" and the line in Raw, as ReadBackward
// returns it.
func ParseFileLog(data []byte) []Event {
	var evs []Event
	type hideAt struct {
		seq uint64
		r   Range
	}
	var hides []hideAt
	pending := -1 // index in evs of the first line of an unfinished Append
	for seq := uint64(1); len(data) > 0; seq++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break // a torn last line
		}
		line := data[:i]
		data = data[i+1:]
		p := parseLine(line, seq)
		ev := Event{Seq: seq, Type: p.typ, Source: p.source, Body: p.body, Visible: true}
		if !p.ok {
			ev = Event{Seq: seq, Visible: true, Raw: bytes.Clone(line)}
		}
		if p.ok && p.hide != nil {
			hides = append(hides, hideAt{seq, *p.hide})
		}
		if pending < 0 && p.ok && p.more {
			pending = len(evs)
		}
		evs = append(evs, ev)
		if !p.ok || !p.more {
			pending = -1
		}
	}
	if pending >= 0 {
		evs = evs[:pending]
	}
	last := uint64(len(evs)) // seqs are dense from 1: the newest kept
	for i := range evs {
		for _, h := range hides {
			if h.seq <= last && h.r.From <= evs[i].Seq && evs[i].Seq <= h.r.To {
				evs[i].Visible = false
			}
		}
	}
	return evs
}
