package discovery

import (
	"context"
	"log/slog"
	"sync"

	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// maxNotedSessions bounds the sessions whose snapshot notes a mount keeps
// between a step's Snapshot and the end of that step.
const maxNotedSessions = 4096

// localHost is the contract.Host of a discovering mount: snapshots, skill
// loads and resource reads answered from the mount's own registry by the
// answerer the Go host SDK answers with from the host's
// (hostanswer.Answerer), and the session log read from the host.
type localHost struct {
	host   contract.Host // the host's callbacks: only ReadEvents is called
	answer *hostanswer.Answerer
	log    *slog.Logger
	// honour is the kinds of directive the host acts on for trusted skills
	// (Discovery.HonourDirectives).
	honour skill.DirectiveSet

	mu    sync.Mutex
	notes map[string]*hostanswer.Mailbox // by session
}

var (
	_ contract.Host           = (*localHost)(nil)
	_ contract.ResourceReader = (*localHost)(nil)
)

func newLocalHost(host contract.Host, reg *skills.Registry, logger *slog.Logger, honour skill.DirectiveSet) *localHost {
	return &localHost{host: host, answer: hostanswer.New(reg, chain, nil), log: logger, honour: honour,
		notes: make(map[string]*hostanswer.Mailbox)}
}

// chain is every agent scope's: a mount's discovered skills are all in
// Scope.
func chain(string) ([]string, error) { return []string{Scope}, nil }

// Snapshot answers from the registry; what the registry said beside it is
// kept for the step to report.
func (h *localHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	snap, notes, err := h.answer.Snapshot(ctx, req, nil)
	if err != nil {
		return contract.Snapshot{}, err
	}
	h.mailbox(req.SessionID).Put(notes)
	h.log.Debug("skills discovered", "session", req.SessionID, "cwd", req.Cwd, "token", snap.Token,
		"skills", len(snap.Skills), "complete", snap.Complete, "not-modified", snap.NotModified)
	return snap, nil
}

// GetSkill loads a skill from the registry, a trusted skill's directives
// marked with the kinds the host said it acts on.
func (h *localHost) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	look, err := h.answer.GetSkill(ctx, req, nil)
	if d := look.Skill.Directives; err == nil && d != nil && d.Trusted {
		d.Honoured = h.honour & d.Requested()
	}
	return look, err
}

// ReadResource reads a window of a skill's file through the registry.
func (h *localHost) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	return h.answer.ReadResource(ctx, req)
}

// ReadEvents reads the session log from the host.
func (h *localHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	return h.host.ReadEvents(ctx, req)
}

// mailbox returns the session's notes mailbox, made on first use. Past
// maxNotedSessions, another session's makes room: one whose step never
// came, or long ended.
func (h *localHost) mailbox(session string) *hostanswer.Mailbox {
	h.mu.Lock()
	defer h.mu.Unlock()
	if m, ok := h.notes[session]; ok {
		return m
	}
	if len(h.notes) >= maxNotedSessions {
		for k := range h.notes {
			delete(h.notes, k)
			break
		}
	}
	m := &hostanswer.Mailbox{}
	h.notes[session] = m
	return m
}

// endSession forgets a session's mailbox.
func (h *localHost) endSession(session string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.notes, session)
}
