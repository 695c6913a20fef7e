package skill

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ExecutionContext says where a skill asks to run. Its values are the
// spellings of the `context` frontmatter field.
type ExecutionContext string

// Execution contexts.
const (
	// ContextInline, the zero value, runs the skill in the conversation
	// that loads it: its instructions become part of that conversation.
	ContextInline ExecutionContext = ""
	// ContextFork runs the skill in a sub-agent of its own, which gets the
	// skill's instructions as its task and nothing of the conversation,
	// and whose answer alone comes back (`context: fork`, as Claude Code
	// and Eino write it).
	ContextFork ExecutionContext = "fork"
	// ContextForkWithConversation runs the skill in a sub-agent that is
	// also given the conversation so far (`context: fork_with_context`,
	// as Eino writes it).
	ContextForkWithConversation ExecutionContext = "fork_with_context"
)

// IsFork reports whether c runs the skill in a sub-agent.
func (c ExecutionContext) IsFork() bool {
	return c == ContextFork || c == ContextForkWithConversation
}

// DirectiveSet is a set of kinds of directive.
type DirectiveSet uint8

// Kinds of directive.
const (
	// DirectiveContext is the execution context, with the sub-agent its
	// Agent names.
	DirectiveContext DirectiveSet = 1 << iota
	// DirectiveModel is the model the skill asks to run on.
	DirectiveModel
	// DirectiveAllowedTools is the tools the skill asks to be usable
	// without approval while it is active.
	DirectiveAllowedTools
	// DirectiveDisallowedTools is the tools the skill asks to be withheld
	// while it is active.
	DirectiveDisallowedTools
	// DirectiveShell is the shell the skill asks its `!` command blocks to
	// run in.
	DirectiveShell
	// DirectiveEffort is the effort level the skill asks the model to run
	// at.
	DirectiveEffort
	// DirectiveHooks is the lifecycle hooks the skill asks to run while it
	// is active.
	DirectiveHooks

	// AllDirectives holds every kind.
	AllDirectives = DirectiveContext | DirectiveModel | DirectiveAllowedTools |
		DirectiveDisallowedTools | DirectiveShell | DirectiveEffort | DirectiveHooks
)

// directiveNames are the names of the kinds, in bit order: the frontmatter
// field each kind comes from.
var directiveNames = [...]string{"context", "model", "allowed-tools", "disallowed-tools", "shell", "effort", "hooks"}

// Has reports whether s holds every kind of k.
func (s DirectiveSet) Has(k DirectiveSet) bool { return s&k == k }

