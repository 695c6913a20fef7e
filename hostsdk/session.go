package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// Session is one session of a Host: its identity (id, working directory,
// agent scope), and the door to everything done to the session — its steps
// (Step, or Sync for a framework that owns the history), its tool calls
// (CallTool), the messages the runtime adds between steps (Append), its
// compactions, skill selection and transcript, and its end (End). The Host
// holds what is not per session: the plugins, their mounts, the listeners.
//
// Handles are cheap; any number may name one session, and they share its
// state, which the Host keeps until End or Host.Close. A Session is safe
// for concurrent use: steps of one session take turns within the Host
// (Step and Sync alike, through any handle).
type Session struct {
	h          *Host
	id         string
	cwd        string
	agentScope string
	preload    []string
}

// SessionOptions is where a session works; nil means no working directory
// and the global scope.
type SessionOptions struct {
	// Cwd is the session's working directory, which providers resolve
	// project skills against: an absolute path, or empty for none.
	Cwd string
	// AgentScope is the calling agent's scope; empty means
	// tools.GlobalScope.
	AgentScope string
	// PreloadSkills are skills preloaded for this session, after those of
	// its agent scope (Options.Preload): their instructions are appended
	// at the session's first step, once (Step.PreloadSkills).
	PreloadSkills []string
}

// Session returns the handle of the session id. It checks nothing: a
// working directory that is not absolute fails each step and tool call
// with ErrRelativeCwd, an agent scope the tree does not hold with
// tools.ErrUnknownScope.
func (h *Host) Session(id string, opts *SessionOptions) *Session {
	var o SessionOptions
	if opts != nil {
		o = *opts
	}
	if o.AgentScope == "" {
		o.AgentScope = tools.GlobalScope
	}
	return &Session{h: h, id: id, cwd: o.Cwd, agentScope: o.AgentScope, preload: slices.Clone(o.PreloadSkills)}
}

// ID returns the session's id.
func (s *Session) ID() string { return s.id }

// Cwd returns the session's working directory.
func (s *Session) Cwd() string { return s.cwd }

// AgentScope returns the scope of the session's agent.
func (s *Session) AgentScope() string { return s.agentScope }

// StepOptions are what a step may carry beside its proposed messages; nil
// means none. What the session is (id, working directory, agent scope,
// preloaded skills) comes from the Session, and the files it touched from
// Touch and from the tool calls of the proposed messages.
type StepOptions struct {
	// Turn and Step number the step for telemetry only (span attributes
	// and the plugin's traces); the plugin decides from the session log
	// alone. Zero where the runtime does not count.
	Turn int
	Step int
}

// Step runs one model step of the session, with downstream as the
// decision the runtime proposes (Step.Downstream: the messages it is about
// to add, the user's own message marked with Message.UserInput): the
// host's listeners, then the plugin mount in effect for the session's
// agent scope, then the entering decision's messages, with the plugin's
// additions, appended to the session log.
//
// On a plugin failure Step returns a *PluginError, and on a failure of the
// host's side (a provider, the session store opening the log or appending
// the step's messages, or a working directory that is not absolute:
// ErrRelativeCwd) a *HostError. Unless Options.FailClosed is set, the host
// then fails open: the StepResult carries the downstream decision
// unchanged, with OutcomePluginError, and Step appends the downstream
// messages itself, so the session log keeps up with what the model is
// sent; StepResult.Appended then holds their sequence numbers. If that
// append fails too, the error joins both failures. Two failures append
// nothing: an error wrapping sessionlog.ErrOutcomeUnknown (the store could
// not say whether the step's append happened: read the log before writing
// again) and the caller's own cancellation. With FailClosed the error
// comes alone and nothing of the step is in the log.
//
// Options.PreStepTimeout bounds each attempt: the plugin's round trip with
// its callbacks and every session-store call of the step (opening the log,
// the append, and the append when failing open). (Re)starting the plugin
// process is not part of it.
//
// The plugin decides on the session's head as the host read it, and the
// messages are appended only if the head has not moved since
// (sessionlog.Log.AppendIf). If another step of the session appended first
// (another host replica sharing the store, a retried request), the plugin
// decides again on the new head, up to a few times; so each catalog change
// is published once per session, whoever races. Listeners run once per
// Step.
func (s *Session) Step(ctx context.Context, downstream Decision, opts *StepOptions) (StepResult, error) {
	step := s.stepOf(downstream, opts)
	if err := s.h.checkOpen("step session", s.id); err != nil {
		return StepResult{}, err
	}
	st := s.h.sessions.get(s.id)
	if err := st.enter(ctx); err != nil {
		return s.h.failStep(ctx, st, step, downstream, CallbackCounts{}, err)
	}
	defer st.leave()
	return s.step(ctx, st, step)
}

