package skillgenkit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/firebase/genkit/go/ai"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// Options configure the adapter; the zero value (or nil) is ready to use.
type Options struct {
	// AgentScope is the agent's scope in the host's scope tree; "" is the
	// global scope, where hostsdk.Open mounts the plugin.
	AgentScope string
	// Logger receives the failures the adapter lets the generation run
	// past; nil is slog.Default().
	Logger *slog.Logger
	// PreloadSkills are skills preloaded for every session these
	// generations run: their instructions are appended at the session's
	// first step, once, and attached again after a compaction as loaded
	// skills (hostsdk.SessionOptions.PreloadSkills; the host's
	// Options.Preload for the agent's scope come first).
	PreloadSkills []string
}

// Skills adds the skill catalog to Genkit generations: the plugin's tools,
// and a model middleware that records the conversation in the session log
// before every model call and splices the plugin's messages into what the
// model sees. One Skills serves any number of sessions and concurrent
// Generate calls.
type Skills struct {
	host *hostsdk.Host
	opts Options
	// tools are the mount's tools the agent sees, in the host's order.
	tools []hostsdk.ToolDefinition
	// defs are the tools' definitions as the model is offered them, by
	// name: Genkit's own, with the plugin's input schema.
	defs map[string]*ai.ToolDefinition
}

// New returns the skills of host for Genkit. It reads the definitions of
// the mount's tools once: they never change, so the tools part of every
// request stays byte for byte the same.
func New(ctx context.Context, host *hostsdk.Host, opts *Options) (*Skills, error) {
	if host == nil {
		return nil, errors.New("skillgenkit: no host")
	}
	s := &Skills{host: host}
	if opts != nil {
		s.opts = *opts
	}
	s.opts.Logger = cmp.Or(s.opts.Logger, slog.Default())
	if err := s.newTools(); err != nil {
		return nil, err
	}
	return s, nil
}

// Tools returns the plugin's tools (`skill`, and `skill_resource` with the
// mount's resourceTool option) for ai.WithTools. Genkit takes one
// WithTools per call: an application with tools of its own appends these
// to its list. Call it for each Generate: Genkit v1.4 registers a tool
// made with ai.NewTool into each Generate's registry by writing to the
// tool, so one tool value must not serve concurrent Generates.
func (s *Skills) Tools() []ai.ToolRef {
	out := make([]ai.ToolRef, len(s.tools))
	for i, d := range s.tools {
		out[i] = s.newTool(d)
	}
	return out
}

// IsPluginMessage reports whether m carries the mark of a message the
// adapter put into a request for the plugin (a catalog, a replacement or
// tombstone, a skill the user invoked). Genkit's ModelResponse.History
// holds the request the model answered, these messages included; the
// adapter knows them in the next request's history by the plugin
// message's id the mark holds, leaves them out and puts the current ones
// back, so a caller need not remove them, but may, to show the
// conversation to a person. The adapter trusts the mark no further: a
// message marked with an id the session log never held is the caller's,
// sent and logged as such, with a warning.
func IsPluginMessage(m *ai.Message) bool {
	if m == nil {
		return false
	}
	_, ok := m.Metadata[pluginKey]
	return ok
}

// prepare is the step before a model call, whatever hook Genkit offers
// for it: req is what the framework is about to send, and the result is
// what it sends instead, a copy with the conversation as the session log
// has it (the plugin's messages in their places, every other message the
// framework's own pointer) and the tools as the model is offered them.
// A failure of the plugin or the store does not stop the generation: the
// model is called with what Sync could still give, or with req's
// messages. A closed host does (hostsdk.ErrClosed): the application
// outlived its host, and would run without its skills. A step with no
// mount in effect publishes nothing, and is logged as a warning.
func (s *Skills) prepare(ctx context.Context, b *binding, req *ai.ModelRequest) (*ai.ModelRequest, error) {
	out := *req
	var err error
	if out.Tools, err = s.offered(req.Tools); err != nil {
		return nil, err
	}
	system, own, history, err := split(req.Messages)
	if err != nil {
		return nil, fmt.Errorf("skillgenkit: session %q: %w", b.id, err)
	}
	res, err := s.session(ctx, b).Sync(ctx, history)
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, hostsdk.ErrClosed)):
		return nil, fmt.Errorf("skillgenkit: session %q: %w", b.id, err)
	case err != nil:
		s.opts.Logger.Warn("skill catalog: the step failed; the model is called without the plugin's additions",
			"session", b.id, "outcome", res.Outcome, "err", err)
		if res.View == nil {
			return &out, nil
		}
	case res.Decision.Reject != nil:
		return nil, fmt.Errorf("skillgenkit: session %q: the step was rejected: %s", b.id, res.Decision.Reject.Reason)
	case res.Outcome == hostsdk.OutcomeNoPlugin:
		s.opts.Logger.Warn("skill catalog: no plugin mount is in effect for the agent's scope; the step publishes nothing and the model is called without the catalog",
			"session", b.id, "agent", s.opts.AgentScope, "reasons", res.Reasons)
	}
	out.Tools = s.granted(ctx, b, out.Tools)
	out.Messages = append(make([]*ai.Message, 0, len(system)+len(res.View)), system...)
	for _, v := range res.View {
		if v.Plugin {
			out.Messages = append(out.Messages, fromPlugin(v.Message))
			continue
		}
		m := own[v.HistoryIndex]
		if IsPluginMessage(m) {
			s.opts.Logger.Warn("skill catalog: a message carries the mark of the plugin's messages with an id the session log never held; it is the caller's",
				"session", b.id, "id", m.Metadata[pluginKey])
		}
		out.Messages = append(out.Messages, m)
	}
	return &out, nil
}

// settle is the step after a model call: the response's tool requests
// get their call ids (see calls.go), and a final answer, a reply that
// requests no tool, is logged. No model call follows it in the
// generation, so no Sync would log it before the next one, and a
// conversation that ends there would lose it. A failure to log it is
// logged, not returned: the answer has been given.
func (s *Skills) settle(ctx context.Context, b *binding, sent *ai.ModelRequest, resp *ai.ModelResponse) error {
	if resp == nil || resp.Message == nil {
		return nil
	}
	if b.expect(len(sent.Messages), resp.Message, s.defs) > 0 {
		return nil
	}
	_, _, history, err := split(append(sent.Messages[:len(sent.Messages):len(sent.Messages)], resp.Message))
	if err == nil {
		err = s.session(ctx, b).Record(ctx, history)
	}
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, hostsdk.ErrClosed) {
			return fmt.Errorf("skillgenkit: session %q: %w", b.id, err)
		}
		s.opts.Logger.Warn("skill catalog: the final answer could not be logged; the next Generate logs it",
			"session", b.id, "err", err)
	}
	return nil
}

// split sets aside the system messages, and converts the rest for the
// session log. A message the adapter marked as the plugin's goes to Sync
// with the plugin message's id as its own: Sync knows it by that id when
// the log holds such a plugin message, and leaves it out; the mark of any
// other is the caller's, not the adapter's, and the message stays.
func split(msgs []*ai.Message) (system, own []*ai.Message, history []hostsdk.Message, err error) {
	for _, m := range msgs {
		switch {
		case m == nil:
		case m.Role == ai.RoleSystem:
			system = append(system, m)
		default:
			hm, err := toHost(m)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("message %d: %w", len(own), err)
			}
			if id, ok := m.Metadata[pluginKey].(string); ok && id != "" {
				hm.ID = id
			}
			own, history = append(own, m), append(history, hm)
		}
	}
	return system, own, history, nil
}
