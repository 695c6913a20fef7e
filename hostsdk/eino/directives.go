package skilleino

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Session values the adapter keeps for the rest of a Run.
const (
	// modelKey holds the name of the model a `model:` skill switched the
	// Run to.
	modelKey = "skillcatalog.model"
	// historyKey holds the conversation of the Run's latest model call,
	// for a `context: fork_with_context` skill's sub-agent.
	historyKey = "skillcatalog.history"
)

// AgentHub gives the sub-agents that `context: fork` skills run in, as
// Eino's own skill middleware takes them.
type AgentHub interface {
	// Get returns the agent name names: a skill's `agent`, or "" for a
	// skill that names none (Claude Code runs those in its
	// general-purpose agent). An error means there is none: the skill
	// then runs inline, and its result says so.
	Get(ctx context.Context, name string) (adk.Agent, error)
}

// ModelHub gives the models `model:` skills ask for.
type ModelHub interface {
	// Get returns the model name names, in the skill's own words ("opus",
	// "claude-sonnet-4-5"). An error means there is none: the Run keeps
	// its model, and the skill's result says so.
	Get(ctx context.Context, name string) (model.ToolCallingChatModel, error)
}

// Agents is an AgentHub of a fixed set of agents, by name.
type Agents map[string]adk.Agent

// Get returns the agent of that name.
func (a Agents) Get(_ context.Context, name string) (adk.Agent, error) {
	if ag, ok := a[name]; ok && ag != nil {
		return ag, nil
	}
	return nil, fmt.Errorf("skilleino: no agent %q", name)
}

// Models is a ModelHub of a fixed set of models, by name.
type Models map[string]model.ToolCallingChatModel

// Get returns the model of that name.
func (m Models) Get(_ context.Context, name string) (model.ToolCallingChatModel, error) {
	if cm, ok := m[name]; ok && cm != nil {
		return cm, nil
	}
	return nil, fmt.Errorf("skilleino: no model %q", name)
}

// handle is the directive handler of the sessions the adapter runs: for a
// trusted skill that the agent loads, it acts on a fork the AgentHub has
// an agent for (a skill the model loads with the `skill` tool; a user's
// `/name` runs inline), and on a model the ModelHub has when the agent's
// model is the adapter's (Skills.Model) and the skill does not fork.
func (s *Skills) handle(ctx context.Context, req hostsdk.DirectiveRequest) skill.DirectiveSet {
	if req.AgentScope != s.scope() {
		return 0
	}
	d := req.Directives
	var acts skill.DirectiveSet
	if d.Context.IsFork() && !req.UserInvocation && s.opts.Agents != nil {
		if _, err := s.opts.Agents.Get(ctx, d.Agent); err == nil {
			acts |= skill.DirectiveContext
		}
	}
	if d.Model != "" && !acts.Has(skill.DirectiveContext) && s.opts.Models != nil && s.switching.Load() {
		if _, err := s.opts.Models.Get(ctx, d.Model); err == nil {
			acts |= skill.DirectiveModel
		}
	}
	return acts
}

// scope is the agent scope the adapter's sessions run in.
func (s *Skills) scope() string {
	if s.opts.AgentScope == "" {
		return tools.GlobalScope
	}
	return s.opts.AgentScope
}

// actOnInvocations switches the Run's model for the skills the user
// invoked in a step whose model the handler said the adapter acts on.
func actOnInvocations(ctx context.Context, invoked []hostsdk.Invocation) {
	for _, inv := range invoked {
		if d := inv.Directives; d.Acted().Has(skill.DirectiveModel) {
			adk.AddSessionValue(ctx, modelKey, d.Model)
		}
	}
}

// skillResult is the text a `skill` call returns to the model: the
// plugin's, once the adapter acted on what the handler said it would (the
// model switched for the rest of the Run, the skill run in its sub-agent,
// whose answer is the result).
func (s *Skills) skillResult(ctx context.Context, res hostsdk.ToolResult) string {
	d := res.Directives
	acted := d.Acted()
	if acted == 0 || res.Value == nil {
		return res.Text
	}
	name := res.Value.Name
	block := strings.TrimSuffix(res.Text, "\n"+render.DirectivesNotice(name, d))
	// The adapter acts on the context and the model; tool grants, when
	// acted on, the host enforces itself (Options.ToolGrants).
	mine := acted & (skill.DirectiveContext | skill.DirectiveModel)
	if able := mine & s.able(); able != mine {
		// A handler other than the adapter's answered (one set on the
		// session after the adapter's): the adapter acts on what it can,
		// and the text says the rest.
		s.opts.Logger.Warn("skill catalog: a directive handler said a skill's directives are acted on that this adapter cannot act on; the text says so",
			"skill", name, "acted", mine, "able", able)
		d = d.Clone()
		d.Honoured &^= mine &^ able
		acted, res.Text = acted&^(mine&^able), render.WithDirectivesNotice(block, name, d)
	}
	if acted.Has(skill.DirectiveModel) {
		adk.AddSessionValue(ctx, modelKey, d.Model)
	}
	if !acted.Has(skill.DirectiveContext) {
		return res.Text
	}
	answer, err := s.fork(ctx, d, block)
	if err == nil {
		return render.WithDirectivesNotice(answer, name, d)
	}
	inline := *d
	inline.Honoured &^= skill.DirectiveContext
	text := render.WithDirectivesNotice(block, name, &inline)
	if errors.Is(err, errForkTimeout) {
		s.opts.Logger.Warn("skill catalog: a fork skill's sub-agent did not answer in time and was stopped; the skill runs inline",
			"skill", name, "agent", d.Agent, "timeout", s.opts.ForkTimeout)
		return text + "\n" + fmt.Sprintf(forkTimeoutNote, s.opts.ForkTimeout)
	}
	s.opts.Logger.Warn("skill catalog: a fork skill's sub-agent failed; the skill runs inline", "skill", name, "agent", d.Agent, "err", err)
	return text
}