// step is Step for a session whose turn the caller holds.
func (s *Session) step(ctx context.Context, st *session, step Step) (StepResult, error) {
	downstream := step.Downstream
	step.TouchedPaths = st.takeTouched()
	res, err := s.h.preStep(ctx, st, step)
	if err == nil || !failedOpen(err) || errors.Is(err, sessionlog.ErrOutcomeUnknown) || s.h.opts.FailClosed ||
		downstream.Reject != nil || len(downstream.Messages) == 0 {
		return res, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.h.opts.PreStepTimeout)
	defer cancel()
	log, lerr := s.h.openLog(ctx, s.id, st)
	if lerr == nil {
		res.Appended, lerr = appendMessages(ctx, log, downstream.Messages, downstream.Messages)
	}
	if lerr != nil {
		return res, errors.Join(err, &HostError{Err: fmt.Errorf("append the step's messages after the failure: %w", lerr)})
	}
	return res, err
}

// failedOpen reports whether a step's error leaves the step to proceed
// without the plugin: the plugin or the host's side failed, not the
// caller's own context.
func failedOpen(err error) bool {
	var pe *PluginError
	var he *HostError
	return errors.As(err, &pe) || errors.As(err, &he)
}

// stepOf is the step the session runs with downstream and opts.
func (s *Session) stepOf(downstream Decision, opts *StepOptions) Step {
	step := Step{SessionID: s.id, Cwd: s.cwd, AgentScope: s.agentScope, Downstream: downstream, PreloadSkills: s.preload}
	if opts != nil {
		step.Turn, step.Step = opts.Turn, opts.Step
	}
	return step
}

// ToolDefinition is a tool as a model is offered it: name, description and
// JSON Schemas.
type ToolDefinition = tools.Definition

// Tools returns the definitions of the plugin's tools the session's agent
// sees (see Host.Tools).
func (s *Session) Tools() []ToolDefinition { return s.h.Tools(s.agentScope) }

// Tools returns the definitions of the plugin's tools an agent sees
// (`skill`, and `skill_resource` with the resourceTool option), ready to
// offer the model: those of the mount in effect for the agent scope that
// still resolve, for the agent, to what the mount registered. A tool
// restricted away or shadowed is left out; no mount, or a scope the tree
// does not hold, means none. An empty scope is tools.GlobalScope.
// Frameworks that fix an agent's tools when they build it take them from
// here.
func (h *Host) Tools(agentScope string) []ToolDefinition {
	if agentScope == "" {
		agentScope = tools.GlobalScope
	}
	m, _, err := h.mountFor(agentScope)
	if err != nil || m == nil {
		return nil
	}
	var out []ToolDefinition
	for _, t := range h.opts.Tools.Visible(agentScope) {
		if m.ToolIdentity(t.Definition.Name) == t.Identity {
			out = append(out, t.Definition)
		}
	}
	return out
}

// HandleDirectives sets the directive handler of the session's skill
// loads (see DirectiveHandler), in place of the host's
// (Host.HandleDirectives), until the session ends in the Host (End or
// Host.Close); nil goes back to the host's. An agent framework's adapter
// sets its own on the sessions it runs, before their steps and tool calls,
// so that two adapters on one host, each able to act on different
// directives, never answer for each other's sessions.
func (s *Session) HandleDirectives(f DirectiveHandler) {
	st := s.h.sessions.get(s.id)
	if f == nil {
		st.directives.Store(nil)
		return
	}
	st.directives.Store(&f)
}

// End ends the session in the Host: every plugin and provider is told,
// so their per-session caches are released, the host's handle on the
// session's log is closed and the session's state in the Host forgotten.
// The log's contents are kept; a later step reopens it.
func (s *Session) End(ctx context.Context) error {
	if err := s.h.checkOpen("end session", s.id); err != nil {
		return err
	}
	s.h.opts.Skills.EndSession(s.id)
	var errs []error
	if l := s.h.sessions.end(s.id); l != nil {
		errs = append(errs, l.Close())
	}
	for _, p := range s.h.loaded() {
		errs = append(errs, p.endSession(ctx, s.id))
	}
	return errors.Join(errs...)
}
