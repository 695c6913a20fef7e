package hostsdk

import (
	"context"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// ToolCall is a model's call of a tool, as the runtime received it.
type ToolCall struct {
	SessionID  string
	Cwd        string
	AgentScope string
	CallID     string
	// Name is the tool name the model called.
	Name string
	// Arguments is the raw JSON of the call's arguments.
	Arguments string
}

// ToolResult is a tool call's result: the rendered text the model sees and,
// on success, the canonical value.
type ToolResult struct {
	Text    string
	IsError bool
	// Value is set on success.
	Value *skill.ToolValue
}

// ToolNotFoundError is returned by CallTool when the name resolves to no tool
// for the agent.
type ToolNotFoundError struct{ Name, Scope string }

func (e *ToolNotFoundError) Error() string {
	return fmt.Sprintf("tool %q is not available in scope %q", e.Name, e.Scope)
}

// CallTool resolves call.Name for the agent's scope and, when it resolves to
// a tool a plugin mount registered, forwards the call to the plugin. A name
// that resolves to another definition (a same-name shadow, say) is not the
// plugin's: CallTool returns *ToolNotFoundError for it, and the runtime
// dispatches it itself.
func (h *Host) CallTool(ctx context.Context, call ToolCall) (ToolResult, error) {
	id, _, ok := h.cfg.Tools.Resolve(call.AgentScope, call.Name)
	if !ok {
		return ToolResult{}, &ToolNotFoundError{Name: call.Name, Scope: call.AgentScope}
	}
	for _, p := range h.loaded() {
		for _, m := range p.mountList() {
			if m.ToolIdentity(call.Name) == id {
				ctx, cancel := context.WithTimeout(ctx, h.cfg.ToolCallTimeout)
				defer cancel()
				return m.executeSkillTool(ctx, call)
			}
		}
	}
	return ToolResult{}, &ToolNotFoundError{Name: call.Name, Scope: call.AgentScope}
}

func (m *Mount) executeSkillTool(ctx context.Context, call ToolCall) (ToolResult, error) {
	var resp *skillcatalogv1.ExecuteSkillToolResponse
	err := m.call(ctx, func(proc *process, mountID string) error {
		var err error
		resp, err = proc.plugin.ExecuteSkillTool(ctx, &skillcatalogv1.ExecuteSkillToolRequest{
			MountId:       mountID,
			SessionId:     call.SessionID,
			Cwd:           call.Cwd,
			AgentScope:    call.AgentScope,
			ArgumentsJson: call.Arguments,
			CallId:        call.CallID,
		})
		return err
	})
	if err != nil {
		return ToolResult{}, &PluginError{Err: err}
	}
	out := ToolResult{Text: resp.GetText(), IsError: resp.GetIsError()}
	if v := resp.GetValue(); v != nil && !out.IsError {
		out.Value = &skill.ToolValue{Name: v.GetName(), Provider: v.GetProvider(), Content: v.GetContent()}
		if rb := v.GetResourceBase(); rb != nil {
			out.Value.ResourceBase = &skill.ResourceBase{Kind: skill.ResourceKind(rb.GetKind()), Path: rb.GetPath(), URL: rb.GetUrl(), Description: rb.GetDescription()}
		}
	}
	return out, nil
}

func skillsQuery(step Step, chain []string) skills.Query {
	return skills.Query{SessionID: step.SessionID, Cwd: step.Cwd, Chain: chain}
}
