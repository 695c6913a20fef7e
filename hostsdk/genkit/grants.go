package skillgenkit

import (
	"context"

	"github.com/firebase/genkit/go/ai"
)

// The host's enforced tool grants (hostsdk.Options.ToolGrants) in a
// Genkit application: the middleware offers the model only the tools the
// active skill's grants leave (hostsdk.Session.OfferedTools), and a tool
// function wrapped by Guard answers a call the grants withhold with the
// refusal naming the skill (hostsdk.Session.CheckToolCall) instead of
// running. Genkit runs a tool the model requests whether or not the
// request offered it, so the application wraps the functions of its own
// tools in Guard where a skill may withhold them.

// granted returns tools without those the session's grants withhold.
func (s *Skills) granted(ctx context.Context, b *binding, tools []*ai.ToolDefinition) []*ai.ToolDefinition {
	if len(tools) == 0 {
		return tools
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	offered := s.session(ctx, b).OfferedTools(names)
	if len(offered) == len(names) {
		return tools
	}
	kept := make([]*ai.ToolDefinition, 0, len(offered))
	for _, t := range tools {
		for _, n := range offered {
			if t.Name == n {
				kept = append(kept, t)
				break
			}
		}
	}
	return kept
}

// Guard returns fn, the function of the tool named name (as
// genkit.DefineTool takes it), checked against the host's enforced tool
// grants: while the active skill withholds the tool, a call returns the
// refusal text naming the skill, and fn does not run. A call whose
// context names no session (WithSession) runs fn.
func Guard[In any](s *Skills, name string, fn func(*ai.ToolContext, In) (string, error)) func(*ai.ToolContext, In) (string, error) {
	return func(tc *ai.ToolContext, in In) (string, error) {
		if b, err := bindingOf(tc); err == nil {
			if refusal, ok := s.session(tc, b).CheckToolCall(name); !ok {
				return refusal, nil
			}
		}
		return fn(tc, in)
	}
}
