package skillgenkit

import (
	"context"

	"github.com/firebase/genkit/go/ai"
)

// This file is the only one that knows which Genkit hook runs the
// adapter: v1.4's ai.ModelMiddleware. A v1.7 entry point (an ai.Middleware
// for ai.WithUse, whose Hooks carry the tools, WrapGenerate and WrapTool)
// is a file like this one; see the package documentation.

// Middleware returns the skills as a model middleware for
// ai.WithMiddleware. Genkit runs it around every model call of the
// generation's tool loop: before the call, the conversation goes through
// the session log and comes back with the plugin's messages in their
// places; after it, the tool requests get their call ids and a final
// answer is logged. The Generate's context names the session
// (WithSession), and the Generate offers the model Tools.
func (s *Skills) Middleware() ai.ModelMiddleware {
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			b, err := bindingOf(ctx)
			if err != nil {
				return nil, err
			}
			sent, err := s.prepare(ctx, b, req)
			if err != nil {
				return nil, err
			}
			resp, err := next(ctx, sent, cb)
			if err != nil {
				return resp, err
			}
			return resp, s.settle(ctx, b, sent, resp)
		}
	}
}
