package hostsdk

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Bounds of a Selection, so a selection record stays small.
const (
	// MaxSelectionEntries bounds each of a Selection's four lists.
	MaxSelectionEntries = 1024
	// MaxSelectionValueBytes bounds each name and provider label in a
	// Selection.
	MaxSelectionValueBytes = 256
)

// Selection chooses which of the skills visible to an agent one session
// may use. Names are skill names (skill.ValidName); providers are the
// provider labels of skill summaries (skill.Summary.Provider: "runtime",
// "agentskills", an MCP provider's label, ...).
//
// A skill is selected when no exclusion matches it and, if any inclusion is
// given, at least one inclusion does:
//
//   - Exclusion wins: a skill whose name is in ExcludeNames, or whose
//     provider is in ExcludeProviders, is never selected, whatever the
//     inclusions say.
//   - Empty inclusions select everything: with IncludeNames and
//     IncludeProviders both empty, every skill not excluded is selected.
//   - Inclusions add up: otherwise a skill is selected when its name is in
//     IncludeNames or its provider is in IncludeProviders.
//
// The zero Selection selects every skill. Its JSON form, empty lists left
// out, is the body of the session-log record that holds it
// (sessionlog.TypeSkillSelection). Selection applies to the skills
// the registry resolved (the winner of each name); a skill hidden by it does
// not let a same-name skill of another source take its place. Names and
// providers that match no skill are allowed: skills may appear later.
type Selection struct {
	IncludeNames     []string `json:"includeNames,omitempty"`
	ExcludeNames     []string `json:"excludeNames,omitempty"`
	IncludeProviders []string `json:"includeProviders,omitempty"`
	ExcludeProviders []string `json:"excludeProviders,omitempty"`
}

// IsZero reports whether s selects every skill: all four lists are empty.
func (s Selection) IsZero() bool {
	return len(s.IncludeNames) == 0 && len(s.ExcludeNames) == 0 &&
		len(s.IncludeProviders) == 0 && len(s.ExcludeProviders) == 0
}

// Validate reports the first entry s may not hold: a name outside the skill
// name grammar, an empty, non-UTF-8 or over-long provider label, or a list
// longer than MaxSelectionEntries. The error names the field, the entry's
// index and the bound.
func (s Selection) Validate() error {
	check := func(field string, vals []string, valid func(string) error) error {
		if len(vals) > MaxSelectionEntries {
			return fmt.Errorf("hostsdk: Selection.%s has %d entries, at most %d are allowed", field, len(vals), MaxSelectionEntries)
		}
		for i, v := range vals {
			if err := valid(v); err != nil {
				return fmt.Errorf("hostsdk: Selection.%s[%d]: %w", field, i, err)
			}
		}
		return nil
	}
	name := func(v string) error {
		if len(v) > MaxSelectionValueBytes {
			return fmt.Errorf("skill name of %d bytes, at most %d are allowed", len(v), MaxSelectionValueBytes)
		}
		if !skill.ValidName(v) {
			return fmt.Errorf("invalid skill name %q: must match %s", v, skill.NamePattern)
		}
		return nil
	}
	provider := func(v string) error {
		switch {
		case v == "":
			return errors.New("provider label is empty")
		case len(v) > MaxSelectionValueBytes:
			return fmt.Errorf("provider label of %d bytes, at most %d are allowed", len(v), MaxSelectionValueBytes)
		case !utf8.ValidString(v):
			return fmt.Errorf("provider label %q is not valid UTF-8", v)
		}
		return nil
	}
	return errors.Join(
		check("IncludeNames", s.IncludeNames, name),
		check("ExcludeNames", s.ExcludeNames, name),
		check("IncludeProviders", s.IncludeProviders, provider),
		check("ExcludeProviders", s.ExcludeProviders, provider),
	)
}

