package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// stepRun is one attempt of a step: everything the attempt works with, so
// that the session is looked up once and each part of the attempt is a
// method rather than a function of eight parameters.
type stepRun struct {
	h        *Host
	s        *session
	m        *Mount // nil: no mount for the agent
	chain    []string
	step     Step
	decision Decision // the downstream decision, after the listeners

	// Set when the attempt starts.
	callerCtx   context.Context // the caller's own
	callerFirst bool            // the caller's deadline comes before the attempt's
	ctx         context.Context // the attempt's, bounded by Options.PreStepTimeout
	log         sessionlog.Log
}

// errStepAgain is an attempt's answer when another writer appended to the
// session between the plugin's decision and the append, in a way that may
// change the decision: decide again.
var errStepAgain = errors.New("the session's head moved: decide again")

// maxStepAttempts bounds how often PreStep decides again because the
// session's head moved before it could append, in a way that may change
// the decision. Steps of one session take turns within a host, and an
// append that only lost to other runtime messages is retried on the new
// head without a new decision (see appendDecided); so only steps of other
// hosts publishing a catalog at the same time make a step decide again.
const maxStepAttempts = 16

// maxRebases bounds how often one decision's messages are moved onto a
// newer head before the plugin is asked again.
const maxRebases = 8

// attempt runs the plugin's decision on the session's head and appends its
// messages, under one Options.PreStepTimeout. A failed attempt's result
// carries only the callbacks it counted.
func (r *stepRun) attempt(ctx context.Context, attempt int) (StepResult, error) {
	h := r.h
	if r.m != nil {
		// (Re)starting the process and replaying mounts is not part of the
		// step's time budget: a slow start is not a hung plugin.
		if _, err := r.m.plugin.running(ctx); err != nil {
			if ctx.Err() != nil {
				return StepResult{}, err
			}
			return StepResult{}, &PluginError{Err: err}
		}
	}
	r.callerCtx, r.callerFirst = ctx, callerDeadlineFirst(ctx, h.opts.PreStepTimeout)
	stepCtx, cancel := context.WithTimeout(ctx, h.opts.PreStepTimeout)
	defer cancel()
	r.ctx = stepCtx

	log, err := h.openLog(stepCtx, r.step.SessionID, r.s)
	if err != nil {
		return StepResult{}, storeError(ctx, r.callerFirst, err)
	}
	r.log = log
	result := StepResult{Decision: r.decision, Outcome: OutcomeNoPlugin, Reasons: []Reason{{Code: contract.ReasonNoMount,
		Detail: "no skill-catalog plugin is mounted in any scope of agent scope " + strconv.Quote(r.step.AgentScope)}}}
	var decidedOn *contract.SessionHead
	if r.m != nil {
		if result, decidedOn, err = r.runPlugin(); err != nil {
			return StepResult{Callbacks: result.Callbacks}, err
		}
	}
	if result.Decision.Reject != nil || len(result.Decision.Messages) == 0 {
		return result, nil
	}
	appended, err := r.appendDecided(decidedOn, result.Decision.Messages)
	if errors.Is(err, sessionlog.ErrConflict) {
		if attempt < maxStepAttempts {
			return StepResult{Callbacks: result.Callbacks}, errStepAgain
		}
		err = fmt.Errorf("the session log kept moving during %d attempts: %w", attempt, err)
	}
	if err != nil {
		return StepResult{Callbacks: result.Callbacks}, storeError(ctx, r.callerFirst, fmt.Errorf("append step messages: %w", err))
	}
	result.Appended = appended
	if r.m != nil && r.m.acceptsSourceDigests() {
		r.s.setOwnSources(ownSources(result.Decision.Messages, r.decision.Messages, appended))
	}
	return result, nil
}

// appendDecided appends the step's messages on the head the plugin decided
// on (nil: the host could not read the head, so there is nothing to hold
// the append to). When another writer appended first, and all it appended
// are messages that cannot change the plugin's decision (no plugin source
// among them, no compaction, no skill selection), the messages go onto the
// new head without asking the plugin again: a step that must win a whole
// round trip's race against steps that keep arriving could lose for ever.
// An ErrConflict it returns means the decision itself may be stale.
func (r *stepRun) appendDecided(decidedOn *contract.SessionHead, msgs []Message) ([]uint64, error) {
	recs, err := messageRecords(msgs, r.decision.Messages)
	if err != nil {
		return nil, err
	}
	if decidedOn == nil {
		head, err := r.log.Append(r.ctx, recs...)
		return appendedSeqs(head, len(recs)), err
	}
	on := *decidedOn
	for rebases := 0; ; rebases++ {
		head, err := r.log.AppendIf(r.ctx, on.Seq, recs...)
		if err == nil {
			return appendedSeqs(head, len(recs)), nil
		}
		if !errors.Is(err, sessionlog.ErrConflict) || rebases == maxRebases {
			return nil, err
		}
		next, neutral, rerr := r.neutralSince(on)
		if rerr != nil {
			return nil, fmt.Errorf("read what another writer appended: %w", rerr)
		}
		if !neutral {
			return nil, err
		}
		on = next
	}
}

