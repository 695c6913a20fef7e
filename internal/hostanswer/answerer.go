package hostanswer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ErrRelativeCwd is the error of a call whose working directory is not
// absolute: it would be resolved against the answering process's own
// directory, which is never the session's, so no provider sees it.
var ErrRelativeCwd = errors.New("the working directory is not absolute")

// Answerer answers the plugin's skill callbacks (Snapshot, GetSkill,
// ReadResource) from a skill registry. It is the one implementation behind
// both ends that answer them so: the Go host SDK's callbacks and a
// discovering mount in the plugin process. What only one end has comes in
// as arguments: a session's View (the host's skill selections) and a
// memory of the snapshots sent (Sent) for answering with deltas.
type Answerer struct {
	reg   *skills.Registry
	chain func(agentScope string) ([]string, error)
	sent  Sent
}

// Sent remembers the complete snapshots an answerer sent, by token, so
// that the next answer for a plugin holding one can be what changed since.
type Sent interface {
	Get(token string) ([]skill.Summary, bool)
	Add(token string, skills []skill.Summary)
}

// View narrows the registry's skills to those one session sees.
type View interface {
	// Whole reports whether the session sees every skill.
	Whole() bool
	// Token is the token of the narrowed snapshot of a registry snapshot
	// with token base: a content address of its own.
	Token(base string) string
	// Filter returns the skills of sums the session sees.
	Filter(sums []skill.Summary) []skill.Summary
	// RefusesName reports whether no skill called name is seen, whatever
	// its provider: the registry is not asked for it.
	RefusesName(name string) bool
	// Allows reports whether the skill name of provider is seen.
	Allows(name, provider string) bool
}

// New returns an Answerer over reg. chain resolves an agent scope to the
// registry scopes its skills come from, nearest first; sent may be nil,
// and every answer is then whole.
func New(reg *skills.Registry, chain func(agentScope string) ([]string, error), sent Sent) *Answerer {
	return &Answerer{reg: reg, chain: chain, sent: sent}
}

// Query is the registry query of a call: its session, working directory
// and the agent scope's chain. A working directory that is not absolute is
// refused (ErrRelativeCwd).
func (a *Answerer) Query(session, cwd, agentScope string) (skills.Query, error) {
	if cwd != "" && !filepath.IsAbs(cwd) {
		return skills.Query{}, fmt.Errorf("%w: %q", ErrRelativeCwd, cwd)
	}
	chain, err := a.chain(agentScope)
	if err != nil {
		return skills.Query{}, err
	}
	return skills.Query{SessionID: session, Cwd: cwd, Chain: chain}, nil
}

// Snapshot answers a Snapshot request for a session that sees view (nil:
// every skill): not modified when the request names the current token, a
// delta when the plugin accepts one and holds a snapshot this answerer
// can tell the change from, the whole snapshot otherwise. It also returns
// what the registry said beside the skills, for the step to report.
func (a *Answerer) Snapshot(ctx context.Context, req contract.SnapshotRequest, view View) (contract.Snapshot, Notes, error) {
	q, err := a.Query(req.SessionID, req.Cwd, req.AgentScope)
	if err != nil {
		return contract.Snapshot{}, Notes{}, err
	}
	whole := view == nil || view.Whole()
	if req.AcceptDelta && req.IfNoneMatch != "" && whole {
		// Where the registry can tell what changed without building the
		// snapshot, a change costs work in proportion to it.
		ch, ok, err := a.reg.SnapshotChanges(ctx, q, req.IfNoneMatch)
		if err != nil {
			return contract.Snapshot{}, Notes{}, err
		}
		if ok {
			if ch.Token == req.IfNoneMatch {
				return contract.Snapshot{NotModified: true, Token: ch.Token, Complete: true}, Notes{}, nil
			}
			return contract.Snapshot{Token: ch.Token, Complete: true, Skills: ch.Upserts, Removed: ch.Removed, DeltaBase: req.IfNoneMatch}, Notes{}, nil
		}
	}
	// The registry's own slices: only read here, kept by Sent, and handed
	// to the plugin, which never modifies what a host returns.
	snap, err := a.reg.SharedSnapshot(ctx, q)
	if err != nil {
		return contract.Snapshot{}, Notes{}, err
	}
	notes := SnapshotNotes(snap)
	if !whole {
		snap.Skills, snap.Token = view.Filter(snap.Skills), view.Token(snap.Token)
	}
	if snap.Complete && snap.Token != "" && snap.Token == req.IfNoneMatch {
		return contract.Snapshot{NotModified: true, Token: snap.Token, Complete: true}, notes, nil
	}
	out := contract.Snapshot{Token: snap.Token, Complete: snap.Complete, Skills: snap.Skills}
	if !snap.Complete || snap.Token == "" || a.sent == nil {
		return out, notes, nil
	}
	// Snapshots are content-addressed, so what was sent under a token is
	// that snapshot for every session and place: a plugin that holds it can
	// be sent what changed since.
	if req.AcceptDelta && req.IfNoneMatch != "" {
		if base, ok := a.sent.Get(req.IfNoneMatch); ok {
			if upserts, removed, worth := contract.SnapshotDelta(base, snap.Skills); worth {
				out.Skills, out.Removed, out.DeltaBase = upserts, removed, req.IfNoneMatch
			}
		}
	}
	a.sent.Add(snap.Token, snap.Skills)
	return out, notes, nil
}

