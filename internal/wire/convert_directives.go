package wire

import (
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Conversions of a skill's directives and of the skills a user invoked.

// contextsToProto maps each execution context to its wire value; inline is
// the unspecified zero value.
var contextsToProto = map[skill.ExecutionContext]pb.SkillContext{
	skill.ContextInline:               pb.SkillContext_SKILL_CONTEXT_UNSPECIFIED,
	skill.ContextFork:                 pb.SkillContext_SKILL_CONTEXT_FORK,
	skill.ContextForkWithConversation: pb.SkillContext_SKILL_CONTEXT_FORK_WITH_CONVERSATION,
}

// directiveKinds pairs each kind of directive with its wire value.
var directiveKinds = [...]struct {
	kind skill.DirectiveSet
	wire pb.DirectiveKind
}{
	{skill.DirectiveContext, pb.DirectiveKind_DIRECTIVE_KIND_CONTEXT},
	{skill.DirectiveModel, pb.DirectiveKind_DIRECTIVE_KIND_MODEL},
	{skill.DirectiveAllowedTools, pb.DirectiveKind_DIRECTIVE_KIND_ALLOWED_TOOLS},
	{skill.DirectiveDisallowedTools, pb.DirectiveKind_DIRECTIVE_KIND_DISALLOWED_TOOLS},
	{skill.DirectiveShell, pb.DirectiveKind_DIRECTIVE_KIND_SHELL},
	{skill.DirectiveEffort, pb.DirectiveKind_DIRECTIVE_KIND_EFFORT},
	{skill.DirectiveHooks, pb.DirectiveKind_DIRECTIVE_KIND_HOOKS},
}

// directivesToProto converts a skill's directives; nil stays nil. A context
// the vocabulary does not define crosses as inline.
func directivesToProto(d *skill.Directives) *pb.SkillDirectives {
	if d == nil {
		return nil
	}
	out := &pb.SkillDirectives{Context: contextsToProto[d.Context], Agent: d.Agent, Model: d.Model,
		AllowedTools: d.AllowedTools, Trusted: d.Trusted, Diagnostics: d.Diagnostics,
		DisallowedTools: d.DisallowedTools, Shell: d.Shell, Effort: d.Effort, HooksJson: d.Hooks}
	for _, k := range directiveKinds {
		if d.Honoured.Has(k.kind) {
			out.Honoured = append(out.Honoured, k.wire)
		}
	}
	return out
}

// directivesFromProto converts a skill's directives; nil stays nil. A
// context or a kind this end does not know (a newer peer's) is read as
// inline, or not at all: never as something the host acts on.
func directivesFromProto(d *pb.SkillDirectives) *skill.Directives {
	if d == nil {
		return nil
	}
	out := &skill.Directives{Agent: d.GetAgent(), Model: d.GetModel(), AllowedTools: d.GetAllowedTools(),
		Trusted: d.GetTrusted(), Diagnostics: d.GetDiagnostics(),
		DisallowedTools: d.GetDisallowedTools(), Shell: d.GetShell(), Effort: d.GetEffort(), Hooks: d.GetHooksJson()}
	for c, w := range contextsToProto {
		if w == d.GetContext() {
			out.Context = c
		}
	}
	for _, h := range d.GetHonoured() {
		for _, k := range directiveKinds {
			if k.wire == h {
				out.Honoured |= k.kind
			}
		}
	}
	return out
}

// invocationsToProto converts the skills a step's user invoked.
func invocationsToProto(list []contract.Invocation) []*pb.InvokedSkill {
	if len(list) == 0 {
		return nil
	}
	out := make([]*pb.InvokedSkill, len(list))
	for i, inv := range list {
		out[i] = &pb.InvokedSkill{Name: inv.Name, MessageId: inv.MessageID, Directives: directivesToProto(inv.Directives)}
	}
	return out
}

// invocationsFromProto converts the skills a step's user invoked.
func invocationsFromProto(list []*pb.InvokedSkill) []contract.Invocation {
	if len(list) == 0 {
		return nil
	}
	out := make([]contract.Invocation, len(list))
	for i, inv := range list {
		out[i] = contract.Invocation{Name: inv.GetName(), MessageID: inv.GetMessageId(), Directives: directivesFromProto(inv.GetDirectives())}
	}
	return out
}
