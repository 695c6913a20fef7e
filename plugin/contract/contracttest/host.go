package contracttest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Callback names one of the Host's callbacks.
type Callback string

// The callbacks of contract.Host and contract.ResourceReader.
const (
	CallSnapshot     Callback = "Snapshot"
	CallGetSkill     Callback = "GetSkill"
	CallReadEvents   Callback = "ReadEvents"
	CallReadResource Callback = "ReadResource"
)

// Host is a scriptable, in-memory contract.Host and
// contract.ResourceReader for exercising services: a skill snapshot and
// the definitions behind it, each session's durable events, and skill
// resources. It answers as the contract asks a host to (sorted snapshots
// under content-derived tokens, conditional requests, deltas, backward
// pages of events, bodies only to loads that may use them), counts every
// callback, and fails or hangs a callback on request. It is safe for
// concurrent use.
type Host struct {
	mu        sync.Mutex
	skills    map[string]skill.Definition
	complete  bool
	resources map[string][]byte   // "name/path" → content
	sessions  map[string]*session // by id
	sent      map[string][]skill.Summary
	fail      map[Callback]error
	hang      map[Callback]chan struct{} // closed when a hung callback starts
	calls     map[Callback]int
}

type session struct {
	events  []contract.SessionEvent // oldest first; seq = index + 1
	surface uint64
}

// NewHost returns a Host with no skills, a complete (empty) snapshot and no
// sessions.
func NewHost() *Host {
	return &Host{
		skills:    make(map[string]skill.Definition),
		complete:  true,
		resources: make(map[string][]byte),
		sessions:  make(map[string]*session),
		sent:      make(map[string][]skill.Summary),
		fail:      make(map[Callback]error),
		hang:      make(map[Callback]chan struct{}),
		calls:     make(map[Callback]int),
	}
}

// SetSkill adds d to the snapshot, or replaces the skill of its name.
func (h *Host) SetSkill(d skill.Definition) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.skills[d.Name] = d.Clone()
}

// RemoveSkill takes a skill out of the snapshot.
func (h *Host) RemoveSkill(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.skills, name)
}

// SetComplete says whether the snapshot is complete (a provider failed
// when it is not).
func (h *Host) SetComplete(complete bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.complete = complete
}

// SetResource makes content the file at path of a skill's resources.
func (h *Host) SetResource(name, path string, content []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.resources[name+"/"+path] = slices.Clone(content)
}

// Fail makes every later call of a callback fail with err; nil heals it.
func (h *Host) Fail(c Callback, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		delete(h.fail, c)
	} else {
		h.fail[c] = err
	}
}

// Hang makes every later call of a callback block until its context ends,
// then return the context's error. The channel is closed when the first
// such call starts.
func (h *Host) Hang(c Callback) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan struct{})
	h.hang[c] = ch
	return ch
}

// Calls returns how many times the service called a callback.
func (h *Host) Calls(c Callback) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[c]
}

// TotalCalls returns how many callbacks the service made.
func (h *Host) TotalCalls() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.calls {
		n += c
	}
	return n
}

// Append appends messages to a session's log as the host appends a step's
// final messages: one message event each, with its source.
func (h *Host) Append(sessionID string, msgs ...contract.Message) contract.SessionHead {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessionLocked(sessionID)
	for _, m := range msgs {
		s.events = append(s.events, contract.SessionEvent{Seq: uint64(len(s.events) + 1), Type: "message", Source: m.Source, Visible: true})
	}
	return s.headLocked()
}

// Compact hides the events from..to of a session, as a recorded compaction
// does: a compaction event is appended and the surface revision changes.
func (h *Host) Compact(sessionID string, from, to uint64) contract.SessionHead {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessionLocked(sessionID)
	for i := range s.events {
		if seq := s.events[i].Seq; seq >= from && seq <= to {
			s.events[i].Visible = false
		}
	}
	s.events = append(s.events, contract.SessionEvent{Seq: uint64(len(s.events) + 1), Type: "compaction", Visible: true})
	s.surface++
	return s.headLocked()
}

// Head returns a session's head.
func (h *Host) Head(sessionID string) contract.SessionHead {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessionLocked(sessionID).headLocked()
}

// Since returns a session's events after seq after, newest first, as a
// step's contract.RecentEvents carries them.
func (h *Host) Since(sessionID string, after uint64) *contract.RecentEvents {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessionLocked(sessionID)
	r := &contract.RecentEvents{AfterSeq: after}
	for i := len(s.events) - 1; i >= 0 && s.events[i].Seq > after; i-- {
		r.Events = append(r.Events, s.events[i])
	}
	return r
}

// Token returns the token the current snapshot carries, "" when it is
// incomplete.
func (h *Host) Token() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.complete {
		return ""
	}
	return tokenOf(h.summariesLocked())
}

func (h *Host) sessionLocked(id string) *session {
	s := h.sessions[id]
	if s == nil {
		s = &session{}
		h.sessions[id] = s
	}
	return s
}