// neutralSince reads the events after on and reports the log's head, and
// whether those events leave the plugin's decision on on as it was: only
// messages whose source is not the plugin's, within the same surface
// revision, and few enough to read in one page.
func (r *stepRun) neutralSince(on contract.SessionHead) (contract.SessionHead, bool, error) {
	page, err := r.log.ReadBackward(r.ctx, 0, on.Seq, maxInlineEvents)
	if err != nil {
		return contract.SessionHead{}, false, err
	}
	next := contract.SessionHead{Seq: page.Head.Seq, SurfaceRevision: page.Head.SurfaceRevision}
	if page.More || next.SurfaceRevision != on.SurfaceRevision || next.Seq <= on.Seq {
		return next, false, nil
	}
	for _, ev := range page.Events {
		if ev.Type != sessionlog.TypeMessage || isPluginSource(ev.Source) {
			return next, false, nil
		}
	}
	return next, true, nil
}

// runPlugin asks the mount for its decision on the step. It returns the
// session head it sent the plugin, nil if the log's head could not be read.
func (r *stepRun) runPlugin() (StepResult, *contract.SessionHead, error) {
	h, step, ctx := r.h, r.step, r.ctx
	req := contract.StepRequest{
		SessionID:  step.SessionID,
		Cwd:        step.Cwd,
		AgentScope: step.AgentScope,
		Turn:       uint32(step.Turn),
		Step:       uint32(step.Step),
		Downstream: r.decision,

		PreloadSkills: h.preloadOf(step),
	}
	req.TouchedPaths = touchedOf(step, r.decision)
	if id, _, ok := h.opts.Tools.Resolve(step.AgentScope, contract.SkillToolName); ok {
		req.SkillToolIdentity = id
	}
	var err error
	req.Head, req.Recent, err = r.sessionHead(r.m.acceptsSourceDigests())
	if err != nil {
		return StepResult{}, nil, err
	}
	var head *sessionlog.Head
	if req.Head != nil {
		head = &sessionlog.Head{Seq: req.Head.Seq, SurfaceRevision: req.Head.SurfaceRevision}
	}
	sel, err := h.selectionOf(ctx, step.SessionID, r.s, r.log, head)
	if err != nil {
		return StepResult{}, nil, storeError(r.callerCtx, r.callerFirst, err)
	}
	if tok, ok := h.opts.Skills.CachedToken(skills.Query{SessionID: step.SessionID, Cwd: step.Cwd, Chain: r.chain}); ok {
		req.SnapshotToken = sel.token(tok)
	}

	var resp contract.StepResponse
	before, notesMark := r.s.callbacks(), r.s.notes.Mark()
	if r.decision.Reject == nil && r.m.acceptsStepSnapshots() {
		if err := r.snapshotAhead(&req, head); err != nil {
			return StepResult{}, nil, err
		}
	}
	err = r.m.call(ctx, "pre-step", func(svc contract.Service, mountID string) (err error) {
		req.MountID = mountID
		resp, err = svc.PreStep(ctx, req)
		return err
	})
	if err != nil {
		return StepResult{}, nil, blame(r.callerCtx, r.callerFirst, err)
	}
	final, err := r.decision.Apply(resp.Edits)
	if err != nil {
		return StepResult{}, nil, &PluginError{Err: fmt.Errorf("plugin answered with an edit the host cannot apply: %w", err)}
	}
	result := StepResult{Decision: final, Outcome: resp.Outcome, Callbacks: r.callbacksSince(before), Invocations: resp.Invocations,
		Reattached: resp.Reattached, Preloaded: resp.Preloaded}
	// The host's own notes: names shared across origins on a publishing
	// step, why an incomplete snapshot was incomplete, and which
	// best-effort providers could not list, from the snapshots answered
	// for this attempt.
	result.Diagnostics, result.Reasons = hostanswer.AddNotes(resp, r.s.notes.Since(notesMark))
	return result, req.Head, nil
}

// callbacksSince returns the callbacks made for the session since it
// counted before. A session forgotten in between (Session.End) and met again
// counts from zero.
func (r *stepRun) callbacksSince(before CallbackCounts) CallbackCounts {
	if now := r.h.sessions.get(r.step.SessionID); now != r.s {
		return now.callbacks()
	}
	return r.s.callbacks().since(before)
}

