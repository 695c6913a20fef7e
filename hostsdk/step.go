package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"path/filepath"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
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

// Step is one model step of an agent in a session, as the host's
// listeners (Listener) see it: Session.Step and Session.Sync fill it from
// the session (id, working directory, agent scope, preloaded skills), the
// decision proposed, Session.Touch and StepOptions.
type Step struct {
	SessionID string
	// Cwd is the session's working directory, which providers resolve
	// project skills against: an absolute path, or empty for none. A
	// relative one fails the step (ErrRelativeCwd).
	Cwd        string
	AgentScope string
	// Turn and Step number the step for telemetry only (span attributes
	// and the plugin's traces); the plugin decides from the session log
	// alone. Both are optional: zero where the runtime does not count.
	Turn int
	Step int
	// Downstream is the decision before the host's listeners run; the zero
	// value enters with no messages.
	//
	// The user's own message that starts a turn belongs here, marked with
	// Message.UserInput, in the step that first carries it: it is appended
	// with what the plugin adds, and with the userInvocation option a
	// `/name` token in it adds that skill's instructions after every other
	// message of the step. Later steps of the turn do not propose it again
	// (it is in the log), so the skill is added once. A message appended
	// earlier with Session.Append is never scanned.
	Downstream Decision
	// TouchedPaths are the files the session worked with since its
	// previous step: the paths its tool calls read, wrote or edited,
	// absolute or relative to Cwd, slash-separated. The files the tool
	// calls (tool_use blocks) of Downstream's messages name are added
	// (TouchedPathsOfMessages): a runtime that proposes its tool calls
	// with the step need not list them. A skill scoped by `paths` enters
	// the catalog at the first step whose touched paths its patterns
	// match, and stays; the plugin records it in the session log, so
	// nothing here needs to be sent twice. At most
	// contract.MaxTouchedPaths (256) are sent, the last ones.
	TouchedPaths []string
	// PreloadSkills are skills preloaded for this session, after those of
	// its agent scope (Options.Preload): only the session's first step
	// uses them (see Options.Preload). Session.Step and Sync set the
	// session's (SessionOptions.PreloadSkills).
	PreloadSkills []string
}

// AttachedSkill is a skill whose instructions a step appended outside the
// `skill` tool (re-attached after a compaction, or preloaded), or could
// not.
type AttachedSkill = contract.AttachedSkill

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

// StepResult is what a step decided.
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
	// under (skills.Snapshot.Diagnostics). The step also logs each one as a
	// warning.
	Diagnostics []string
	// Reasons say why the step published a catalog or did not: at least
	// one, for every outcome. The plugin's come first ([ReasonCodes]
	// lists the codes: the one that explains the outcome, then a hidden
	// `skill` tool, budget diagnostics, skills the user invoked); then the
	// host's own: for OutcomeIncomplete, each provider that failed or was
	// incomplete, with its error ([ReasonProviderIncomplete]); for
	// any outcome, each best-effort provider that could not list
	// ([ReasonProviderDegraded]); on a publishing step, names
	// shared across origins
	// ([ReasonNameCollision]); for OutcomeNoPlugin,
	// [ReasonNoMount]; for OutcomePluginError, the failure
	// ([ReasonHostError], [ReasonPluginError] or
	// [ReasonCanceled]). The step logs them when they differ from
	// the session's previous step's (see the package documentation).
	Reasons []Reason
	// Invocations are the skills the user invoked by name in the step
	// (with the mount option userInvocation), in the order of the messages
	// that carry their instructions, each with its directives and the
	// kinds the DirectiveHandler said the runtime acts on: a runtime acts
	// on those now (a model for the rest of the turn, tools pre-approved).
	Invocations []Invocation
	// Reattached are the skills whose instructions a compaction hid that
	// the step attached again, in one message of the plugin's, most
	// recently used first, each with what became of it (State "changed",
	// "gone", "unavailable", "left-out", or "" as loaded) and how much of
	// its instructions the bounds kept (mount options reattachBudget and
	// reattachSkillMaxLength).
	Reattached []AttachedSkill
	// Preloaded are the skills preloaded at the session's first step
	// (Options.Preload, Step.PreloadSkills), attached or left out.
	Preloaded []AttachedSkill
	// Callbacks counts the host callbacks the plugin made for the step's
	// session while the step ran, over every attempt: none on a step whose
	// session only grew by events that cannot change the decision. Steps
	// of one session that run at the same time count each other's.
	Callbacks CallbackCounts
}

// Reason says one thing about why a step published a catalog or did not;
// its Code is one of the Reason* constants ([ReasonCodes]).
type Reason = contract.Reason

// ReasonCode classifies a Reason (see [ReasonCodes]).
type ReasonCode = contract.ReasonCode

