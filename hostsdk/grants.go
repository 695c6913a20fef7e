package hostsdk

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// ToolGrants says whether the host enforces the tool grants of the skill
// active in a session's turn (Options.ToolGrants).
type ToolGrants int

// Tool grant modes.
const (
	// ToolGrantsOff, the default, enforces nothing: a skill's
	// allowed-tools and disallowed-tools are directives like any other,
	// for the DirectiveHandler to act on, and stated to the model when it
	// does not.
	ToolGrantsOff ToolGrants = iota
	// ToolGrantsEnforce withholds the tools the active skill's
	// disallowed-tools name: Session.OfferedTools leaves them out and
	// Session.CheckToolCall refuses a call of them. disallowed-tools is
	// then a kind of directive the host acts on.
	ToolGrantsEnforce
	// ToolGrantsStrict also, for an active skill with allowed-tools,
	// offers only the tools it allows (and the plugin's own tools).
	// allowed-tools is then a kind of directive the host acts on too.
	ToolGrantsStrict
)

// grantKinds returns the kinds of directive the host acts on itself in
// mode g.
func (g ToolGrants) grantKinds() skill.DirectiveSet {
	switch g {
	case ToolGrantsEnforce:
		return skill.DirectiveDisallowedTools
	case ToolGrantsStrict:
		return skill.DirectiveDisallowedTools | skill.DirectiveAllowedTools
	}
	return 0
}

// activeGrant is the grants of the skill active in a session's turn.
type activeGrant struct {
	skill string
	// allowed is nil when the skill restricts nothing to a list (or the
	// mode is not strict).
	allowed    []string
	disallowed []string
}

// grantState is a session's active grant; its zero value holds none.
type grantState struct {
	mu     sync.Mutex
	active *activeGrant
	// inherited is true while the active grant was put in force by
	// Session.InheritGrants and no user's message has come since: the
	// sub-agent's first one is its task, which starts the turn the grant
	// is for rather than ending it.
	inherited bool
}

func (g *grantState) set(a *activeGrant) {
	g.mu.Lock()
	g.active, g.inherited = a, false
	g.mu.Unlock()
}

// inherit puts a parent's grant in force for a sub-agent's turn.
func (g *grantState) inherit(a *activeGrant) {
	g.mu.Lock()
	g.active, g.inherited = a, a != nil
	g.mu.Unlock()
}

// userSpoke ends the turn's grant when a user's own message arrives,
// except the first one after InheritGrants: a sub-agent's task.
func (g *grantState) userSpoke() {
	g.mu.Lock()
	if g.inherited {
		g.inherited = false
	} else {
		g.active = nil
	}
	g.mu.Unlock()
}

func (g *grantState) get() *activeGrant {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.active
}

// grantOf returns the grant a skill loaded as name with directives d puts
// in force in mode g: nil when it restricts nothing (no directives, not
// Trusted, or none of its tool kinds acted on).
func (g ToolGrants) grantOf(name string, d *skill.Directives) *activeGrant {
	if g == ToolGrantsOff || d == nil || !d.Trusted {
		return nil
	}
	a := &activeGrant{skill: name}
	acted := d.Acted() & g.grantKinds()
	if acted.Has(skill.DirectiveDisallowedTools) {
		a.disallowed = slices.Clone(d.DisallowedTools)
	}
	if acted.Has(skill.DirectiveAllowedTools) && g == ToolGrantsStrict {
		a.allowed = slices.Clone(d.AllowedTools)
	}
	if a.allowed == nil && a.disallowed == nil {
		return nil
	}
	return a
}

// ToolPatternMatches reports whether an entry of allowed-tools or
// disallowed-tools names the tool called name. Tools are named as the
// runtime offers them, case-sensitively: "Read" names Read; a permission
// pattern with a specifier, "Bash(git add *)", names the whole tool before
// the parenthesis, Bash (whether a call's arguments fit the specifier is
// for the runtime's permission rules to judge: withheld, the whole tool is
// withheld; allowed, the whole tool is offered); an entry ending in "*"
// without parentheses, "mcp__github__*", names every tool its text before
// the "*" starts.
func ToolPatternMatches(pattern, name string) bool {
	if i := strings.IndexByte(pattern, '('); i > 0 {
		return pattern[:i] == name
	}
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return pattern == name
}

func anyMatches(patterns []string, name string) bool {
	for _, p := range patterns {
		if ToolPatternMatches(p, name) {
			return true
		}
	}
	return false
}

