package wire

import (
	"encoding/json"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestTools(t *testing.T) {
	t.Parallel()
	fromNil(t, "ToolCall", toolCallFromProto, contract.ToolCall{})
	fromNil(t, "ToolResult", toolResultFromProto, contract.ToolResult{})
	fromNil(t, "ToolValue", toolValueFromProto, (*skill.ToolValue)(nil))
	fromNil(t, "ToolDefinition", toolDefinitionFromProto, contract.ToolDefinition{})
	roundTrip(t, "ToolCall/zero", contract.ToolCall{}, toolCallToProto, toolCallFromProto)
	roundTrip(t, "ToolCall/full", contract.ToolCall{MountID: "m", SessionID: "s", Cwd: "/w", AgentScope: "a", CallID: "c1", Arguments: json.RawMessage(`{"name":"pdf"}`)}, toolCallToProto, toolCallFromProto)
	for name, r := range map[string]contract.ToolResult{
		"zero":    {},
		"success": {Value: &fullValue, Text: "<skill_content>", Directives: &fullDirectives},
		"error":   {Text: "Error: x", IsError: true},
	} {
		roundTrip(t, "ToolResult/"+name, r, toolResultToProto, toolResultFromProto)
	}
	if got := toolResultFromProto(&pb.ExecuteSkillToolResponse{IsError: true, Value: toolValueToProto(&fullValue), Directives: directivesToProto(&fullDirectives)}); got.Value != nil || got.Directives != nil {
		t.Error("an error result carried a value or directives")
	}
	for _, v := range []*skill.ToolValue{nil, {}, &fullValue} {
		roundTrip(t, "ToolValue", v, toolValueToProto, toolValueFromProto)
	}
	roundTrip(t, "ToolDefinition/zero", contract.ToolDefinition{}, toolDefinitionToProto, toolDefinitionFromProto)
	roundTrip(t, "ToolDefinition/full", plugin.SkillTool(), toolDefinitionToProto, toolDefinitionFromProto)
}
