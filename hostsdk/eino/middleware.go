package skilleino

import (
	"context"

	"github.com/cloudwego/eino/adk"
)

// This file is the only one that knows which Eino hook runs the adapter:
// v0.7's AgentMiddleware. A v0.8 entry point (a ChatModelAgentMiddleware
// for ChatModelAgentConfig.Handlers) is a file like this one, see the
// package documentation.

// Middleware returns the skills as an agent middleware for
// adk.ChatModelAgentConfig.Middlewares: the plugin's tools, and the
// rewrite of the messages before every model call, the logging of a
// Run's final answer after the model call that gives it, and the refusal
// of a tool call the host's enforced grants withhold.
func (s *Skills) Middleware() adk.AgentMiddleware {
	return adk.AgentMiddleware{
		AdditionalTools: s.tools,
		BeforeChatModel: func(ctx context.Context, state *adk.ChatModelAgentState) error {
			msgs, err := s.rewrite(ctx, state.Messages)
			if err != nil {
				return err
			}
			state.Messages = msgs
			return nil
		},
		AfterChatModel: func(ctx context.Context, state *adk.ChatModelAgentState) error {
			return s.record(ctx, state.Messages)
		},
		WrapToolCall: s.grantMiddleware(),
	}
}
