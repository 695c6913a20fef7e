package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
)

// Role says whom a message speaks for.
type Role = contract.Role

// Message roles.
const (
	RoleUser      = contract.RoleUser
	RoleAssistant = contract.RoleAssistant
	RoleSystem    = contract.RoleSystem
	RoleTool      = contract.RoleTool
)

// ContentBlock is one block of a message's content.
type ContentBlock = contract.ContentBlock

// Message is a durable message proposed for, or added to, a step. Its
// Source is the message's raw durable source JSON, kept byte for byte.
type Message = contract.Message

// Decision is a pre-step decision: reject the step, or enter it with extra
// messages.
type Decision = contract.Decision

// Reject says why a step was rejected.
type Reject = contract.Reject

// Step identifies one model step of an agent in a session.
type Step struct {
	SessionID string
	// Cwd is the session's working directory, which providers resolve
	// project skills against: an absolute path, or empty for none. A
	// relative one fails the step (ErrRelativeCwd).
	Cwd        string
	AgentScope string
	Turn       int
	Step       int
	// Downstream is the decision before the host's listeners run; the zero
	// value enters with no messages.
	//
	// The user's own message that starts a turn belongs here, marked with
	// Message.UserInput, in the step that first carries it: it is appended
	// with what the plugin adds, and with the userInvocation option a
	// `/name` token in it adds that skill's instructions after every other
	// message of the step. Later steps of the turn do not propose it again
	// (it is in the log), so the skill is added once. A message appended
	// earlier with AppendMessages is never scanned.
	Downstream Decision
}

// Outcome says what the plugin did in a step.
type Outcome = contract.Outcome

// Outcomes of a step: the plugin's own, and the two the host adds.
const (
	// OutcomeNoPlugin: no mount is in effect for the agent's scope.
	OutcomeNoPlugin Outcome = "no-plugin"
	// OutcomePluginError: the plugin call failed and the step proceeds
	// without it; the error says why (*PluginError, *HostError, or the
	// caller's cancellation).
	OutcomePluginError Outcome = "plugin-error"

	OutcomeRejectPassthrough = contract.OutcomeRejectPassthrough
	OutcomeUnchanged         = contract.OutcomeUnchanged
	OutcomeIncomplete        = contract.OutcomeIncomplete
	OutcomeInitial           = contract.OutcomeInitial
	OutcomeReplacement       = contract.OutcomeReplacement
	OutcomeTombstone         = contract.OutcomeTombstone
)

// StepResult is what a PreStep decided.
type StepResult struct {
	// Decision is the final decision of the step.
	Decision Decision
	// Outcome says what the plugin did.
	Outcome Outcome
	// Appended are the session-log sequence numbers of the messages that
	// were appended, in order.
	Appended []uint64
	// Diagnostics are notes for the host, never shown to the model, on a
	// step that published a catalog: the plugin's, on what it changed to
	// publish it (descriptions a catalog budget shortened, skills it left
	// out), then the registry's, on skill names that skills of more than
	// one origin share and the qualified names the remote ones are listed
	// under (skills.Snapshot.Diagnostics). PreStep also logs each one as a
	// warning.
	Diagnostics []string
	// Reasons say why the step published a catalog or did not: at least
	// one, for every outcome. The plugin's come first (contract.Reason
	// lists the codes: the one that explains the outcome, then a hidden
	// `skill` tool, budget diagnostics, skills the user invoked); then the
	// host's own: for OutcomeIncomplete, each provider that failed or was
	// incomplete, with its error (contract.ReasonProviderIncomplete); on a
	// publishing step, names shared across origins
	// (contract.ReasonNameCollision); for OutcomeNoPlugin,
	// contract.ReasonNoMount; for OutcomePluginError, the failure
	// (contract.ReasonHostError, contract.ReasonPluginError or
	// contract.ReasonCanceled). PreStep logs them when they differ from
	// the session's previous step's (see the package documentation).
	Reasons []Reason
	// Callbacks counts the host callbacks the plugin made for the step's
	// session while the step ran, over every attempt: none on a step whose
	// session only grew by events that cannot change the decision. Steps
	// of one session that run at the same time count each other's.
	Callbacks Callbacks
}