// normalized returns s with every list sorted and free of duplicates, and
// empty lists nil: the form that is recorded and compared.
func (s Selection) normalized() Selection {
	norm := func(v []string) []string {
		if len(v) == 0 {
			return nil
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return slices.Compact(v)
	}
	return Selection{
		IncludeNames:     norm(s.IncludeNames),
		ExcludeNames:     norm(s.ExcludeNames),
		IncludeProviders: norm(s.IncludeProviders),
		ExcludeProviders: norm(s.ExcludeProviders),
	}
}

// Allows reports whether s selects the skill of that name and provider
// label, by the precedence documented on Selection. s need not be
// normalized.
func (s Selection) Allows(name, provider string) bool {
	return s.allows(name, provider, slices.Contains[[]string])
}

// allows is Allows with the list lookup given: the host's own selections
// are normalized, so it looks them up by binary search (sortedContains),
// which keeps filtering a large snapshot against long lists cheap.
func (s Selection) allows(name, provider string, contains func([]string, string) bool) bool {
	if contains(s.ExcludeNames, name) || contains(s.ExcludeProviders, provider) {
		return false
	}
	if len(s.IncludeNames) == 0 && len(s.IncludeProviders) == 0 {
		return true
	}
	return contains(s.IncludeNames, name) || contains(s.IncludeProviders, provider)
}

// refusesName reports whether the normalized s refuses name whatever its
// provider: it is excluded, or only named skills are included and it is not
// one of them.
func (s Selection) refusesName(name string) bool {
	if sortedContains(s.ExcludeNames, name) {
		return true
	}
	return len(s.IncludeProviders) == 0 && len(s.IncludeNames) > 0 && !sortedContains(s.IncludeNames, name)
}

// sortedContains looks v up in a sorted list.
func sortedContains(list []string, v string) bool {
	_, found := slices.BinarySearch(list, v)
	return found
}

// filter returns the summaries the normalized s selects, sharing sums when
// it selects all.
func (s Selection) filter(sums []skill.Summary) []skill.Summary {
	if s.IsZero() {
		return sums
	}
	out := make([]skill.Summary, 0, len(sums))
	for _, sum := range sums {
		if s.allows(sum.Name, sum.Provider, sortedContains) {
			out = append(out, sum)
		}
	}
	return out
}

// selectionTokenDomain separates selected-snapshot tokens from every other
// use of the hash and versions the encoding.
const selectionTokenDomain = "skillcatalog/hostsdk.selection/v1"

// sessionSelection is a session's selection as the host last read it.
type sessionSelection struct {
	sel Selection // normalized
	// key is the canonical encoding of sel (its record body), "" for the
	// zero selection.
	key string
	// seq is the log position up to which sel is known to be the newest
	// readable selection record.
	seq uint64
}

// token derives the token of the selected snapshot from the token of the
// registry's snapshot. Tokens are content addresses that the plugin and the
// host's delta memory share across sessions, so a selected snapshot needs a
// token of its own; the registry's token and the selection together
// determine its content, so hashing the two keeps the token a content
// address without filtering the snapshot at every step. The zero selection
// keeps the registry's token, and an incomplete snapshot (no token) stays
// without one.
func (st sessionSelection) token(base string) string {
	if st.key == "" || base == "" {
		return base
	}
	h := xxh3.New128()
	var scratch [binary.MaxVarintLen64]byte
	for _, s := range []string{selectionTokenDomain, base, st.key} {
		_, _ = h.Write(binary.AppendUvarint(scratch[:0], uint64(len(s))))
		_, _ = h.WriteString(s)
	}
	sum := h.Sum128().Bytes()
	return hex.EncodeToString(sum[:])
}

// A session's selection is the view the host's callbacks answer it with
// (hostanswer.View).
var _ hostanswer.View = sessionSelection{}

// Whole reports whether the session sees every skill: no selection.
func (st sessionSelection) Whole() bool { return st.sel.IsZero() }

// Token is token (see token), for the answerer.
func (st sessionSelection) Token(base string) string { return st.token(base) }

// Filter returns the skills of sums the selection keeps.
func (st sessionSelection) Filter(sums []skill.Summary) []skill.Summary { return st.sel.filter(sums) }

// RefusesName reports whether the selection keeps no skill called name.
func (st sessionSelection) RefusesName(name string) bool { return st.sel.refusesName(name) }

// Allows reports whether the selection keeps the skill name of provider.
func (st sessionSelection) Allows(name, provider string) bool {
	return st.sel.allows(name, provider, sortedContains)
}

// newSessionSelection builds the state for a normalized selection known to
// be the newest as of seq.
func newSessionSelection(sel Selection, seq uint64) sessionSelection {
	st := sessionSelection{sel: sel, seq: seq}
	if !sel.IsZero() {
		st.key = string(encodeSelection(sel))
	}
	return st
}

// encodeSelection is the body of a selection record: a JSON object with
// the four lists, empty ones left out. sel must be normalized, so equal
// selections encode alike.
func encodeSelection(sel Selection) []byte {
	b, err := json.Marshal(sel)
	if err != nil {
		// A struct of string slices always encodes.
		panic(fmt.Sprintf("hostsdk: encode selection: %v", err))
	}
	return b
}

// decodeSelection reads a selection record's body. A body that is not such
// an object, or holds an entry Validate refuses, is not a readable
// selection; fields it does not know are ignored.
func decodeSelection(body []byte) (Selection, bool) {
	// Only an object is a selection; null would decode as the zero one.
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return Selection{}, false
	}
	var sel Selection
	if err := json.Unmarshal(body, &sel); err != nil {
		return Selection{}, false
	}
	if sel.Validate() != nil {
		return Selection{}, false
	}
	return sel.normalized(), true
}

