package skilleino

import (
	"context"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// The host's enforced tool grants (hostsdk.Options.ToolGrants) in an Eino
// agent: the middleware refuses a call of a tool the active skill
// withholds, with the refusal text naming the skill
// (hostsdk.Session.CheckToolCall) as the tool's result; the model
// Skills.Model returns is offered only the tools the grants leave
// (hostsdk.Session.OfferedTools), through model.WithTools on each call.
// With grants off, both pass everything through.

// grantMiddleware returns the tool-call middleware that refuses the calls
// the session's grants withhold.
func (s *Skills) grantMiddleware() compose.ToolMiddleware {
	return compose.ToolMiddleware{
		Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
				if refusal, ok := s.checkCall(ctx, in.Name); !ok {
					return &compose.ToolOutput{Result: refusal}, nil
				}
				return next(ctx, in)
			}
		},
		Streamable: func(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
				if refusal, ok := s.checkCall(ctx, in.Name); !ok {
					return &compose.StreamToolOutput{Result: schema.StreamReaderFromArray([]string{refusal})}, nil
				}
				return next(ctx, in)
			}
		},
	}
}

// checkCall says whether the Run's session may call the tool name; a Run
// that names no session is not the adapter's to judge.
func (s *Skills) checkCall(ctx context.Context, name string) (string, bool) {
	sess, err := s.session(ctx)
	if err != nil {
		return "", true
	}
	return sess.CheckToolCall(name)
}

// withGrants returns opts with the tools the Run's session may offer now,
// when its grants withhold any of tools, the tools the model is bound to.
func (s *Skills) withGrants(ctx context.Context, tools []*schema.ToolInfo, opts []model.Option) []model.Option {
	if len(tools) == 0 {
		return opts
	}
	sess, err := s.session(ctx)
	if err != nil {
		return opts
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	offered := sess.OfferedTools(names)
	if len(offered) == len(names) {
		return opts
	}
	kept := make([]*schema.ToolInfo, 0, len(offered))
	for _, t := range tools {
		for _, n := range offered {
			if t.Name == n {
				kept = append(kept, t)
				break
			}
		}
	}
	return append(opts, model.WithTools(kept))
}
