package wire

import (
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
	roundTrip(t, "ToolCall/full", fullToolCall, toolCallToProto, toolCallFromProto)
	for name, r := range map[string]contract.ToolResult{
		"zero":    {},
		"success": {Value: &fullValue, Text: "<skill_content>", Directives: &fullDirectives},
		"error":   {Text: "Error: x", IsError: true},
		"search":  {Search: &fullSearch, Text: "<skill_search_results>"},
		"no hits": {Search: &skill.SearchResult{Query: "q", Hits: []skill.SearchHit{}}, Text: "<skill_search_results>"},
	} {
		roundTrip(t, "ToolResult/"+name, r, toolResultToProto, toolResultFromProto)
	}
	if got := toolResultFromProto(&pb.ExecuteSkillToolResponse{IsError: true, Value: toolValueToProto(&fullValue), Directives: directivesToProto(&fullDirectives),
		SearchValue: searchResultToProto(&fullSearch)}); got.Value != nil || got.Directives != nil || got.Search != nil {
		t.Error("an error result carried a value, directives or search hits")
	}
	for _, v := range []*skill.ToolValue{nil, {}, &fullValue} {
		roundTrip(t, "ToolValue", v, toolValueToProto, toolValueFromProto)
	}
	roundTrip(t, "ToolDefinition/zero", contract.ToolDefinition{}, toolDefinitionToProto, toolDefinitionFromProto)
	roundTrip(t, "ToolDefinition/full", plugin.SkillTool(), toolDefinitionToProto, toolDefinitionFromProto)
}