// newestSelection returns the newest readable selection record among evs
// (newest first), if any.
func newestSelection(evs []sessionlog.Event) (Selection, bool) {
	for _, ev := range evs {
		if ev.Type != sessionlog.TypeSkillSelection {
			continue
		}
		if sel, ok := decodeSelection(ev.Body); ok {
			return sel, true
		}
	}
	return Selection{}, false
}

// selectionPage bounds one backward page of a selection scan: events carry
// their bodies, which may be large.
const selectionPage = 256

// SelectSkills records sel as the session's skill selection, replacing the
// previous one; the zero Selection clears it. The selection is a record in
// the session log (see sessionlog.TypeSkillSelection), so a resumed session
// (a new Host on the same store) and a forked one (whose log starts with a
// copy of its parent's records) keep it. From the session's next step on,
// the catalog lists only the selected skills — the step publishes a
// replacement when that changes what the model sees — and the `skill` tool
// answers an unselected skill as unknown. A selection equal to the one in
// effect writes nothing. sel is validated first (Selection.Validate).
func (s *Session) SelectSkills(ctx context.Context, sel Selection) error {
	if err := sel.Validate(); err != nil {
		return err
	}
	sel = sel.normalized()
	st := s.h.sessions.get(s.id)
	log, err := s.h.openLog(ctx, s.id, st)
	if err != nil {
		return err
	}
	cur, err := s.h.selectionOf(ctx, s.id, st, log, nil)
	if err != nil {
		return err
	}
	body := encodeSelection(sel)
	if string(body) == string(encodeSelection(cur.sel)) {
		return nil
	}
	// Unconditional: the session keeps growing while the runtime works, and
	// of two selections recorded at once the later one wins, as it would
	// had they come one after the other.
	head, err := log.Append(ctx, sessionlog.Record{Type: sessionlog.TypeSkillSelection, Body: body})
	if err != nil {
		return fmt.Errorf("record skill selection of session %q: %w", s.id, err)
	}
	// The record is the newest event as of the head Append returned.
	st.keepSelection(newSessionSelection(sel, head.Seq))
	return nil
}

// Selection returns the session's skill selection, normalized (lists
// sorted, duplicates dropped, empty lists nil): the newest readable
// selection record in its log, or the zero Selection when there is none.
func (s *Session) Selection(ctx context.Context) (Selection, error) {
	cur, err := s.h.currentSelection(ctx, s.id, s.h.sessions.get(s.id), nil)
	if err != nil {
		return Selection{}, err
	}
	return cur.sel, nil
}

