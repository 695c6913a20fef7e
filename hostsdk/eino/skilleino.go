package skilleino

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// Session values (adk.WithSessionValues) a Run sets to name where its
// messages belong. A Run's session values reach every model call and tool
// call of that Run and nothing else, which is the lifetime of one step of a
// conversation the caller keeps.
const (
	// SessionKey names the run's session (a string): every Run of one
	// conversation passes the same id, so its session log follows the
	// conversation across Runs and restarts.
	SessionKey = "skillcatalog.session"
	// CwdKey optionally gives the session's working directory (an absolute
	// path), where the host finds project skills (OpenOptions.TrustProjects).
	CwdKey = "skillcatalog.cwd"
)

// Options configure the adapter; the zero value (or nil) is ready to use.
type Options struct {
	// AgentScope is the agent's scope in the host's scope tree; "" is the
	// global scope, where hostsdk.Open mounts the plugin.
	AgentScope string
	// Logger receives the failures the adapter lets the agent run past;
	// nil is slog.Default().
	Logger *slog.Logger
	// Agents gives the sub-agents of `context: fork` skills: a trusted
	// skill the model loads runs in the agent its `agent` names, and the
	// agent's answer is the `skill` call's result. nil runs every skill
	// inline, and the result says so. See directives.go.
	Agents AgentHub
	// Models gives the models of `model:` skills: a trusted skill that
	// asks for one switches the rest of the Run to it, when the agent's
	// model is Skills.Model. nil keeps the model, and the result says so.
	Models ModelHub
	// ForkTimeout bounds the Run of a `context: fork` skill's sub-agent:
	// one that has not answered by then is stopped (its Run's context
	// ends), and the skill runs inline, its result saying so. 0 is
	// DefaultForkTimeout; it must not be negative.
	ForkTimeout time.Duration
	// PreloadSkills are skills preloaded for every session this agent
	// runs: their instructions are appended at the session's first step,
	// once, and attached again after a compaction as loaded skills
	// (hostsdk.SessionOptions.PreloadSkills; the host's Options.Preload
	// for the agent's scope come first).
	PreloadSkills []string
}

// DefaultForkTimeout is how long a fork skill's sub-agent may run when
// Options.ForkTimeout is 0: long enough for a sub-agent that reads and
// searches for a while, short enough that one that hangs does not hold
// the conversation.
const DefaultForkTimeout = 10 * time.Minute

// Skills adds the skill catalog to Eino agents: the plugin's tools, and a
// hook before every model call that records the conversation in the
// session log and splices the plugin's messages into what the model sees.
// One Skills serves any number of agents, sessions and concurrent Runs.
type Skills struct {
	host  *hostsdk.Host
	opts  Options
	tools []tool.BaseTool
	// handler is the directive handler the adapter sets on the sessions it
	// runs (handle).
	handler hostsdk.DirectiveHandler
	// switching says the agent's model is Model's: a `model:` skill can
	// switch it.
	switching atomic.Bool
}

// New returns the skills of host for Eino agents. It reads the definitions
// of the mount's tools once, because an Eino agent fixes its tools when it
// is built. The adapter answers for the directives of the skills its own
// agents load: it sets its directive handler on each session it runs
// (hostsdk.Session.HandleDirectives), so any number of adapters share a
// host, and the host's own handler answers for every other session.
func New(ctx context.Context, host *hostsdk.Host, opts *Options) (*Skills, error) {
	if host == nil {
		return nil, errors.New("skilleino: no host")
	}
	s := &Skills{host: host}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.ForkTimeout < 0 {
		return nil, fmt.Errorf("skilleino: Options.ForkTimeout is %v; it must be 0 (the default, %v) or more", s.opts.ForkTimeout, DefaultForkTimeout)
	}
	s.opts.ForkTimeout = cmp.Or(s.opts.ForkTimeout, DefaultForkTimeout)
	s.opts.Logger = cmp.Or(s.opts.Logger, slog.Default())
	s.handler = s.handle
	tools, err := newTools(s)
	if err != nil {
		return nil, err
	}
	s.tools = tools
	return s, nil
}

// WithSession is the Run option that names the Run's session. Eino keeps
// one map of session values per Run, and a later adk.WithSessionValues
// replaces this one: a caller with session values of its own puts
// SessionKey in its map instead.
func WithSession(id string) adk.AgentRunOption {
	return adk.WithSessionValues(map[string]any{SessionKey: id})
}

