package discovery

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
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
// loads and resource reads answered from the mount's own registry, as the
// Go host SDK answers them from the host's, and the session log read from
// the host.
type localHost struct {
	host contract.Host // the host's callbacks: only ReadEvents is called
	reg  *skills.Registry
	log  *slog.Logger
	// honour is the kinds of directive the host acts on for trusted skills
	// (Discovery.HonourDirectives).
	honour skill.DirectiveSet

	mu    sync.Mutex
	notes map[string]hostanswer.Notes // by session, until its step takes them
}

var (
	_ contract.Host           = (*localHost)(nil)
	_ contract.ResourceReader = (*localHost)(nil)
)

func newLocalHost(host contract.Host, reg *skills.Registry, logger *slog.Logger, honour skill.DirectiveSet) *localHost {
	return &localHost{host: host, reg: reg, log: logger, honour: honour, notes: make(map[string]hostanswer.Notes)}
}

// query is the registry query of a call: its session and working
// directory, in Scope. A working directory that is not absolute is
// refused: it would be taken from the plugin process's own.
func query(session, cwd string) (skills.Query, error) {
	if cwd != "" && !filepath.IsAbs(cwd) {
		return skills.Query{}, fmt.Errorf("discovery: the working directory %q is not an absolute path, so no skills are discovered from it", cwd)
	}
	return skills.Query{SessionID: session, Cwd: cwd, Chain: []string{Scope}}, nil
}

// Snapshot answers from the registry: not modified when the request names
// the current token, the whole snapshot otherwise (the engine needs no
// delta in its own process). What the registry said beside it is kept for
// the step to report.
func (h *localHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	q, err := query(req.SessionID, req.Cwd)
	if err != nil {
		return contract.Snapshot{}, err
	}
	snap, err := h.reg.SharedSnapshot(ctx, q)
	if err != nil {
		return contract.Snapshot{}, fmt.Errorf("discovery: snapshot: %w", err)
	}
	h.setNotes(req.SessionID, hostanswer.SnapshotNotes(snap))
	if snap.Complete && snap.Token != "" && snap.Token == req.IfNoneMatch {
		return contract.Snapshot{NotModified: true, Token: snap.Token, Complete: true}, nil
	}
	h.log.Debug("skills discovered", "session", req.SessionID, "cwd", req.Cwd, "token", snap.Token,
		"skills", len(snap.Skills), "complete", snap.Complete)
	return contract.Snapshot{Token: snap.Token, Complete: snap.Complete, Skills: snap.Skills}, nil
}

// GetSkill loads a skill from the registry, a trusted skill's directives
// marked with the kinds the host said it acts on. A provider's failure is
// an answer (its own text, bounded), not an error.
func (h *localHost) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	q, err := query(req.SessionID, req.Cwd)
	if err != nil {
		return contract.SkillLookup{}, err
	}
	def, found, err := h.reg.Get(ctx, q, req.Name)
	if err != nil {
		return hostanswer.LoadFailure(ctx, err)
	}
	if !found {
		return contract.SkillLookup{}, nil
	}
	if d := def.Directives; d != nil && d.Trusted {
		d.Honoured = h.honour & d.Requested()
	}
	return hostanswer.Found(def, req.UserInvocation), nil
}

// ReadResource reads a window of a skill's file through the registry.
func (h *localHost) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	q, err := query(req.SessionID, req.Cwd)
	if err != nil {
		return contract.ResourceRead{}, err
	}
	w, err := h.reg.ReadResourceWindow(ctx, q, req.Name, req.Path, req.Offset, req.MaxBytes)
	return hostanswer.Resource(ctx, w, err)
}

// ReadEvents reads the session log from the host.
func (h *localHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	return h.host.ReadEvents(ctx, req)
}

// setNotes keeps what the registry said beside a session's snapshot.
func (h *localHost) setNotes(session string, n hostanswer.Notes) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(n.Shared)+len(n.Incomplete)+len(n.Degraded)+len(n.Locked) == 0 {
		delete(h.notes, session)
		return
	}
	if _, ok := h.notes[session]; !ok && len(h.notes) >= maxNotedSessions {
		for k := range h.notes {
			delete(h.notes, k) // one whose step never came to take it
			break
		}
	}
	h.notes[session] = n
}

// takeNotes returns and forgets a session's notes.
func (h *localHost) takeNotes(session string) hostanswer.Notes {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.notes[session]
	delete(h.notes, session)
	return n
}