// currentSelection is selectionOf for a session whose log the caller has
// not opened.
func (h *Host) currentSelection(ctx context.Context, sessionID string, s *session, head *sessionlog.Head) (sessionSelection, error) {
	log, err := h.openLog(ctx, sessionID, s)
	if err != nil {
		return sessionSelection{}, err
	}
	return h.selectionOf(ctx, sessionID, s, log, head)
}

// selectionOf returns the session's selection as of the log's head (head,
// when the caller has just read it; nil reads it).
//
// The host remembers each open session's selection with the log position it
// is known up to. When the head has not moved past that position the answer
// costs nothing; when it has, the events appended since are considered
// (steps usually hand them over for free, see observeSelection), so another
// host writing the selection to a shared store is honoured at this host's
// next step or tool call. A log that names the newest event of a type
// (sessionlog.TypeSeeker, as the package's own logs do) answers the rest
// with one lookup and at most one event read; another log is read back,
// newest first, until its newest selection record or the remembered
// position (the start, for a session the host has not seen).
func (h *Host) selectionOf(ctx context.Context, sessionID string, s *session, log sessionlog.Log, head *sessionlog.Head) (sessionSelection, error) {
	if head == nil {
		hd, err := log.Head(ctx)
		if err != nil {
			return sessionSelection{}, fmt.Errorf("read the session log's head for the skill selection of session %q: %w", sessionID, err)
		}
		head = &hd
	}
	st, known := s.knownSelection()
	if known && st.seq >= head.Seq {
		// Known up to the head, or further: a concurrent step or
		// SelectSkills read a newer head after the caller read its own.
		// Logs only grow, so what was known then holds now.
		return st, nil
	}
	if !known {
		st = sessionSelection{}
	}
	st, err := readSelection(ctx, log, st, known)
	if err != nil {
		return sessionSelection{}, fmt.Errorf("read skill selection of session %q: %w", sessionID, err)
	}
	s.keepSelection(st)
	return st, nil
}

// readSelection brings st, known up to st.seq (when known), up to the log's
// head.
func readSelection(ctx context.Context, log sessionlog.Log, st sessionSelection, known bool) (sessionSelection, error) {
	after := st.seq
	var before, upTo uint64
	if seeker, ok := log.(sessionlog.TypeSeeker); ok {
		newest, head, ok, err := seeker.NewestOfType(ctx, sessionlog.TypeSkillSelection)
		if err != nil {
			return sessionSelection{}, err
		}
		if ok {
			upTo = max(head.Seq, after)
			if newest <= after {
				st.seq = upTo // nothing new: the remembered selection holds
				return st, nil
			}
			page, err := log.ReadBackward(ctx, newest+1, newest-1, 1)
			if err != nil {
				return sessionSelection{}, err
			}
			if sel, ok := newestSelection(page.Events); ok {
				return newSessionSelection(sel, upTo), nil
			}
			// The newest record is not readable: look further back.
			before = newest
		}
	}
	for {
		page, err := log.ReadBackward(ctx, before, after, selectionPage)
		if err != nil {
			return sessionSelection{}, err
		}
		if upTo == 0 {
			upTo = max(page.Head.Seq, after)
		}
		if sel, ok := newestSelection(page.Events); ok {
			return newSessionSelection(sel, upTo), nil
		}
		if !page.More || len(page.Events) == 0 {
			if !known {
				st = sessionSelection{}
			}
			st.seq = upTo
			return st, nil
		}
		before = page.Events[len(page.Events)-1].Seq
	}
}

// observeSelection updates a session's remembered selection from the events
// a step read anyway: evs are every event after seq after, newest first, as
// of head. It does nothing unless the remembered selection is known up to
// exactly after, so a step of an agent loop costs no extra read.
func observeSelection(s *session, after uint64, evs []sessionlog.Event, head sessionlog.Head) {
	s.updateSelection(func(st sessionSelection) (sessionSelection, bool) {
		if st.seq != after || head.Seq <= after {
			return st, false
		}
		if sel, found := newestSelection(evs); found {
			return newSessionSelection(sel, head.Seq), true
		}
		st.seq = head.Seq
		return st, true
	})
}
