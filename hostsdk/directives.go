package hostsdk

import (
	"context"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Invocation is a skill the user invoked by name in a step: its name, the
// id of the message that carries its instructions, and its directives
// (StepResult.Invocations).
type Invocation = contract.Invocation

// DirectiveRequest is a skill being loaded that asks something of the
// runtime (skill.Directives): a fork, a model, tools to pre-approve.
type DirectiveRequest struct {
	SessionID  string
	Cwd        string
	AgentScope string
	// Name is the name the skill is loaded under.
	Name string
	// UserInvocation is true when the user invoked the skill by name, false
	// when the model loads it with the `skill` tool.
	UserInvocation bool
	// Directives are what the skill asks for. They are Trusted: a handler
	// is never asked about a skill whose directives are requests of a
	// source the host does not vouch for.
	Directives skill.Directives
}

// DirectiveHandler says which kinds of directive the runtime acts on for a
// skill being loaded. The answer is kept to what the skill asks for; the
// skill's text (its `skill` tool result, or the message a user's `/name`
// adds) then states that every other kind it asks for is not acted on, so
// the model is not misled, and the result carries the directives with
// the kinds acted on (ToolResult.Directives, StepResult.Invocations), for
// the runtime to act: run the fork, switch the model, pre-approve the
// tools. The handler runs while the plugin waits for the skill, in the
// GetSkill callback: it must return quickly and must not call the Host.
type DirectiveHandler func(ctx context.Context, req DirectiveRequest) skill.DirectiveSet

// HandleDirectives sets the host's directive handler; nil, the default,
// acts on no directive, and the text of every skill that asks for one says
// so. It takes effect for the loads that start after it returns. A session
// with a handler of its own (Session.HandleDirectives) is answered by that
// one instead.
func (h *Host) HandleDirectives(f DirectiveHandler) {
	if f == nil {
		h.directives.Store(nil)
		return
	}
	h.directives.Store(&f)
}

// honour asks the directive handler, if there is one, which directives of
// a found skill the runtime acts on, and marks them on its definition. An
// untrusted skill's, or one that asks for nothing, are not asked about,
// and stay honoured by nothing.
func (h *Host) honour(ctx context.Context, req contract.SkillRequest, look *contract.SkillLookup) {
	d := look.Skill.Directives
	if d == nil {
		return
	}
	d.Honoured = 0
	f := h.directives.Load()
	if st := h.sessions.lookup(req.SessionID); st != nil {
		if own := st.directives.Load(); own != nil {
			f = own
		}
	}
	if !d.Trusted || d.Requested() == 0 {
		return
	}
	// The grants the host enforces itself count as acted on, whatever the
	// handler says (Options.ToolGrants).
	d.Honoured = h.opts.ToolGrants.grantKinds() & d.Requested()
	if f == nil {
		return
	}
	d.Honoured |= (*f)(ctx, DirectiveRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope,
		Name: req.Name, UserInvocation: req.UserInvocation, Directives: *d.Clone()}) & d.Requested()
}