// isPluginTool reports whether name is one of the plugin's own tools,
// which grants never withhold: the model can always load another skill,
// which ends the grant.
func isPluginTool(name string) bool {
	switch name {
	case contract.SkillToolName, contract.ResourceToolName, contract.SearchToolName:
		return true
	}
	return false
}

// refusal says why a grants a withholds the tool name, or "".
func (a *activeGrant) refusal(name string) string {
	switch {
	case a == nil || isPluginTool(name):
		return ""
	case anyMatches(a.disallowed, name):
		return render.GrantRefusal(name, a.skill, false)
	case a.allowed != nil && !anyMatches(a.allowed, name):
		return render.GrantRefusal(name, a.skill, true)
	}
	return ""
}

// OfferedTools returns the names of all, in order, that the session may
// offer the model now: all of them, but those the active skill's grants
// withhold (Options.ToolGrants): the tools its disallowed-tools name, and,
// with ToolGrantsStrict, the tools its allowed-tools leave out. The
// plugin's own tools are never withheld. With ToolGrantsOff, or no skill
// active, it returns all.
func (s *Session) OfferedTools(all []string) []string {
	a := s.h.sessions.get(s.id).grants.get()
	if a == nil {
		return all
	}
	out := make([]string, 0, len(all))
	for _, name := range all {
		if a.refusal(name) == "" {
			out = append(out, name)
		}
	}
	return out
}

// CheckToolCall says whether the model may call the tool name now: ok, or
// the refusal text to answer the call with instead of running it, which
// names the skill that withholds the tool (render.GrantRefusal). A runtime
// whose model calls a tool it was not offered checks here before it runs
// the tool.
func (s *Session) CheckToolCall(name string) (refusal string, ok bool) {
	r := s.h.sessions.get(s.id).grants.get().refusal(name)
	return r, r == ""
}

// ActiveSkill returns the name of the skill whose grants are in force in
// the session, or "" for none.
func (s *Session) ActiveSkill() string {
	if a := s.h.sessions.get(s.id).grants.get(); a != nil {
		return a.skill
	}
	return ""
}

// EndTurn ends the session's turn for its grants: the active skill's
// grants stop, and every tool is offered again. A step whose downstream
// messages hold a user's own message (Message.UserInput) ends the turn
// before it, and a compaction ends it too; a runtime that marks its turns
// otherwise calls EndTurn when the model's turn ends.
func (s *Session) EndTurn() { s.h.sessions.get(s.id).grants.set(nil) }

// InheritGrants puts the grants in force in parent in force in s too, as
// they are now: a sub-agent (a fork) the parent starts while a skill is
// active works under the same grants until its own turn ends. The first
// user's message of s after it, the sub-agent's task, starts that turn
// rather than ending it; the next one ends it, as in any session. A skill
// that runs in a sub-agent of its own (`context: fork`) is the parent's
// active skill once its load returns, so a sub-agent started for it
// inherits its grants (the Eino adapter does so).
func (s *Session) InheritGrants(parent *Session) {
	a := parent.h.sessions.get(parent.id).grants.get()
	s.h.sessions.get(s.id).grants.inherit(a)
}

// grantsAfterStep updates the session's grants after a step: a user's own
// message among the downstream messages starts a new turn, which ends the
// active skill's grants; then each skill the user invoked in the step
// becomes the active one, in order.
func (h *Host) grantsAfterStep(s *session, decision Decision, res StepResult) {
	if h.opts.ToolGrants == ToolGrantsOff {
		return
	}
	if slices.ContainsFunc(decision.Messages, func(m Message) bool { return m.UserInput }) {
		s.grants.userSpoke()
	}
	for _, inv := range res.Invocations {
		s.grants.set(h.opts.ToolGrants.grantOf(inv.Name, inv.Directives))
	}
}

// grantsAfterTool updates the session's grants after a successful `skill`
// tool call: the loaded skill is the active one, and its grants, if any,
// replace those in force.
func (h *Host) grantsAfterTool(call sessionCall, res ToolResult) {
	if h.opts.ToolGrants == ToolGrantsOff || call.Name != contract.SkillToolName || res.IsError {
		return
	}
	var args struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(call.Arguments, &args) != nil {
		return // the plugin reads the same arguments; it loaded nothing
	}
	name := args.Name
	h.sessions.get(call.SessionID).grants.set(h.opts.ToolGrants.grantOf(name, res.Directives))
}
