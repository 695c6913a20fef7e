package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// Session is a handle on one session of a Host: its identity (id, working
// directory, agent scope), through which its steps, tool calls and
// transcript go. Handles are cheap; any number may name one session, and
// they share its state, which the Host keeps until EndSession or Close.
// A Session is safe for concurrent use: steps of one session take turns
// within the Host (Step, Sync and Host.PreStep alike).
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
// tools.ErrUnknownScope, as Host.PreStep and Host.CallTool do.
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

// Step runs one model step of the session, as Host.PreStep does, with
// downstream as the messages the runtime proposes (Step.Downstream). One
// difference: when the plugin fails and the host fails open (a
// *PluginError or *HostError, Options.FailClosed unset), Step appends the
// downstream messages itself, so the session log keeps up with what the
// model is sent; StepResult.Appended then holds their sequence numbers. If
// that append fails too, the error joins both failures.
func (s *Session) Step(ctx context.Context, downstream Decision) (StepResult, error) {
	if err := s.h.checkOpen("step session", s.id); err != nil {
		return StepResult{}, err
	}
	st := s.h.sessions.get(s.id)
	if err := st.enter(ctx); err != nil {
		return s.h.failStep(ctx, st, s.stepOf(downstream), downstream, CallbackCounts{}, err)
	}
	defer st.leave()
	return s.step(ctx, st, downstream)
}

// step is Step for a session whose turn the caller holds.
func (s *Session) step(ctx context.Context, st *session, downstream Decision) (StepResult, error) {
	step := s.stepOf(downstream)
	step.TouchedPaths = st.takeTouched()
	res, err := s.h.preStep(ctx, st, step)
	if err == nil || !failedOpen(err) || s.h.opts.FailClosed || downstream.Reject != nil || len(downstream.Messages) == 0 {
		return res, err
	}
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

func (s *Session) stepOf(downstream Decision) Step {
	return Step{SessionID: s.id, Cwd: s.cwd, AgentScope: s.agentScope, Downstream: downstream, PreloadSkills: s.preload}
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

// CallTool runs the model's call of one of the session's tools, as
// Host.CallTool does; call's SessionID, Cwd and AgentScope are the
// session's (a call that names others is refused). CallID is optional: it
// is the model's id of the call where the runtime has one, for the
// plugin's records and traces.
func (s *Session) CallTool(ctx context.Context, call ToolCall) (ToolResult, error) {
	if (call.SessionID != "" && call.SessionID != s.id) || (call.Cwd != "" && call.Cwd != s.cwd) ||
		(call.AgentScope != "" && call.AgentScope != s.agentScope) {
		return ToolResult{}, fmt.Errorf("hostsdk: a tool call of session %q names another session, directory or agent", s.id)
	}
	call.SessionID, call.Cwd, call.AgentScope = s.id, s.cwd, s.agentScope
	return s.h.CallTool(ctx, call)
}

// HandleDirectives sets the directive handler of the session's skill
// loads (see DirectiveHandler), in place of the host's
// (Host.HandleDirectives), until the session ends in the Host (End,
// Host.EndSession, Host.Close); nil goes back to the host's. An agent
// framework's adapter sets its own on the sessions it runs, before their
// steps and tool calls, so that two adapters on one host, each able to act
// on different directives, never answer for each other's sessions.
func (s *Session) HandleDirectives(f DirectiveHandler) {
	st := s.h.sessions.get(s.id)
	if f == nil {
		st.directives.Store(nil)
		return
	}
	st.directives.Store(&f)
}

// Append appends messages the runtime adds outside a step (see
// Host.AppendMessages).
func (s *Session) Append(ctx context.Context, msgs ...Message) ([]uint64, error) {
	return s.h.AppendMessages(ctx, s.id, msgs...)
}

// Transcript reads the session's messages back (see Host.Transcript).
func (s *Session) Transcript(ctx context.Context) ([]TranscriptEntry, error) {
	return s.h.Transcript(ctx, s.id)
}

// RecordCompaction records a compaction of the session's context (see
// Host.RecordCompaction). A runtime that hands its history to Sync need not
// call it: Sync records what the history no longer holds.
func (s *Session) RecordCompaction(ctx context.Context, c Compaction) (sessionlog.Head, error) {
	return s.h.RecordCompaction(ctx, s.id, c)
}

// End ends the session in the Host (see Host.EndSession); its log is kept.
func (s *Session) End(ctx context.Context) error { return s.h.EndSession(ctx, s.id) }