// able is what the adapter can act on: a fork with an AgentHub, a model
// with a ModelHub and the agent's model wrapped by Skills.Model.
func (s *Skills) able() skill.DirectiveSet {
	var can skill.DirectiveSet
	if s.opts.Agents != nil {
		can |= skill.DirectiveContext
	}
	if s.opts.Models != nil && s.switching.Load() {
		can |= skill.DirectiveModel
	}
	return can
}

// errForkTimeout is a sub-agent that did not answer within
// Options.ForkTimeout.
var errForkTimeout = errors.New("the sub-agent did not answer in time")

// forkTimeoutNote follows the notice of a fork skill whose sub-agent did
// not answer in time, with the timeout.
const forkTimeoutNote = "The skill's sub-agent was started first, did not answer within %v, and was stopped."

// fork runs a skill in its sub-agent: the agent the hub gives for its
// `agent`, on the skill's block alone (`context: fork`) or after the
// conversation of the Run's latest model call (`fork_with_context`), in
// a Run of its own, in a session of its own (forkSession), for at most
// Options.ForkTimeout. Its final answer is the result. A sub-agent still
// running at the timeout has its context ended and is left to stop; the
// Run goes on without it.
func (s *Skills) fork(ctx context.Context, d *skill.Directives, block string) (string, error) {
	agent, err := s.opts.Agents.Get(ctx, d.Agent)
	if err != nil {
		return "", err
	}
	var input []adk.Message
	if d.Context == skill.ContextForkWithConversation {
		v, _ := adk.GetSessionValue(ctx, historyKey)
		history, _ := v.([]*schema.Message)
		input = slices.Clone(history)
	}
	input = append(input, schema.UserMessage(block))
	values := forkSession(ctx)
	defer s.endFork(ctx, values[SessionKey].(string))
	// The skill's load made it the parent's active skill: its sub-agent
	// works under its grants.
	if parent, ok := adk.GetSessionValue(ctx, SessionKey); ok {
		s.host.Session(values[SessionKey].(string), nil).InheritGrants(s.host.Session(fmt.Sprint(parent), nil))
	}
	runCtx, cancel := context.WithTimeout(ctx, s.opts.ForkTimeout)
	defer cancel()
	type result struct {
		answer *schema.Message
		err    error
	}
	done := make(chan result, 1)
	go func() {
		answer, err := runAgent(runCtx, agent, input, adk.WithSessionValues(values))
		done <- result{answer, err}
	}()
	select {
	case r := <-done:
		if r.err == nil && r.answer == nil {
			r.err = fmt.Errorf("the agent %q gave no answer", d.Agent)
		}
		if r.err != nil {
			return "", r.err
		}
		return r.answer.Content, nil
	case <-runCtx.Done():
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", errForkTimeout
	}
}

// forkSession returns the session values of a fork's Run: a session of
// its own, "<parent session>/fork/<tool call id>", in the parent's working
// directory. A sub-agent built with the adapter's middleware runs in it,
// with a catalog and a log of its own; the parent's log holds only the
// tool call and its answer.
func forkSession(ctx context.Context) map[string]any {
	parent, _ := adk.GetSessionValue(ctx, SessionKey)
	call := compose.GetToolCallID(ctx)
	if call == "" {
		var b [8]byte
		rand.Read(b[:])
		call = hex.EncodeToString(b[:])
	}
	values := map[string]any{SessionKey: fmt.Sprintf("%v/fork/%s", parent, call)}
	if cwd, ok := adk.GetSessionValue(ctx, CwdKey); ok {
		values[CwdKey] = cwd
	}
	return values
}

// endFork ends a fork's session in the host once its Run is over; its
// log is kept.
func (s *Skills) endFork(ctx context.Context, id string) {
	if err := s.host.Session(id, nil).End(context.WithoutCancel(ctx)); err != nil {
		s.opts.Logger.Warn("skill catalog: a fork's session did not end cleanly", "session", id, "err", err)
	}
}

// runAgent runs agent on input and returns its final message.
func runAgent(ctx context.Context, agent adk.Agent, input []adk.Message, opts ...adk.AgentRunOption) (*schema.Message, error) {
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Run(ctx, input, opts...)
	var answer *schema.Message
	for {
		ev, ok := iter.Next()
		if !ok {
			return answer, nil
		}
		if ev.Err != nil {
			return nil, ev.Err
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			if err != nil {
				return nil, err
			}
			answer = msg
		}
	}
}
