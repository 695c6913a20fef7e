package wire

import (
	"encoding/json"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Conversions of tool definitions, calls and results.

// toolCallToProto converts a `skill` tool call.
func toolCallToProto(c contract.ToolCall) *pb.ExecuteSkillToolRequest {
	return &pb.ExecuteSkillToolRequest{MountId: c.MountID, SessionId: c.SessionID, Cwd: c.Cwd, AgentScope: c.AgentScope, ArgumentsJson: string(c.Arguments), CallId: c.CallID, ToolName: c.ToolName, SkillToolIdentity: c.SkillToolIdentity,
		SnapshotToken: c.SnapshotToken}
}

// toolCallFromProto converts a `skill` tool call.
func toolCallFromProto(r *pb.ExecuteSkillToolRequest) contract.ToolCall {
	c := contract.ToolCall{MountID: r.GetMountId(), SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), CallID: r.GetCallId(), ToolName: r.GetToolName(), SkillToolIdentity: r.GetSkillToolIdentity(),
		SnapshotToken: r.GetSnapshotToken()}
	if args := r.GetArgumentsJson(); args != "" {
		c.Arguments = []byte(args)
	}
	return c
}

// toolValueToProto converts the tool's value; nil stays nil.
func toolValueToProto(v *skill.ToolValue) *pb.SkillToolValue {
	if v == nil {
		return nil
	}
	return &pb.SkillToolValue{Name: v.Name, Provider: v.Provider, ResourceBase: resourceBaseToProto(v.ResourceBase), Content: v.Content, Origin: v.Origin,
		OriginKind: originKindToProto(v.OriginKind)}
}

// toolValueFromProto converts the tool's value; nil stays nil.
func toolValueFromProto(v *pb.SkillToolValue) *skill.ToolValue {
	if v == nil {
		return nil
	}
	return &skill.ToolValue{Name: v.GetName(), Provider: v.GetProvider(), ResourceBase: resourceBaseFromProto(v.GetResourceBase()), Content: v.GetContent(), Origin: v.GetOrigin(),
		OriginKind: originKindFromProto(v.GetOriginKind())}
}

// toolResultToProto converts a tool result.
func toolResultToProto(r contract.ToolResult) *pb.ExecuteSkillToolResponse {
	return &pb.ExecuteSkillToolResponse{Value: toolValueToProto(r.Value), Text: r.Text, IsError: r.IsError, ResourceValue: resourcePageToProto(r.Resource),
		Directives: directivesToProto(r.Directives), SearchValue: searchResultToProto(r.Search), SourceJson: string(r.Source)}
}

// toolResultFromProto converts a tool result; an error result never
// carries a value or directives.
func toolResultFromProto(r *pb.ExecuteSkillToolResponse) contract.ToolResult {
	out := contract.ToolResult{Text: r.GetText(), IsError: r.GetIsError()}
	if !out.IsError {
		out.Value = toolValueFromProto(r.GetValue())
		out.Resource = resourcePageFromProto(r.GetResourceValue())
		out.Directives = directivesFromProto(r.GetDirectives())
		out.Search = searchResultFromProto(r.GetSearchValue())
		if src := r.GetSourceJson(); src != "" {
			out.Source = json.RawMessage(src)
		}
	}
	return out
}

// searchResultToProto converts the skill-search tool's value; nil stays
// nil.
func searchResultToProto(v *skill.SearchResult) *pb.SkillSearchValue {
	if v == nil {
		return nil
	}
	out := &pb.SkillSearchValue{Query: v.Query, Hits: make([]*pb.SkillSearchHit, len(v.Hits))}
	for i, h := range v.Hits {
		out.Hits[i] = &pb.SkillSearchHit{Name: h.Name, Description: h.Description, Origin: h.Origin, OriginKind: originKindToProto(h.OriginKind), Score: h.Score}
	}
	return out
}

// searchResultFromProto converts the skill-search tool's value; nil stays
// nil.
func searchResultFromProto(v *pb.SkillSearchValue) *skill.SearchResult {
	if v == nil {
		return nil
	}
	out := &skill.SearchResult{Query: v.GetQuery(), Hits: make([]skill.SearchHit, len(v.GetHits()))}
	for i, h := range v.GetHits() {
		out.Hits[i] = skill.SearchHit{Name: h.GetName(), Description: h.GetDescription(), Origin: h.GetOrigin(), OriginKind: originKindFromProto(h.GetOriginKind()), Score: h.GetScore()}
	}
	return out
}

// resourcePageToProto converts the resource-read tool's value; nil stays
// nil.
func resourcePageToProto(p *skill.ResourcePage) *pb.SkillResourceValue {
	if p == nil {
		return nil
	}
	out := &pb.SkillResourceValue{Name: p.Name, Path: p.Path, Offset: toUint64(p.Offset), TotalBytes: toUint64(p.TotalBytes), Content: p.Content}
	if p.NextOffset != nil {
		out.More, out.NextOffset = true, toUint64(*p.NextOffset)
	}
	return out
}

// resourcePageFromProto converts the resource-read tool's value; nil stays
// nil.
func resourcePageFromProto(v *pb.SkillResourceValue) *skill.ResourcePage {
	if v == nil {
		return nil
	}
	p := &skill.ResourcePage{Name: v.GetName(), Path: v.GetPath(), Offset: toInt64(v.GetOffset()), TotalBytes: toInt64(v.GetTotalBytes()), Content: v.GetContent()}
	if v.GetMore() {
		next := toInt64(v.GetNextOffset())
		p.NextOffset = &next
	}
	return p
}

// toolDefinitionToProto converts a tool definition.
func toolDefinitionToProto(d contract.ToolDefinition) *pb.ToolDefinition {
	return &pb.ToolDefinition{Name: d.Name, Description: d.Description, InputSchemaJson: string(d.InputSchema), OutputSchemaJson: string(d.OutputSchema)}
}

// toolDefinitionFromProto converts a tool definition.
func toolDefinitionFromProto(d *pb.ToolDefinition) contract.ToolDefinition {
	out := contract.ToolDefinition{Name: d.GetName(), Description: d.GetDescription()}
	if s := d.GetInputSchemaJson(); s != "" {
		out.InputSchema = []byte(s)
	}
	if s := d.GetOutputSchemaJson(); s != "" {
		out.OutputSchema = []byte(s)
	}
	return out
}