// ErrRelativeCwd is matched (errors.Is) by the *HostError of a step or tool
// call whose working directory is not absolute. A relative directory would
// be resolved against the host process's own, which is never the session's,
// so the host refuses it before any provider sees it. Step.Cwd and
// ToolCall.Cwd are absolute paths, or empty for none.
var ErrRelativeCwd = hostanswer.ErrRelativeCwd

// checkCwd refuses a working directory that is not absolute.
func checkCwd(cwd string) error {
	if cwd == "" || filepath.IsAbs(cwd) {
		return nil
	}
	return fmt.Errorf("%w: %q (give an absolute path, or none)", ErrRelativeCwd, cwd)
}

// CallbackCounts counts host callbacks by kind: skill snapshots, session-log
// pages, skill loads and resource reads.
type CallbackCounts struct {
	Snapshot     int
	ReadEvents   int
	GetSkill     int
	ReadResource int
}

// Total is the number of callbacks of every kind.
func (c CallbackCounts) Total() int { return c.Snapshot + c.ReadEvents + c.GetSkill + c.ReadResource }

// since is what was made after earlier, a count of the same session.
func (c CallbackCounts) since(earlier CallbackCounts) CallbackCounts {
	return CallbackCounts{
		Snapshot:     c.Snapshot - earlier.Snapshot,
		ReadEvents:   c.ReadEvents - earlier.ReadEvents,
		GetSkill:     c.GetSkill - earlier.GetSkill,
		ReadResource: c.ReadResource - earlier.ReadResource,
	}
}

func (c CallbackCounts) plus(d CallbackCounts) CallbackCounts {
	return CallbackCounts{
		Snapshot:     c.Snapshot + d.Snapshot,
		ReadEvents:   c.ReadEvents + d.ReadEvents,
		GetSkill:     c.GetSkill + d.GetSkill,
		ReadResource: c.ReadResource + d.ReadResource,
	}
}

// preStep runs a step of a session whose turn the caller holds: the
// listeners, then the plugin, deciding again while another step of the
// session appends first (see Session.Step).
func (h *Host) preStep(ctx context.Context, s *session, step Step) (result StepResult, err error) {
	ctx, obs := h.tel.startStep(ctx, step)
	defer func() { h.observeStep(ctx, obs, step, result, err) }()
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
		return h.failStep(ctx, s, step, decision, CallbackCounts{}, &HostError{Err: err})
	}
	if err := checkMessagesUTF8(decision.Messages); err != nil {
		return h.failStep(ctx, s, step, decision, CallbackCounts{}, err)
	}
	var callbacks CallbackCounts
	for attempt := 1; ; attempt++ {
		run := &stepRun{h: h, s: s, m: m, chain: chain, step: step, decision: decision}
		result, err := run.attempt(ctx, attempt)
		callbacks = callbacks.plus(result.Callbacks)
		result.Callbacks = callbacks
		if errors.Is(err, errStepAgain) {
			continue
		}
		if err != nil {
			return h.failStep(ctx, s, step, decision, callbacks, err)
		}
		for _, d := range result.Diagnostics {
			h.log.Warn("skill catalog: "+d, "session", step.SessionID, "agent", step.AgentScope)
		}
		h.reportReasons(ctx, s, step, result.Outcome, result.Reasons)
		h.grantsAfterStep(s, decision, result)
		return result, nil
	}
}

// failStep ends a step that failed: the downstream decision with
// OutcomePluginError and the failure as its reason, or, with
// Options.FailClosed, the error alone. Either way the reason is reported.
func (h *Host) failStep(ctx context.Context, s *session, step Step, decision Decision, callbacks CallbackCounts, err error) (StepResult, error) {
	reasons := []Reason{failureReason(err)}
	h.reportReasons(ctx, s, step, OutcomePluginError, reasons)
	if h.opts.FailClosed {
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
	return Reason{Code: code, Detail: hostanswer.BoundText(err.Error(), maxProviderErrorBytes)}
}

// troubling reports whether a reason names something an operator should
// look at: the skills could not be observed, the `skill` tool is shadowed,
// or the step failed.
func troubling(c ReasonCode) bool {
	switch c {
	case contract.ReasonSnapshotIncomplete, contract.ReasonProviderIncomplete, contract.ReasonProviderDegraded, contract.ReasonToolShadowed, contract.ReasonLockMismatch,
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
func (h *Host) reportReasons(ctx context.Context, s *session, step Step, outcome Outcome, reasons []Reason) {
	fp, troubled := uint64(len(reasons)), false
	for _, r := range reasons {
		fp = mixFingerprint(mixFingerprint(fp, xxh3.HashString(string(r.Code))), xxh3.HashString(r.Detail))
		troubled = troubled || troubling(r.Code)
	}
	changed, wasTroubled := s.swapReasons(fp, troubled)
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

// publishes reports whether a step with this outcome published a catalog.
func publishes(o Outcome) bool {
	return o == OutcomeInitial || o == OutcomeReplacement || o == OutcomeTombstone
}
