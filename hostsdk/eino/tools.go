package skilleino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// skillTool is one of the mount's tools (skill, skill_resource) as an Eino
// tool. Its definition never changes for the life of the adapter, so the
// tools part of every request stays byte for byte the same: skill changes
// reach the model as messages, not as a new tool description.
type skillTool struct {
	skills *Skills
	info   *schema.ToolInfo
}

// newTools converts the definitions of the tools the agent's sessions see.
// They depend on the agent's scope, not on the session, so a handle with
// no session id lists them.
func newTools(s *Skills) ([]tool.BaseTool, error) {
	var out []tool.BaseTool
	for _, d := range s.host.Tools(s.opts.AgentScope) {
		params := &jsonschema.Schema{}
		if err := json.Unmarshal(d.InputSchema, params); err != nil {
			return nil, fmt.Errorf("skilleino: the input schema of tool %q: %w", d.Name, err)
		}
		out = append(out, &skillTool{skills: s, info: &schema.ToolInfo{
			Name: d.Name, Desc: d.Description, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(params),
		}})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("skilleino: the agent scope %q sees no tool of the plugin: no mount is in effect there, or its tools are restricted away", s.opts.AgentScope)
	}
	return out, nil
}

func (t *skillTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// InvokableRun runs the call through the plugin. A failure to reach it
// becomes the tool's text, because an error from an Eino tool ends the
// whole Run: the model reads what went wrong and can go on without the
// skill. A closed host (hostsdk.ErrClosed) ends the Run: the agent outlived
// its host.
func (t *skillTool) InvokableRun(ctx context.Context, arguments string, _ ...tool.Option) (string, error) {
	sess, err := t.skills.session(ctx)
	if err != nil {
		return "", err
	}
	res, err := sess.CallTool(ctx, hostsdk.ToolCall{
		CallID: compose.GetToolCallID(ctx), Name: t.info.Name, Arguments: json.RawMessage(arguments),
	})
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, hostsdk.ErrClosed)):
		return "", fmt.Errorf("skilleino: tool %q: %w", t.info.Name, err)
	case err != nil:
		t.skills.opts.Logger.Warn("skill catalog: a tool call failed", "session", sess.ID(), "tool", t.info.Name, "err", err)
		return fmt.Sprintf("Error: the %s tool is unavailable: %v", t.info.Name, err), nil
	}
	return t.skills.skillResult(ctx, res), nil
}
