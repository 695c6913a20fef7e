package skills

import (
	"context"
	"slices"

	"github.com/skillcatalog/skillcatalog/skill"
)

// SnapshotChanges is what changed in a snapshot since an earlier one
// (Registry.SnapshotChanges).
type SnapshotChanges struct {
	// Token is the current snapshot's token; it is the earlier snapshot's
	// when nothing changed.
	Token string
	// Upserts are the summaries that are new or changed, sorted by name.
	Upserts []skill.Summary
	// Removed names, sorted, the skills the earlier snapshot listed and the
	// current one does not.
	Removed []string
}

// SnapshotChanges tells what changed in q's snapshot since the complete
// snapshot with token base, without building the snapshot, where the
// registry can: when every skill q sees is a runtime skill of one scope
// (no provider in q.Chain), and the registry remembers base among that
// scope's recent snapshots (those SharedSnapshot, Snapshot or
// SnapshotChanges answered with since the scope's last few changes). ok
// is false otherwise, and when the changes would not be much smaller than
// the snapshot itself: ask SharedSnapshot then. A change costs work in
// proportion to it, not to the number of skills, apart from hashing the
// new snapshot's token once. The only error is ctx's.
//
// Applying the changes to the snapshot base names gives the snapshot
// SharedSnapshot would return: the same skills, under Token.
func (r *Registry) SnapshotChanges(ctx context.Context, q Query, base string) (SnapshotChanges, bool, error) {
	if err := ctx.Err(); err != nil {
		return SnapshotChanges{}, false, err
	}
	if base == "" {
		return SnapshotChanges{}, false, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	src, ok := r.onlyRuntimeLocked(q.Chain)
	if !ok {
		return SnapshotChanges{}, false, nil
	}
	token := src.currentToken()
	if token == base {
		return SnapshotChanges{Token: token}, true, nil
	}
	upserts, removed, ok := src.journal.since(base, src)
	if !ok {
		return SnapshotChanges{}, false, nil
	}
	// What the caller is handed now, it may ask about next.
	src.journal.mark(token, len(src.sorted))
	return SnapshotChanges{Token: token, Upserts: upserts, Removed: removed}, true, nil
}

// maxJournalMarks bounds the snapshots of a scope whose changes since the
// registry remembers: the ones the sessions on it hold are usually the
// newest one or two.
const maxJournalMarks = 8

// journal records the changes of a scope's runtime skills since the oldest
// of its recent snapshots, so what changed since one of them can be told
// from the changes alone. Changes are recorded only while a snapshot is
// marked, and no further back than a delta would be worth sending.
type journal struct {
	marks   []journalMark   // oldest first
	changes []journalChange // since marks[0]
}

// journalMark is a snapshot handed out: its token, and where the changes
// made after it begin.
type journalMark struct {
	token string
	at    int
}

// journalChange is one registration added, replaced or removed: the name,
// and the summary it had before, if it had one. The summary, not the
// entry: a remembered change keeps no skill's content alive.
type journalChange struct {
	name    string
	before  skill.Summary
	existed bool
}

// record notes a change of name, whose entry was before (nil when it had
// none), in a scope of size skills.
func (j *journal) record(name string, before *runtimeEntry, size int) {
	if len(j.marks) == 0 {
		return
	}
	c := journalChange{name: name}
	if before != nil {
		c.before, c.existed = before.def.Summary, true
	}
	j.changes = append(j.changes, c)
	// A delta with more changes than half the snapshot is never sent
	// (contract.SnapshotDelta's rule), so marks that far back are of no use.
	for len(j.marks) > 0 && len(j.changes)-j.marks[0].at > size/2+1 {
		j.dropOldest()
	}
}

// mark remembers the snapshot with token as the scope is now, of size
// skills.
func (j *journal) mark(token string, size int) {
	if n := len(j.marks); n > 0 && j.marks[n-1].token == token && j.marks[n-1].at == len(j.changes) {
		return
	}
	j.marks = append(j.marks, journalMark{token: token, at: len(j.changes)})
	if len(j.marks) > maxJournalMarks {
		j.dropOldest()
	}
}

// dropOldest forgets the oldest mark and the changes before the next one.
func (j *journal) dropOldest() {
	j.marks = slices.Delete(j.marks, 0, 1)
	if len(j.marks) == 0 {
		j.changes = j.changes[:0]
		clear(j.changes[:cap(j.changes)])
		return
	}
	cut := j.marks[0].at
	n := copy(j.changes, j.changes[cut:])
	clear(j.changes[n:])
	j.changes = j.changes[:n]
	for i := range j.marks {
		j.marks[i].at -= cut
	}
}

// since returns what changed in src since the newest marked snapshot with
// token base: ok is false when none is marked, or the delta would not be
// worth sending.
func (j *journal) since(base string, src *scopeSources) (upserts []skill.Summary, removed []string, ok bool) {
	at := -1
	for i := len(j.marks) - 1; i >= 0; i-- {
		if j.marks[i].token == base {
			at = j.marks[i].at
			break
		}
	}
	if at < 0 {
		return nil, nil, false
	}
	// The first change of a name since the mark tells what it was then.
	first := make(map[string]*journalChange, len(j.changes)-at)
	var names []string
	for i := at; i < len(j.changes); i++ {
		if c := &j.changes[i]; first[c.name] == nil {
			first[c.name] = c
			names = append(names, c.name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		was, now := first[name], src.runtime[name]
		switch {
		case now != nil && (!was.existed || was.before != now.def.Summary):
			upserts = append(upserts, now.def.Summary)
		case now == nil && was.existed:
			removed = append(removed, name)
		}
	}
	if 2*(len(upserts)+len(removed)) > len(src.sorted)+1 {
		return nil, nil, false
	}
	return upserts, removed, true
}

// currentToken returns the token of the scope's runtime skills as a
// snapshot, hashing them once per change.
func (src *scopeSources) currentToken() string {
	if src.token == "" {
		src.token = snapshotTokenOf(len(src.sorted), func(i int) *skill.Summary { return &src.sorted[i].def.Summary })
	}
	return src.token
}
