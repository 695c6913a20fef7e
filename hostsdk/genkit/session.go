package skillgenkit

import (
	"context"
	"errors"
	"sync"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// bindingKey and cwdKey are the context keys of WithSession and
// WithWorkingDir.
type (
	bindingKey struct{}
	cwdKey     struct{}
)

// binding is what WithSession puts in a context: the session's id, and
// the tool requests of the newest model response, which the tools match
// their calls against (Genkit v1.4 tells a tool neither its call id nor
// the input the model sent). The middleware and the tools of one Generate
// both see the context it was called with, so they share it.
type binding struct {
	id    string
	mu    sync.Mutex
	calls []pendingCall
}

// WithSession returns a context that names the session of the Generate
// calls made with it: every Generate of one conversation names the same
// id, so its session log follows the conversation across calls and
// restarts. There is no default session: a Generate whose context names
// none fails rather than join another conversation's log. Give each
// concurrent Generate a context of its own.
func WithSession(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, bindingKey{}, &binding{id: id})
}

// WithWorkingDir returns a context that gives the session's working
// directory (an absolute path), where the host finds project skills
// (hostsdk.OpenOptions.TrustProjects).
func WithWorkingDir(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, cwdKey{}, dir)
}

// bindingOf returns the binding WithSession put in ctx.
func bindingOf(ctx context.Context) (*binding, error) {
	b, _ := ctx.Value(bindingKey{}).(*binding)
	if b == nil || b.id == "" {
		return nil, errors.New("skillgenkit: the Generate names no session: pass it a context from skillgenkit.WithSession(ctx, id)")
	}
	return b, nil
}

// session returns the handle of b's session, in the working directory ctx
// gives.
func (s *Skills) session(ctx context.Context, b *binding) *hostsdk.Session {
	cwd, _ := ctx.Value(cwdKey{}).(string)
	return s.host.Session(b.id, &hostsdk.SessionOptions{Cwd: cwd, AgentScope: s.opts.AgentScope, PreloadSkills: s.opts.PreloadSkills})
}