// GetSkill answers a GetSkill request for a session that sees view (nil:
// every skill). A provider's failure is an answer (its own text, bounded),
// not an error. A skill the view leaves out is not found, and its provider
// is not asked for its body.
func (a *Answerer) GetSkill(ctx context.Context, req contract.SkillRequest, view View) (contract.SkillLookup, error) {
	q, err := a.Query(req.SessionID, req.Cwd, req.AgentScope)
	if err != nil {
		return contract.SkillLookup{}, err
	}
	whole := view == nil || view.Whole()
	if !whole {
		if view.RefusesName(req.Name) {
			return contract.SkillLookup{}, nil
		}
		// Judge by the listing first, so an unseen skill's provider is
		// never asked for its body.
		sum, listed, err := a.reg.Lookup(ctx, q, req.Name)
		if err != nil {
			return contract.SkillLookup{}, err
		}
		if listed && !view.Allows(sum.Name, sum.Provider) {
			return contract.SkillLookup{}, nil
		}
	}
	def, found, err := a.reg.Get(ctx, q, req.Name)
	if err != nil {
		return LoadFailure(ctx, err)
	}
	if !found || (!whole && !view.Allows(req.Name, def.Provider)) {
		return contract.SkillLookup{}, nil
	}
	return Found(def, req.UserInvocation), nil
}

// ReadResource answers a ReadResource request with the window the plugin
// asked for (skills.Registry.ReadResourceWindow). Everything but the
// caller's cancellation, a refused working directory and an unknown scope
// is an answer, not an error.
func (a *Answerer) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	q, err := a.Query(req.SessionID, req.Cwd, req.AgentScope)
	if err != nil {
		return contract.ResourceRead{}, err
	}
	w, err := a.reg.ReadResourceWindow(ctx, q, req.Name, req.Path, req.Offset, req.MaxBytes)
	return Resource(ctx, w, err)
}

// Mailbox carries the notes of the snapshots answered for one session to
// the end of the step that caused them. Each Put is stamped, so a step
// marks the mailbox when it begins and takes, when it ends, only notes put
// since: none left by an earlier step or tool call.
type Mailbox struct {
	mu     sync.Mutex
	serial uint64
	notes  Notes
}

// Put keeps n as the session's newest notes.
func (m *Mailbox) Put(n Notes) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.serial++
	m.notes = n
}

// Mark returns the mailbox's stamp now, for Since.
func (m *Mailbox) Mark() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.serial
}

// Since returns the newest notes put after mark, or none.
func (m *Mailbox) Since(mark uint64) Notes {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.serial == mark {
		return Notes{}
	}
	return m.notes
}