// snapshotAhead answers, within the step's request, the Snapshot callback
// the plugin would make next, when the session's skills changed since the
// snapshot the host last answered it with at the same place: as a delta
// against that snapshot, or as an incomplete one. A step whose skills
// changed then makes no callback. When there is no such answer (the
// session's first step, a place it has not been at, a provider's error, a
// delta not worth sending) the request is left as it was, and the plugin
// calls back as it would without it. It fails only when the attempt's
// deadline passed meanwhile: the plugin would be called with no time left,
// and the host, not the plugin, ran it out.
func (r *stepRun) snapshotAhead(req *contract.StepRequest, head *sessionlog.Head) error {
	base, ok := r.s.answeredToken(snapshotPlace{req.Cwd, req.AgentScope})
	if !ok || base == req.SnapshotToken {
		return nil // nothing to answer, or the cached token says nothing changed
	}
	snap, err := r.h.answerSnapshot(r.ctx, r.s, head, contract.SnapshotRequest{
		SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, IfNoneMatch: base, AcceptDelta: true,
	})
	switch {
	case r.ctx.Err() != nil:
		if err == nil {
			err = r.ctx.Err()
		}
		return storeError(r.callerCtx, r.callerFirst, fmt.Errorf("answer the step's skill snapshot ahead of the plugin: %w", err))
	case err != nil:
		// The callback will meet the same error, and report it there.
	case snap.NotModified:
		req.SnapshotToken = snap.Token
	case !snap.Complete:
		req.Snapshot, req.SnapshotToken = &contract.Snapshot{}, ""
	case snap.DeltaBase != "":
		req.Snapshot, req.SnapshotToken = &snap, snap.Token
	default:
		// A whole snapshot is only worth sending to a plugin that asks.
		req.SnapshotToken = snap.Token
	}
	return nil
}

// Bounds of the events a step carries to the plugin (see sessionHead):
// the one place these numbers are written. Documents name the window, not
// its size; a longer gap costs the plugin one ReadEvents, never a wrong
// decision.
const (
	maxInlineEvents = 64
	maxInlineBytes  = 256 << 10
)

// sessionHead returns the session log's head for a step and, when the host
// sent the plugin an earlier head of this session, the events appended
// since, so the plugin does not have to read them back: one round trip per
// step of an agent loop. Events are sent only while they are few and small
// and the surface revision is unchanged; the plugin reads the log itself
// otherwise. A log that cannot be read yields no head at all, and the
// plugin reads it itself; one that did not answer before the attempt's
// deadline fails the step, blamed on the store.
//
// With digests (the plugin accepts them), an event whose source the plugin
// itself produced at the previous step is sent by its source's digest, so
// a catalog crosses the connection once, and counts 16 bytes against the
// bound.
func (r *stepRun) sessionHead(digests bool) (*contract.SessionHead, *contract.RecentEvents, error) {
	prev, known := r.s.sentHead()
	var head sessionlog.Head
	var recent *contract.RecentEvents
	var err error
	if known {
		var page sessionlog.Page
		if page, err = r.log.ReadBackward(r.ctx, 0, prev.Seq, maxInlineEvents); err != nil {
			return nil, nil, r.headError("read the session log's newest events", err)
		}
		head = page.Head
		if !page.More {
			// Every event since the previous step: what the session's
			// selection needs too.
			observeSelection(r.s, prev.Seq, page.Events, head)
		}
		if head.SurfaceRevision == prev.SurfaceRevision && head.Seq >= prev.Seq && !page.More {
			recent = r.recentEvents(prev.Seq, page.Events, digests)
		}
	} else if head, err = r.log.Head(r.ctx); err != nil {
		return nil, nil, r.headError("read the session log's head", err)
	}
	sent := contract.SessionHead{Seq: head.Seq, SurfaceRevision: head.SurfaceRevision}
	r.s.setSentHead(sent)
	return &sent, recent, nil
}

// headError is what a failed read of the session's head means for the
// step: nothing, unless the attempt's deadline passed (the plugin would get
// no time at all), and then the store's fault.
func (r *stepRun) headError(what string, err error) error {
	if r.ctx.Err() == nil {
		return nil
	}
	return storeError(r.callerCtx, r.callerFirst, fmt.Errorf("%s of session %q: %w", what, r.step.SessionID, err))
}

// recentEvents are the events evs (newest first, all after seq after) as a
// step carries them, nil when they are too large.
func (r *stepRun) recentEvents(after uint64, evs []sessionlog.Event, digests bool) *contract.RecentEvents {
	recent := &contract.RecentEvents{AfterSeq: after, Events: make([]contract.SessionEvent, len(evs))}
	size := 0
	for i, ev := range evs {
		out := contractEvent(ev)
		if digests && len(ev.Source) > 0 {
			if d, ok := r.s.ownSource(ev.Seq); ok {
				out.Source, out.SourceDigest = nil, d
			}
		}
		recent.Events[i] = out
		size += len(out.Source) + len(out.SourceDigest) + len(out.Type) + 16
	}
	if size > maxInlineBytes {
		return nil
	}
	return recent
}

// preloadOf returns the skills preloaded for a step's session: its agent
// scope's (Options.Preload), then the step's own.
func (h *Host) preloadOf(step Step) []string {
	scope := h.opts.Preload[step.AgentScope]
	if len(scope) == 0 {
		return step.PreloadSkills
	}
	return append(slices.Clip(scope), step.PreloadSkills...)
}
