package wire

import (
	"math"

	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Conversions of a skill's summary, resource base and definition.

// policyFromProto converts an invocation policy; a missing one allows
// nobody.
func policyFromProto(p *pb.InvocationPolicy) skill.InvocationPolicy {
	return skill.InvocationPolicy{ModelInvocable: p.GetModelInvocable(), UserInvocable: p.GetUserInvocable()}
}

// A skill's summary is converted in one place each way: setSummary and
// summaryFromProto. A definition carries the same fields flattened
// (SkillDefinition repeats SkillSummary's, by name and number, a test
// checks), and is converted through a SkillSummary, so a field added to
// skill.Summary and both messages is added to these two functions only.

// summaryToProto converts a skill summary.
func summaryToProto(s skill.Summary) *pb.SkillSummary {
	out := &pb.SkillSummary{}
	setSummary(out, &pb.InvocationPolicy{}, s)
	return out
}

// setSummary writes s into out, with its policy in pol, which out then
// points to.
func setSummary(out *pb.SkillSummary, pol *pb.InvocationPolicy, s skill.Summary) {
	pol.ModelInvocable, pol.UserInvocable = s.Invocation.ModelInvocable, s.Invocation.UserInvocable
	out.Name, out.Description, out.Invocation, out.Provider = s.Name, s.Description, pol, s.Provider
	out.Origin, out.QualifiedName, out.ArgumentHint = s.Origin, s.QualifiedName, s.ArgumentHint
	out.OriginKind = originKindToProto(s.OriginKind)
	out.WhenToUse, out.Keywords, out.SearchText = s.WhenToUse, s.Keywords, s.SearchText
	out.Paths = skill.PathPatterns(s.Paths)
	out.ContentDigest = s.ContentDigest
}

// summaryFromProto converts a skill summary.
func summaryFromProto(s *pb.SkillSummary) skill.Summary {
	return skill.Summary{Name: s.GetName(), Description: s.GetDescription(), Invocation: policyFromProto(s.GetInvocation()), Provider: s.GetProvider(),
		Origin: s.GetOrigin(), OriginKind: originKindFromProto(s.GetOriginKind()), QualifiedName: s.GetQualifiedName(), ArgumentHint: s.GetArgumentHint(),
		WhenToUse: s.GetWhenToUse(), Keywords: s.GetKeywords(), SearchText: s.GetSearchText(), Paths: pathsFromProto(s.GetPaths()),
		ContentDigest: s.GetContentDigest()}
}

// pathsFromProto is the skill.Summary.Paths of a summary's patterns: those
// skill.ValidPathPattern accepts, at most skill.MaxPathPatterns, so that a
// pattern holding a line break cannot split into others. A pattern a
// foreign host sends that the parser would have left out is dropped.
func pathsFromProto(patterns []string) string {
	if len(patterns) == 0 {
		return ""
	}
	kept := make([]string, 0, min(len(patterns), skill.MaxPathPatterns))
	for _, p := range patterns {
		if len(kept) < skill.MaxPathPatterns && skill.ValidPathPattern(p) == nil {
			kept = append(kept, p)
		}
	}
	return skill.JoinPaths(kept)
}

// originKindToProto converts an origin's kind. An MCP server's is sent as
// ORIGIN_KIND_UNSPECIFIED, which means the same, so that every message of
// an MCP server's skill or the host's own is what it was before kinds
// existed; any other kind k is sent as k+1 (a website's as
// ORIGIN_KIND_WEBSITE), so a kind neither end defines crosses the wire as
// one the other end does not define either and is refused there.
func originKindToProto(k skill.OriginKind) pb.OriginKind {
	if k == skill.OriginMCPServer {
		return pb.OriginKind_ORIGIN_KIND_UNSPECIFIED
	}
	return pb.OriginKind(int32(k) + 1)
}

// originKindFromProto converts an origin's kind: ORIGIN_KIND_UNSPECIFIED
// (what a host that never sets the kind sends) and ORIGIN_KIND_MCP_SERVER
// are an MCP server, and any other value v is the kind v-1, one that
// skill.OriginKind does not define for a value this protocol does not
// (the largest for a value out of its range), so that the plugin leaves
// out or refuses the skill rather than name its source wrongly.
func originKindFromProto(k pb.OriginKind) skill.OriginKind {
	switch {
	case k == pb.OriginKind_ORIGIN_KIND_UNSPECIFIED:
		return skill.OriginMCPServer
	case k >= 1 && k <= math.MaxUint8+1:
		return skill.OriginKind(k - 1)
	}
	return math.MaxUint8
}

// copyFields sets every populated field of src on the field of dst with
// the same name, if dst has one.
func copyFields(dst, src protoreflect.Message) {
	fields := dst.Descriptor().Fields()
	src.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if f := fields.ByName(fd.Name()); f != nil {
			dst.Set(f, v)
		}
		return true
	})
}

// resourceBaseToProto converts a resource base; nil (the provider manages
// resources) stays nil.
func resourceBaseToProto(rb *skill.ResourceBase) *pb.ResourceBase {
	if rb == nil {
		return nil
	}
	return &pb.ResourceBase{Kind: string(rb.Kind), Path: rb.Path, Url: rb.URL, Description: rb.Description}
}

// resourceBaseFromProto converts a resource base; nil stays nil. The kind
// is not validated here: rendering the tool result does that.
func resourceBaseFromProto(rb *pb.ResourceBase) *skill.ResourceBase {
	if rb == nil {
		return nil
	}
	return &skill.ResourceBase{Kind: skill.ResourceKind(rb.GetKind()), Path: rb.GetPath(), URL: rb.GetUrl(), Description: rb.GetDescription()}
}

// definitionToProto converts a loaded skill: its summary as a summary
// (summaryToProto), then its resource base, content and directives.
func definitionToProto(d skill.Definition) *pb.SkillDefinition {
	out := &pb.SkillDefinition{ResourceBase: resourceBaseToProto(d.ResourceBase), Content: d.Content, Directives: directivesToProto(d.Directives),
		ArgumentNames: d.ArgumentNames}
	copyFields(out.ProtoReflect(), summaryToProto(d.Summary).ProtoReflect())
	return out
}

// definitionFromProto converts a loaded skill.
func definitionFromProto(d *pb.SkillDefinition) skill.Definition {
	var sum pb.SkillSummary
	copyFields(sum.ProtoReflect(), d.ProtoReflect())
	return skill.Definition{
		Summary:      summaryFromProto(&sum),
		ResourceBase: resourceBaseFromProto(d.GetResourceBase()),
		Content:      d.GetContent(),
		Directives:   directivesFromProto(d.GetDirectives()),
		// ArgumentNames are checked where they are used: a name that is
		// not ValidArgumentName binds nothing.
		ArgumentNames: d.GetArgumentNames(),
	}
}