func (s *session) headLocked() contract.SessionHead {
	return contract.SessionHead{Seq: uint64(len(s.events)), SurfaceRevision: s.surface}
}

func (h *Host) summariesLocked() []skill.Summary {
	out := make([]skill.Summary, 0, len(h.skills))
	for _, d := range h.skills {
		out = append(out, d.Summary)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// tokenOf derives a snapshot's token from its content.
func tokenOf(sums []skill.Summary) string {
	b, _ := json.Marshal(sums)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// begin counts a callback and applies what Fail and Hang scripted for it.
func (h *Host) begin(ctx context.Context, c Callback) error {
	h.mu.Lock()
	h.calls[c]++
	err, hang := h.fail[c], h.hang[c]
	h.mu.Unlock()
	if hang != nil {
		select {
		case <-hang:
		default:
			close(hang)
		}
		<-ctx.Done()
		return ctx.Err()
	}
	return err
}

// Snapshot answers with the skills, sorted, under a token derived from
// their content: not modified when the request names that token, a delta
// when it asks for one against a snapshot this host sent and the delta is
// worth sending.
func (h *Host) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	if err := h.begin(ctx, CallSnapshot); err != nil {
		return contract.Snapshot{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	sums := h.summariesLocked()
	if !h.complete {
		return contract.Snapshot{Skills: sums}, nil
	}
	token := tokenOf(sums)
	if req.IfNoneMatch == token {
		return contract.Snapshot{NotModified: true, Token: token, Complete: true}, nil
	}
	out := contract.Snapshot{Token: token, Complete: true, Skills: sums}
	if base, ok := h.sent[req.IfNoneMatch]; ok && req.AcceptDelta {
		if up, removed, worth := contract.SnapshotDelta(base, sums); worth {
			out.Skills, out.Removed, out.DeltaBase = up, removed, req.IfNoneMatch
		}
	}
	h.sent[token] = sums
	return out, nil
}

// Ahead is what a host sends with a step in place of the Snapshot
// callback (contract.StepRequest.Snapshot): the delta of the current
// snapshot against the one named base, which must be one this host
// answered with; nil when there is none to send. It is not counted as a
// callback.
func (h *Host) Ahead(base string) *contract.Snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	sums := h.summariesLocked()
	old, ok := h.sent[base]
	if !h.complete || !ok {
		return nil
	}
	token := tokenOf(sums)
	up, removed, _ := contract.SnapshotDelta(old, sums)
	h.sent[token] = sums
	return &contract.Snapshot{Token: token, Complete: true, Skills: up, Removed: removed, DeltaBase: base}
}

// GetSkill answers with the definition; its content and resource base
// only when the load may use them.
func (h *Host) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	if err := h.begin(ctx, CallGetSkill); err != nil {
		return contract.SkillLookup{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.skills[req.Name]
	if !ok {
		return contract.SkillLookup{}, nil
	}
	d = d.Clone()
	if !d.Invocation.ModelInvocable && !(req.UserInvocation && d.Invocation.UserInvocable) {
		d.Content, d.ResourceBase = "", nil
	}
	return contract.SkillLookup{Found: true, Skill: d}, nil
}

// ReadEvents answers with a page of the session's events, newest first.
func (h *Host) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	if err := h.begin(ctx, CallReadEvents); err != nil {
		return contract.EventPage{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessionLocked(req.SessionID)
	page := contract.EventPage{Head: s.headLocked()}
	limit := req.MaxEvents
	if limit <= 0 {
		limit = 4096
	}
	for i := len(s.events) - 1; i >= 0; i-- {
		ev := s.events[i]
		if ev.Seq <= req.AfterSeq {
			break
		}
		if req.BeforeSeq != 0 && ev.Seq >= req.BeforeSeq {
			continue
		}
		if len(page.Events) == limit {
			page.More = true
			break
		}
		page.Events = append(page.Events, ev)
	}
	return page, nil
}

// ReadResource answers with the window of a resource SetResource gave.
func (h *Host) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	if err := h.begin(ctx, CallReadResource); err != nil {
		return contract.ResourceRead{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.skills[req.Name]
	switch {
	case !ok:
		return contract.ResourceRead{Status: contract.ResourceSkillNotFound}, nil
	case !d.Invocation.ModelInvocable:
		return contract.ResourceRead{Status: contract.ResourceNotModelInvocable}, nil
	case strings.Contains(req.Path, ".."):
		return contract.ResourceRead{Status: contract.ResourceInvalidPath}, nil
	}
	data, ok := h.resources[req.Name+"/"+req.Path]
	if !ok {
		return contract.ResourceRead{Status: contract.ResourceNotFound}, nil
	}
	total := int64(len(data))
	start := min(req.Offset, total)
	end := min(start+int64(req.MaxBytes), total)
	return contract.ResourceRead{Status: contract.ResourceOK, Total: total, Data: slices.Clone(data[start:end])}, nil
}

var (
	_ contract.Host           = (*Host)(nil)
	_ contract.ResourceReader = (*Host)(nil)
)