// Reason says one thing about why a step published a catalog or did not;
// its Code is one of the contract.Reason* constants.
type Reason = contract.Reason

// ReasonCode classifies a Reason (see contract.ReasonCodes).
type ReasonCode = contract.ReasonCode

// ErrRelativeCwd is matched (errors.Is) by the *HostError of a step or tool
// call whose working directory is not absolute. A relative directory would
// be resolved against the host process's own, which is never the session's,
// so the host refuses it before any provider sees it. Step.Cwd and
// ToolCall.Cwd are absolute paths, or empty for none.
var ErrRelativeCwd = errors.New("the working directory is not absolute")

// checkCwd refuses a working directory that is not absolute.
func checkCwd(cwd string) error {
	if cwd == "" || filepath.IsAbs(cwd) {
		return nil
	}
	return fmt.Errorf("%w: %q (give an absolute path, or none)", ErrRelativeCwd, cwd)
}

// Callbacks counts host callbacks by kind: skill snapshots, session-log
// pages, skill loads and resource reads.
type Callbacks struct {
	Snapshot     int
	ReadEvents   int
	GetSkill     int
	ReadResource int
}

// Total is the number of callbacks of every kind.
func (c Callbacks) Total() int { return c.Snapshot + c.ReadEvents + c.GetSkill + c.ReadResource }

// since is what was made after earlier, a count of the same session.
func (c Callbacks) since(earlier Callbacks) Callbacks {
	return Callbacks{
		Snapshot:     c.Snapshot - earlier.Snapshot,
		ReadEvents:   c.ReadEvents - earlier.ReadEvents,
		GetSkill:     c.GetSkill - earlier.GetSkill,
		ReadResource: c.ReadResource - earlier.ReadResource,
	}
}

func (c Callbacks) plus(d Callbacks) Callbacks {
	return Callbacks{
		Snapshot:     c.Snapshot + d.Snapshot,
		ReadEvents:   c.ReadEvents + d.ReadEvents,
		GetSkill:     c.GetSkill + d.GetSkill,
		ReadResource: c.ReadResource + d.ReadResource,
	}
}

// PreStep runs one pre-step: downstream listeners, then the plugin mount in
// effect for step.AgentScope, then appends an entering decision's messages to
// the session log. On a plugin failure it returns a *PluginError, and on a
// failure of the host's side (a provider, the session store opening the
// log or appending the step's messages, or a step.Cwd that is not absolute:
// ErrRelativeCwd) a *HostError; unless
// Config.FailClosed is set, the StepResult then carries the downstream
// decision unchanged, with OutcomePluginError, and nothing of the step is in
// the log.
//
// Config.PreStepTimeout bounds each attempt: the plugin's round trip with
// its callbacks and every session-store call of the step (opening the log,
// the append). (Re)starting the plugin process is not part of it.
//
// The plugin decides on the session's head as the host read it, and the
// messages are appended only if the head has not moved since
// (sessionlog.Log.AppendIf). If another step of the session appended first
// (another goroutine, a retried request, another host replica sharing the
// store), the plugin decides again on the new head, up to maxStepAttempts
// times; so each catalog change is published once per session, whoever
// races. Listeners run once per PreStep.
func (h *Host) PreStep(ctx context.Context, step Step) (result StepResult, err error) {
	ctx, obs := h.tel.startStep(ctx, step)
	defer func() { h.tel.endStep(ctx, obs, result, err) }()
	decision := step.Downstream
	h.mu.Lock()
	listeners := append([]Listener(nil), h.listeners...)
	h.mu.Unlock()
	for _, l := range listeners {
		d, err := l(ctx, step, decision)
		if err != nil {
			return StepResult{}, fmt.Errorf("pre-step listener: %w", err)
		}
		decision = d
	}
	m, chain, err := h.mountFor(step.AgentScope)
	if err != nil {
		return StepResult{}, fmt.Errorf("agent scope %q: %w", step.AgentScope, err)
	}
	if err := checkCwd(step.Cwd); err != nil {
		return h.failStep(ctx, step, decision, Callbacks{}, &HostError{Err: err})
	}
	var callbacks Callbacks
	for attempt := 1; ; attempt++ {
		result, err := h.stepAttempt(ctx, m, chain, step, decision, attempt)
		callbacks = callbacks.plus(result.Callbacks)
		result.Callbacks = callbacks
		if errors.Is(err, errStepAgain) {
			continue
		}
		if err != nil {
			return h.failStep(ctx, step, decision, callbacks, err)
		}
		for _, d := range result.Diagnostics {
			h.log.Warn("skill catalog: "+d, "session", step.SessionID, "agent", step.AgentScope)
		}
		h.reportReasons(ctx, step, result.Outcome, result.Reasons)
		return result, nil
	}
}

