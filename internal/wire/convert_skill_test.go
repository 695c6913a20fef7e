package wire

import (
	"testing"

	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestSkills(t *testing.T) {
	t.Parallel()
	fromNil(t, "Summary", summaryFromProto, skill.Summary{})
	fromNil(t, "Definition", definitionFromProto, skill.Definition{})
	fromNil(t, "Policy", policyFromProto, skill.InvocationPolicy{})
	fromNil(t, "ResourceBase", resourceBaseFromProto, (*skill.ResourceBase)(nil))
	roundTrip(t, "Summary/zero", skill.Summary{}, summaryToProto, summaryFromProto)
	roundTrip(t, "Summary/full", fullDefinition.Summary, summaryToProto, summaryFromProto)
	roundTrip(t, "Definition/zero", skill.Definition{}, definitionToProto, definitionFromProto)
	roundTrip(t, "Definition/full", fullDefinition, definitionToProto, definitionFromProto)
	for _, rb := range []*skill.ResourceBase{nil, {}, {Kind: skill.ResourceDirectory, Path: "/p"}, {Kind: "zip", Path: "p", URL: "u", Description: "d"}} {
		roundTrip(t, "ResourceBase", rb, resourceBaseToProto, resourceBaseFromProto)
	}
	for _, p := range []skill.InvocationPolicy{{}, {ModelInvocable: true}, {UserInvocable: true}, skill.DefaultPolicy()} {
		roundTrip(t, "Policy", p, func(p skill.InvocationPolicy) *pb.InvocationPolicy {
			return summaryToProto(skill.Summary{Invocation: p}).GetInvocation()
		}, policyFromProto)
	}
}

// TestPathsFromProto: a foreign host's patterns cross as the parser would
// keep them; one that would split into others, or is malformed, is dropped.
func TestPathsFromProto(t *testing.T) {
	t.Parallel()
	got := summaryFromProto(&pb.SkillSummary{Name: "x", Paths: []string{"src/**/*.go", "a\nb", "[bad", "", "*.md"}}).Paths
	if want := "src/**/*.go\n*.md"; got != want {
		t.Errorf("Paths = %q, want %q", got, want)
	}
}
