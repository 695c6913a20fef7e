package skilleino

import (
	"context"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Model returns base as the agent's model that follows `model:` skills:
// once a skill whose model the adapter acts on is loaded (by the `skill`
// tool, or a user's `/name`), every later model call of the same Run goes
// to the model Options.Models gives for it, with the agent's tools; the
// next Run starts on base again, as Claude Code keeps a skill's model for
// the rest of the turn. Pass it as adk.ChatModelAgentConfig.Model. Without
// it, or without Options.Models, the adapter acts on no `model:`, and a
// skill's result says that the model stays.
func (s *Skills) Model(base model.ToolCallingChatModel) model.ToolCallingChatModel {
	s.switching.Store(true)
	return &switchingModel{s: s, base: base}
}

// switchingModel is the model Skills.Model returns.
type switchingModel struct {
	s    *Skills
	base model.ToolCallingChatModel
	// tools are the tools WithTools bound, given to a switched-to model
	// too; bound says WithTools was called.
	tools []*schema.ToolInfo
	bound bool
}

// WithTools binds the tools to base, and to whichever model the Run
// switches to.
func (m *switchingModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	b, err := m.base.WithTools(tools)
	if err != nil {
		return nil, err
	}
	return &switchingModel{s: m.s, base: b, tools: tools, bound: true}, nil
}

// current returns the model of the Run in ctx: the one a skill switched it
// to, else base. A model the hub no longer gives, or that cannot take the
// tools, leaves the Run on base, and is logged.
func (m *switchingModel) current(ctx context.Context) model.BaseChatModel {
	v, _ := adk.GetSessionValue(ctx, modelKey)
	name, _ := v.(string)
	if name == "" || m.s.opts.Models == nil {
		return m.base
	}
	alt, err := m.s.opts.Models.Get(ctx, name)
	if err == nil && m.bound {
		alt, err = alt.WithTools(m.tools)
	}
	if err != nil {
		m.s.opts.Logger.Warn("skill catalog: the model a skill asked for is not available; the Run stays on its model", "model", name, "err", err)
		return m.base
	}
	return alt
}

// Generate calls the Run's model, offering it the tools the session's
// grants leave.
func (m *switchingModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	return m.current(ctx).Generate(ctx, input, m.s.withGrants(ctx, m.tools, opts)...)
}

// Stream is Generate, streamed.
func (m *switchingModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	return m.current(ctx).Stream(ctx, input, m.s.withGrants(ctx, m.tools, opts)...)
}