// failStep ends a step that failed: the downstream decision with
// OutcomePluginError and the failure as its reason, or, with
// Config.FailClosed, the error alone. Either way the reason is reported.
func (h *Host) failStep(ctx context.Context, step Step, decision Decision, callbacks Callbacks, err error) (StepResult, error) {
	reasons := []Reason{failureReason(err)}
	h.reportReasons(ctx, step, OutcomePluginError, reasons)
	if h.cfg.FailClosed {
		return StepResult{}, err
	}
	return StepResult{Decision: decision, Outcome: OutcomePluginError, Reasons: reasons, Callbacks: callbacks}, err
}

// failureReason is the reason of a step that failed with err.
func failureReason(err error) Reason {
	var hostErr *HostError
	var pluginErr *PluginError
	code := contract.ReasonCanceled // the caller's own context, returned as it is
	switch {
	case errors.As(err, &hostErr):
		code = contract.ReasonHostError
	case errors.As(err, &pluginErr):
		code = contract.ReasonPluginError
	}
	return Reason{Code: code, Detail: boundText(err.Error(), maxProviderErrorBytes)}
}

// troubling reports whether a reason names something an operator should
// look at: the skills could not be observed, the `skill` tool is shadowed,
// or the step failed.
func troubling(c ReasonCode) bool {
	switch c {
	case contract.ReasonSnapshotIncomplete, contract.ReasonProviderIncomplete, contract.ReasonToolShadowed,
		contract.ReasonHostError, contract.ReasonPluginError:
		return true
	}
	return false
}

// reportReasons logs a step's reasons when they differ from the session's
// previous step's: at WARN when one of them is troubling, at INFO when the
// previous step's were and these are not (the session recovered), and at
// DEBUG otherwise. Further steps with the same reasons log nothing, so a
// session stuck on one provider error logs it once.
func (h *Host) reportReasons(ctx context.Context, step Step, outcome Outcome, reasons []Reason) {
	fp, troubled := uint64(len(reasons)), false
	for _, r := range reasons {
		fp = mixFingerprint(mixFingerprint(fp, xxh3.HashString(string(r.Code))), xxh3.HashString(r.Detail))
		troubled = troubled || troubling(r.Code)
	}
	changed, wasTroubled := h.sessions.swapReasons(step.SessionID, fp, troubled)
	if !changed {
		return
	}
	level := slog.LevelDebug
	switch {
	case troubled:
		level = slog.LevelWarn
	case wasTroubled:
		level = slog.LevelInfo
	}
	if !h.log.Enabled(ctx, level) {
		return
	}
	var b strings.Builder
	for i, r := range reasons {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(string(r.Code))
		b.WriteString(": ")
		b.WriteString(r.Detail)
	}
	h.log.Log(ctx, level, "skill catalog: the step's reasons changed", "session", step.SessionID, "agent", step.AgentScope, "outcome", string(outcome), "reasons", b.String())
}

