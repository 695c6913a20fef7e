package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// ExecuteSkillTool runs one `skill` tool call. Failures the model should see
// are error results, not Go errors; a Go error means the host could not be
// reached. Policy is checked on the snapshot summary before the body is
// requested, and again on the loaded definition.
func (e *Engine) ExecuteSkillTool(ctx context.Context, host Host, m Mount, req *skillcatalogv1.ExecuteSkillToolRequest) (*skillcatalogv1.ExecuteSkillToolResponse, error) {
	name, ok := skillNameArgument(req.GetArgumentsJson())
	if !ok || !skill.ValidName(name) {
		return errorResult(render.ErrInvalidName(name)), nil
	}

	v, complete, err := e.currentView(ctx, host, m.Config, req.GetSessionId(), req.GetCwd(), req.GetAgentScope(), "")
	if err != nil {
		return nil, err
	}
	if complete {
		summary, listed := v.summary(name)
		if !listed {
			return errorResult(render.ErrUnknownSkill(name)), nil
		}
		if !summary.GetInvocation().GetModelInvocable() {
			return errorResult(render.ErrNotModelInvocable(name)), nil
		}
	}
	// An incomplete snapshot cannot prove absence: ask for the skill itself
	// and let the loaded definition's policy decide.

	got, err := host.GetSkill(ctx, &skillcatalogv1.GetSkillRequest{Cwd: req.GetCwd(), AgentScope: req.GetAgentScope(), Name: name, SessionId: req.GetSessionId()})
	if err != nil {
		return nil, fmt.Errorf("load skill %q: %w", name, err)
	}
	if msg := got.GetError(); msg != "" {
		return errorResult(render.ErrProvider(msg)), nil
	}
	def := got.GetSkill()
	if !got.GetFound() || def == nil {
		return errorResult(render.ErrUnknownSkill(name)), nil
	}
	if !def.GetInvocation().GetModelInvocable() {
		return errorResult(render.ErrNotModelInvocable(name)), nil
	}

	value := &skillcatalogv1.SkillToolValue{
		Name:         name,
		Provider:     def.GetProvider(),
		ResourceBase: def.GetResourceBase(),
		Content:      def.GetContent(),
	}
	tv := skill.ToolValue{Name: value.Name, Provider: value.Provider, Content: value.Content}
	if rb := value.ResourceBase; rb != nil {
		tv.ResourceBase = &skill.ResourceBase{Kind: skill.ResourceKind(rb.GetKind()), Path: rb.GetPath(), URL: rb.GetUrl(), Description: rb.GetDescription()}
	}
	text, err := render.SkillContent(tv)
	if err != nil {
		return errorResult(render.ErrProvider(err.Error())), nil
	}
	return &skillcatalogv1.ExecuteSkillToolResponse{Value: value, Text: text}, nil
}

func errorResult(text string) *skillcatalogv1.ExecuteSkillToolResponse {
	return &skillcatalogv1.ExecuteSkillToolResponse{Text: text, IsError: true}
}

// skillNameArgument extracts the `name` argument. A missing or non-string
// name is reported as invalid with its JSON text, so the model sees what it
// sent.
func skillNameArgument(args string) (string, bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return strings.TrimSpace(args), false
	}
	raw, present := obj["name"]
	if !present {
		return "", false
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return string(raw), false
	}
	return name, true
}