// Names returns the names of the kinds s holds, in a fixed order:
// "context", "model", "allowed-tools", "disallowed-tools", "shell",
// "effort", "hooks".
func (s DirectiveSet) Names() []string {
	var out []string
	for i, n := range directiveNames {
		if s&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// String returns the names of the kinds, separated by commas.
func (s DirectiveSet) String() string { return strings.Join(s.Names(), ",") }

// ParseDirectiveSet reads the names Names returns. An unknown name is an
// error naming it.
func ParseDirectiveSet(names []string) (DirectiveSet, error) {
	var s DirectiveSet
	for _, n := range names {
		i := indexOf(directiveNames[:], n)
		if i < 0 {
			return 0, fmt.Errorf("unknown directive %q; the directives are %s", n, strings.Join(directiveNames[:], ", "))
		}
		s |= 1 << i
	}
	return s, nil
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// MarshalJSON writes the set as the array of its names.
func (s DirectiveSet) MarshalJSON() ([]byte, error) {
	names := s.Names()
	if names == nil {
		names = []string{}
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads the array MarshalJSON writes.
func (s *DirectiveSet) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return err
	}
	v, err := ParseDirectiveSet(names)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Directives are what a skill asks of the runtime beyond its text: where it
// runs (Context, Agent), on which model (Model) and at which effort
// (Effort), which tools it may use without approval while it is active
// (AllowedTools) and which it may not use at all (DisallowedTools), the
// shell of its `!` command blocks (Shell), and the lifecycle hooks to run
// while it is active (Hooks). They are requests: the
// runtime decides what it acts on, and a skill whose directives are not
// Trusted asks, never grants. A skill that asks for nothing has no
// Directives (a nil *Directives).
//
// Its JSON form is {"context", "agent", "model", "allowedTools",
// "disallowedTools", "shell", "effort", "hooks", "trusted", "honoured",
// "diagnostics"}, empty members left out.
type Directives struct {
	// Context is where the skill asks to run.
	Context ExecutionContext `json:"context,omitempty"`
	// Agent names the sub-agent of a fork (`agent`); "" leaves the choice
	// to the runtime. Set only with a fork Context.
	Agent string `json:"agent,omitempty"`
	// Model names the model the skill asks to run on (`model`), in the
	// runtime's own naming; "" keeps the current one (`model: inherit`).
	Model string `json:"model,omitempty"`
	// AllowedTools are the tools the skill asks to use without approval
	// while it is active (`allowed-tools`): tool names or the runtime's
	// permission patterns, such as "Read" or "Bash(git add *)".
	AllowedTools []string `json:"allowedTools,omitempty"`
	// DisallowedTools are the tools the skill asks to be withheld while it
	// is active (`disallowed-tools`), written as AllowedTools are.
	DisallowedTools []string `json:"disallowedTools,omitempty"`
	// Shell is the shell the skill asks its `!` command blocks to run in
	// (`shell`): "powershell"; "" is the default, bash, and asks for
	// nothing.
	Shell string `json:"shell,omitempty"`
	// Effort is the effort level the skill asks the model to run at while
	// it is active (`effort`): "low", "medium", "high", "xhigh" or "max";
	// "" keeps the current one.
	Effort string `json:"effort,omitempty"`
	// Hooks are the lifecycle hooks the skill asks to run while it is
	// active (`hooks`), as the JSON text of the frontmatter's object: its
	// keys are hook events (such as "PreToolUse"), each with the list of
	// matchers and hooks Claude Code's settings write; "" asks for none.
	// At most MaxHooksBytes.
	Hooks string `json:"hooks,omitempty"`
	// Trusted says that the skill's source is one the host vouches for:
	// the host's own skills (registered at runtime, on disk), or a remote
	// origin the host opted in to trust. The directives of an untrusted
	// skill (a remote server's) are requests the runtime may show, never
	// grants it acts on.
	Trusted bool `json:"trusted,omitempty"`
	// Honoured are the kinds of directive the runtime said, when the skill
	// was loaded, that it acts on. A skill's text states that the others it
	// asks for are not acted on (see Unhonoured).
	Honoured DirectiveSet `json:"honoured,omitempty"`
	// Diagnostics say which directive fields were malformed or unknown and
	// what was read instead, for the host's operators; never shown to the
	// model.
	Diagnostics []string `json:"diagnostics,omitempty"`
}

// Requested returns the kinds of directive d asks for: a fork Context, a
// Model, AllowedTools, DisallowedTools, a Shell, an Effort, Hooks. A nil d
// asks for none.
func (d *Directives) Requested() DirectiveSet {
	if d == nil {
		return 0
	}
	var s DirectiveSet
	if d.Context.IsFork() {
		s |= DirectiveContext
	}
	if d.Model != "" {
		s |= DirectiveModel
	}
	if len(d.AllowedTools) > 0 {
		s |= DirectiveAllowedTools
	}
	if len(d.DisallowedTools) > 0 {
		s |= DirectiveDisallowedTools
	}
	if d.Shell != "" {
		s |= DirectiveShell
	}
	if d.Effort != "" {
		s |= DirectiveEffort
	}
	if d.Hooks != "" {
		s |= DirectiveHooks
	}
	return s
}

// Acted returns the kinds of directive the runtime acts on: those it
// honours that d asks for, and none when d is not Trusted.
func (d *Directives) Acted() DirectiveSet {
	if d == nil || !d.Trusted {
		return 0
	}
	return d.Honoured & d.Requested()
}

// Unhonoured returns the kinds of directive d asks for that the runtime
// does not act on.
func (d *Directives) Unhonoured() DirectiveSet {
	return d.Requested() &^ d.Acted()
}

// Clone returns a copy of d that shares no slice with it; nil for nil.
func (d *Directives) Clone() *Directives {
	if d == nil {
		return nil
	}
	c := *d
	c.AllowedTools = append([]string(nil), d.AllowedTools...)
	c.DisallowedTools = append([]string(nil), d.DisallowedTools...)
	c.Diagnostics = append([]string(nil), d.Diagnostics...)
	if len(c.AllowedTools) == 0 {
		c.AllowedTools = nil
	}
	if len(c.DisallowedTools) == 0 {
		c.DisallowedTools = nil
	}
	if len(c.Diagnostics) == 0 {
		c.Diagnostics = nil
	}
	return &c
}

// CheckUTF8 reports the first text of d that is not valid UTF-8 (an
// *InvalidUTF8Error naming its field), or nil.
func (d *Directives) CheckUTF8() error {
	if d == nil {
		return nil
	}
	fields := []struct{ name, text string }{
		{"directive context", string(d.Context)}, {"directive agent", d.Agent}, {"directive model", d.Model},
		{"directive shell", d.Shell}, {"directive effort", d.Effort}, {"directive hooks", d.Hooks},
	}
	for _, t := range d.AllowedTools {
		fields = append(fields, struct{ name, text string }{"allowed tool", t})
	}
	for _, t := range d.DisallowedTools {
		fields = append(fields, struct{ name, text string }{"disallowed tool", t})
	}
	for _, t := range d.Diagnostics {
		fields = append(fields, struct{ name, text string }{"directive diagnostic", t})
	}
	for _, f := range fields {
		if err := CheckUTF8(f.name, f.text); err != nil {
			return err
		}
	}
	return nil
}