// mixFingerprint folds h into the fingerprint fp, order-sensitively.
func mixFingerprint(fp, h uint64) uint64 {
	return bits.RotateLeft64(fp^h, 27)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
}

// errStepAgain is stepAttempt's answer when another writer appended to the
// session between the plugin's decision and the append: decide again.
var errStepAgain = errors.New("the session's head moved: decide again")

// stepAttempt is one attempt of a step: the plugin's decision on the
// session's head, and the append of its messages, under one
// Config.PreStepTimeout. A failed attempt's result carries only the
// callbacks it counted.
func (h *Host) stepAttempt(ctx context.Context, m *Mount, chain []string, step Step, decision Decision, attempt int) (StepResult, error) {
	if m != nil {
		// (Re)starting the process and replaying mounts is not part of the
		// step's time budget: a slow start is not a hung plugin.
		if _, err := m.plugin.running(ctx); err != nil {
			if ctx.Err() != nil {
				return StepResult{}, err
			}
			return StepResult{}, &PluginError{Err: err}
		}
	}
	callerFirst := callerDeadlineFirst(ctx, h.cfg.PreStepTimeout)
	stepCtx, cancel := context.WithTimeout(ctx, h.cfg.PreStepTimeout)
	defer cancel()

	log, err := h.sessionLog(stepCtx, step.SessionID)
	if err != nil {
		return StepResult{}, storeError(ctx, callerFirst, err)
	}
	result := StepResult{Decision: decision, Outcome: OutcomeNoPlugin, Reasons: []Reason{{Code: contract.ReasonNoMount,
		Detail: "no skill-catalog plugin is mounted in any scope of agent scope " + strconv.Quote(step.AgentScope)}}}
	var decidedOn *contract.SessionHead
	if m != nil {
		if result, decidedOn, err = h.runPlugin(ctx, callerFirst, stepCtx, m, chain, log, step, decision); err != nil {
			return StepResult{Callbacks: result.Callbacks}, err
		}
	}
	if result.Decision.Reject != nil || len(result.Decision.Messages) == 0 {
		return result, nil
	}
	appended, err := appendMessages(stepCtx, log, decidedOn, result.Decision.Messages, decision.Messages)
	if errors.Is(err, sessionlog.ErrConflict) {
		if attempt < maxStepAttempts {
			return StepResult{Callbacks: result.Callbacks}, errStepAgain
		}
		err = fmt.Errorf("the session log kept moving during %d attempts: %w", attempt, err)
	}
	if err != nil {
		return StepResult{Callbacks: result.Callbacks}, storeError(ctx, callerFirst, fmt.Errorf("append step messages: %w", err))
	}
	result.Appended = appended
	if m != nil && m.acceptsSourceDigests() {
		h.sessions.setOwnSources(step.SessionID, ownSources(result.Decision.Messages, decision.Messages, appended))
	}
	return result, nil
}

// storeError is the error of a step whose session-store call failed: the
// caller's own cancellation or deadline as it is, anything else (the step's
// deadline included) a *HostError.
func storeError(callerCtx context.Context, callerFirst bool, err error) error {
	if callerCtx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) ||
		callerFirst && errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &HostError{Err: err}
}

// maxStepAttempts bounds how often PreStep decides again because the
// session's head moved before it could append. Every conflict means another
// writer's append succeeded, so n steps racing on one session need at most n
// attempts each.
const maxStepAttempts = 16

