package hostsdk

import (
	"context"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// maxProviderErrorBytes bounds provider error text that reaches the model.
const maxProviderErrorBytes = hostanswer.MaxProviderErrorBytes

// maxEventsPage bounds one ReadEvents page whatever the plugin asks for.
const maxEventsPage = 4096

// hostCallbacks is the Host as the plugin's callbacks (contract.Host): the
// Host's registry, scope tree and session store. The request context is the
// plugin's call context, so cancelling a pre-step cancels provider work.
type hostCallbacks struct {
	h *Host
}

// Embed answers the plugin's Embed callback with Options.Embedder, or with
// contract.ErrNoEmbeddings when the host has none.
func (c hostCallbacks) Embed(ctx context.Context, req contract.EmbedRequest) (contract.Embeddings, error) {
	if c.h.opts.Embedder == nil {
		return contract.Embeddings{}, contract.ErrNoEmbeddings
	}
	got, err := c.h.opts.Embedder.Embed(ctx, req)
	if err != nil {
		return contract.Embeddings{}, fmt.Errorf("embed %d texts: %w", len(req.Texts), err)
	}
	return got, nil
}

// Snapshot answers the plugin's Snapshot callback. Its only errors are an
// unknown agent scope and the caller's own cancellation.
func (c hostCallbacks) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	s := c.h.sessions.get(req.SessionID)
	s.countCallback(snapshotCall)
	return c.h.answerSnapshot(ctx, s, nil, req)
}

// answerSnapshot is the host's answer to a Snapshot request, by callback or
// ahead of a step (see stepRun.snapshotAhead), for the session s; head is
// the session log's head when the caller has just read it, nil to read it.
// The session sees only its selected skills, under a token of their own.
// Names shared across origins are reported with the step that publishes
// the catalog listing them; why a snapshot is incomplete, with the step
// that keeps the catalog because of it; best-effort providers that could
// not list, with every step that met them.
func (h *Host) answerSnapshot(ctx context.Context, s *session, head *sessionlog.Head, req contract.SnapshotRequest) (contract.Snapshot, error) {
	sel, err := h.currentSelection(ctx, req.SessionID, s, head)
	if err != nil {
		return contract.Snapshot{}, err
	}
	snap, notes, err := h.answer.Snapshot(ctx, req, sel)
	if err != nil {
		return contract.Snapshot{}, err
	}
	s.notes.Put(notes)
	if snap.Complete && snap.Token != "" {
		s.setAnswered(snapshotPlace{req.Cwd, req.AgentScope}, snap.Token)
	}
	return snap, nil
}

// GetSkill answers the plugin's GetSkill callback. A provider's failure is
// an answer (its own text, bounded), not an error. A skill the session's
// selection leaves out is not found, and its provider is not asked for it.
func (c hostCallbacks) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	s := c.h.sessions.get(req.SessionID)
	s.countCallback(getSkillCall)
	sel, err := c.h.currentSelection(ctx, req.SessionID, s, nil)
	if err != nil {
		return contract.SkillLookup{}, err
	}
	look, err := c.h.answer.GetSkill(ctx, req, sel)
	if err != nil {
		return contract.SkillLookup{}, err
	}
	c.h.honour(ctx, req, &look)
	return look, nil
}

// ReadEvents answers the plugin's ReadEvents callback from the session log.
func (c hostCallbacks) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	s := c.h.sessions.get(req.SessionID)
	s.countCallback(readEventsCall)
	log, err := c.h.openLog(ctx, req.SessionID, s)
	if err != nil {
		return contract.EventPage{}, fmt.Errorf("open session log: %w", err)
	}
	limit := req.MaxEvents
	if limit <= 0 || limit > maxEventsPage {
		limit = maxEventsPage
	}
	page, err := log.ReadBackward(ctx, req.BeforeSeq, req.AfterSeq, limit)
	if err != nil {
		return contract.EventPage{}, fmt.Errorf("read session log: %w", err)
	}
	out := contract.EventPage{
		Head:   contract.SessionHead{Seq: page.Head.Seq, SurfaceRevision: page.Head.SurfaceRevision},
		More:   page.More,
		Events: make([]contract.SessionEvent, len(page.Events)),
	}
	for i, ev := range page.Events {
		out.Events[i] = contractEvent(ev)
	}
	return out, nil
}

// ReadResource answers the plugin's ReadResource callback with the window
// the plugin asked for (Registry.ReadResourceWindow: a file of at most
// skill.MaxResourceBytes). A file that is not text (skill.IsText over the
// whole file) is answered as binary whatever the window. Everything but the caller's
// cancellation and an unknown scope is an answer, not an error.
func (c hostCallbacks) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	c.h.sessions.get(req.SessionID).countCallback(readResourceCall)
	return c.h.answer.ReadResource(ctx, req)
}

// The plugin finds resource reads by this interface.
var (
	_ contract.ResourceReader = hostCallbacks{}
	_ contract.Embedder       = hostCallbacks{}
)

// The counters of each kind of callback, for session.countCallback.
func snapshotCall(c *CallbackCounts) *int     { return &c.Snapshot }
func readEventsCall(c *CallbackCounts) *int   { return &c.ReadEvents }
func getSkillCall(c *CallbackCounts) *int     { return &c.GetSkill }
func readResourceCall(c *CallbackCounts) *int { return &c.ReadResource }