// session returns the handle of the session the Run in ctx names. There
// is no default session: a Run that forgot to name one fails, rather than
// mixing its messages into another conversation's log.
func (s *Skills) session(ctx context.Context) (*hostsdk.Session, error) {
	v, _ := adk.GetSessionValue(ctx, SessionKey)
	id, _ := v.(string)
	if id == "" {
		return nil, errors.New("skilleino: the Run names no session: pass skilleino.WithSession(id) to Runner.Run")
	}
	v, _ = adk.GetSessionValue(ctx, CwdKey)
	cwd, _ := v.(string)
	sess := s.host.Session(id, &hostsdk.SessionOptions{Cwd: cwd, AgentScope: s.opts.AgentScope, PreloadSkills: s.opts.PreloadSkills})
	sess.HandleDirectives(s.handler)
	return sess, nil
}

// rewrite is the step before a model call, whatever hook Eino offers for
// it: msgs is what the framework is about to send, and the result is what
// it sends instead. System messages go first, as Eino puts them; the rest
// is the conversation as the session log has it, with the plugin's
// messages in their places and every other message the framework's own
// (the same pointer). A failure of the plugin or the store does not stop
// the agent: the model is called with what Sync could still give, or with
// msgs as they were. A closed host does (hostsdk.ErrClosed): the agent
// outlived its host, and would run without its skills. A step with no
// mount in effect publishes nothing, and is logged as a warning.
func (s *Skills) rewrite(ctx context.Context, msgs []*schema.Message) ([]*schema.Message, error) {
	sess, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	system, own, history, err := split(msgs)
	if err != nil {
		return nil, fmt.Errorf("skilleino: session %q: %w", sess.ID(), err)
	}
	res, err := sess.Sync(ctx, history)
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, hostsdk.ErrClosed)):
		return nil, fmt.Errorf("skilleino: session %q: %w", sess.ID(), err)
	case err != nil:
		s.opts.Logger.Warn("skill catalog: the step failed; the model is called without the plugin's additions",
			"session", sess.ID(), "outcome", res.Outcome, "err", err)
		if res.View == nil {
			return msgs, nil
		}
	case res.Decision.Reject != nil:
		return nil, fmt.Errorf("skilleino: session %q: the step was rejected: %s", sess.ID(), res.Decision.Reject.Reason)
	case res.Outcome == hostsdk.OutcomeNoPlugin:
		s.opts.Logger.Warn("skill catalog: no plugin mount is in effect for the agent's scope; the step publishes nothing and the model is called without the catalog",
			"session", sess.ID(), "agent", s.opts.AgentScope, "reasons", res.Reasons)
	}
	actOnInvocations(ctx, res.Invocations)
	out := append(make([]*schema.Message, 0, len(system)+len(res.View)), system...)
	conversation := make([]*schema.Message, 0, len(res.View))
	for _, v := range res.View {
		if v.Plugin {
			out = append(out, fromPlugin(v.Message))
			continue
		}
		m := own[v.HistoryIndex]
		if id, ok := m.Extra[pluginKey]; ok {
			s.opts.Logger.Warn("skill catalog: a message carries the mark of the plugin's messages with an id the session log never held; it is the caller's",
				"session", sess.ID(), "id", id)
		}
		out, conversation = append(out, m), append(conversation, m)
	}
	adk.AddSessionValue(ctx, historyKey, conversation)
	return out, nil
}

// split sets aside the system messages, and converts the rest for the
// session log. A message the adapter marked as the plugin's goes to Sync
// with the plugin message's id as its own: Sync knows it by that id when
// the log holds such a plugin message, and leaves it out; the mark of any
// other is the caller's, not the adapter's, and the message stays.
func split(msgs []*schema.Message) (system, own []*schema.Message, history []hostsdk.Message, err error) {
	for _, m := range msgs {
		if m.Role == schema.System {
			system = append(system, m)
			continue
		}
		hm, err := toHost(m)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("message %d: %w", len(own), err)
		}
		if id, ok := m.Extra[pluginKey].(string); ok && id != "" {
			hm.ID = id
		}
		own, history = append(own, m), append(history, hm)
	}
	return system, own, history, nil
}

// record logs a Run's final answer, the model's reply that calls no tool:
// no model call follows it in the Run, so no Sync would log it before the
// next Run, and a conversation that ends there would lose it. A failure
// is logged, not returned: the answer has been given.
func (s *Skills) record(ctx context.Context, msgs []*schema.Message) error {
	if len(msgs) == 0 || len(msgs[len(msgs)-1].ToolCalls) > 0 {
		return nil
	}
	sess, err := s.session(ctx)
	if err != nil {
		return err
	}
	_, _, history, err := split(msgs)
	if err == nil {
		err = sess.Record(ctx, history)
	}
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, hostsdk.ErrClosed) {
			return fmt.Errorf("skilleino: session %q: %w", sess.ID(), err)
		}
		s.opts.Logger.Warn("skill catalog: the Run's final answer could not be logged; the next Run logs it",
			"session", sess.ID(), "err", err)
	}
	return nil
}