// appendMessages appends a step's messages to the session log: on the
// condition that the head is still decidedOn, when the plugin decided on one
// (nil: the host could not read the head, so there is nothing to hold the
// append to). runtime are the messages the runtime passed in, whose sources
// are its own (see messageRecords). It returns the messages' sequence
// numbers.
func appendMessages(ctx context.Context, log sessionlog.Log, decidedOn *contract.SessionHead, msgs, runtime []Message) ([]uint64, error) {
	recs, err := messageRecords(msgs, runtime)
	if err != nil {
		return nil, err
	}
	var head sessionlog.Head
	if decidedOn != nil {
		head, err = log.AppendIf(ctx, decidedOn.Seq, recs...)
	} else {
		head, err = log.Append(ctx, recs...)
	}
	if err != nil {
		return nil, err
	}
	seqs := make([]uint64, len(recs))
	for i := range recs {
		seqs[i] = head.Seq - uint64(len(recs)-1-i)
	}
	return seqs, nil
}

// runPlugin asks the plugin mount m for its decision on the step, within
// stepCtx, the attempt's deadline; callerCtx is the caller's context and
// callerFirst whether its deadline comes first. It returns the session head
// it sent the plugin, nil if the log's head could not be read.
func (h *Host) runPlugin(callerCtx context.Context, callerFirst bool, ctx context.Context, m *Mount, chain []string, log sessionlog.Log, step Step, decision Decision) (StepResult, *contract.SessionHead, error) {
	req := contract.StepRequest{
		SessionID:  step.SessionID,
		Cwd:        step.Cwd,
		AgentScope: step.AgentScope,
		Turn:       uint32(step.Turn),
		Step:       uint32(step.Step),
		Downstream: decision,
	}
	if id, _, ok := h.cfg.Tools.Resolve(step.AgentScope, render.SkillToolName); ok {
		req.SkillToolIdentity = id
	}
	req.Head, req.Recent = h.sessionHead(ctx, step.SessionID, log, m.acceptsSourceDigests())
	var head *sessionlog.Head
	if req.Head != nil {
		head = &sessionlog.Head{Seq: req.Head.Seq, SurfaceRevision: req.Head.SurfaceRevision}
	}
	sel, err := h.selectionOf(ctx, step.SessionID, log, head)
	if err != nil {
		if callerCtx.Err() != nil {
			return StepResult{}, nil, callerCtx.Err()
		}
		return StepResult{}, nil, &HostError{Err: err}
	}
	if tok, ok := h.cfg.Skills.CachedToken(skillsQuery(step, chain)); ok {
		req.SnapshotToken = sel.token(tok)
	}

	var resp contract.StepResponse
	mark := h.sessions.markCallbacks(step.SessionID)
	h.sessions.takeSnapshotNotes(step.SessionID) // what an earlier step or tool call left
	if decision.Reject == nil && m.acceptsStepSnapshots() {
		h.snapshotAhead(ctx, &req)
	}

	err = m.call(ctx, "pre-step", func(svc contract.Service, mountID string) (err error) {
		req.MountID = mountID
		resp, err = svc.PreStep(ctx, req)
		return err
	})
	if err != nil {
		return StepResult{}, nil, blame(callerCtx, callerFirst, err)
	}
	final, err := decision.Apply(resp.Edits)
	if err != nil {
		return StepResult{}, nil, &PluginError{Err: fmt.Errorf("plugin answered with an edit the host cannot apply: %w", err)}
	}
	diagnostics, reasons := resp.Diagnostics, slices.Clip(resp.Reasons)
	notes, incomplete := h.sessions.takeSnapshotNotes(step.SessionID)
	if len(notes) > 0 && publishes(resp.Outcome) {
		diagnostics = append(slices.Clip(diagnostics), notes...)
		for _, n := range notes {
			reasons = append(reasons, Reason{Code: contract.ReasonNameCollision, Detail: n})
		}
	}
	if resp.Outcome == OutcomeIncomplete {
		// The plugin says the snapshot was incomplete; the registry said why.
		for _, why := range incomplete {
			reasons = append(reasons, Reason{Code: contract.ReasonProviderIncomplete, Detail: why})
		}
	}
	return StepResult{Decision: final, Outcome: resp.Outcome, Diagnostics: diagnostics, Reasons: reasons, Callbacks: h.sessions.callbacksSince(step.SessionID, mark)}, req.Head, nil
}

// snapshotAhead answers, within the step's request, the Snapshot callback
// the plugin would make next, when the session's skills changed since the
// snapshot the host last answered it with at the same place: as a delta
// against that snapshot, or as an incomplete one. A step whose skills
// changed then makes no callback. When there is no such answer (the
// session's first step, a place it has not been at, an error, a delta not
// worth sending) the request is left as it was, and the plugin calls back
// as it would without it.
func (h *Host) snapshotAhead(ctx context.Context, req *contract.StepRequest) {
	base, ok := h.sessions.answered(req.SessionID, snapshotPlace{req.Cwd, req.AgentScope})
	if !ok || base == req.SnapshotToken {
		return // nothing to answer, or the cached token says nothing changed
	}
	snap, err := h.answerSnapshot(ctx, contract.SnapshotRequest{
		SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, IfNoneMatch: base, AcceptDelta: true,
	})
	switch {
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
}

// publishes reports whether a step with this outcome published a catalog.
func publishes(o Outcome) bool {
	return o == OutcomeInitial || o == OutcomeReplacement || o == OutcomeTombstone
}

// Bounds of the events a step carries to the plugin (see sessionHead).
const (
	maxInlineEvents = 64
	maxInlineBytes  = 256 << 10
)

// sessionHead returns the session log's head for a step and, when the host
// sent the plugin an earlier head of this session, the events appended
// since, so the plugin does not have to read them back: one round trip per
// step of an agent loop. Events are sent only while they are few and small
// and the surface revision is unchanged; the plugin reads the log itself
// otherwise. A log that cannot be read yields no head at all.
//
// With digests (the plugin accepts them), an event whose source the plugin
// itself produced at the previous step is sent by its source's digest, so
// a catalog crosses the connection once, and counts 16 bytes against the
// bound.
func (h *Host) sessionHead(ctx context.Context, sessionID string, log sessionlog.Log, digests bool) (*contract.SessionHead, *contract.RecentEvents) {
	prev, known := h.sessions.sentHead(sessionID)
	var head sessionlog.Head
	var recent *contract.RecentEvents
	if known {
		page, err := log.ReadBackward(ctx, 0, prev.Seq, maxInlineEvents)
		if err != nil {
			return nil, nil
		}
		head = page.Head
		if !page.More {
			// Every event since the previous step: what the session's
			// selection needs too.
			h.observeSelection(sessionID, prev.Seq, page.Events, head)
		}
		if head.SurfaceRevision == prev.SurfaceRevision && head.Seq >= prev.Seq && !page.More {
			recent = &contract.RecentEvents{AfterSeq: prev.Seq, Events: make([]contract.SessionEvent, len(page.Events))}
			size := 0
			for i, ev := range page.Events {
				out := contract.SessionEvent{Seq: ev.Seq, Type: ev.Type, Source: ev.Source, Visible: ev.Visible}
				if digests && len(ev.Source) > 0 {
					if d, ok := h.sessions.ownSource(sessionID, ev.Seq); ok {
						out.Source, out.SourceDigest = nil, d
					}
				}
				recent.Events[i] = out
				size += len(out.Source) + len(out.SourceDigest) + len(out.Type) + 16
			}
			if size > maxInlineBytes {
				recent = nil
			}
		}
	} else {
		var err error
		if head, err = log.Head(ctx); err != nil {
			return nil, nil
		}
	}
	sent := contract.SessionHead{Seq: head.Seq, SurfaceRevision: head.SurfaceRevision}
	h.sessions.setSentHead(sessionID, sent)
	return &sent, recent
}
