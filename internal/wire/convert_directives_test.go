package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestDirectives(t *testing.T) {
	t.Parallel()
	fromNil(t, "Directives", directivesFromProto, (*skill.Directives)(nil))
	for _, d := range []*skill.Directives{nil, {}, &fullDirectives,
		{Context: skill.ContextFork, Honoured: skill.AllDirectives}, {Model: "m", Honoured: skill.DirectiveModel}} {
		roundTrip(t, "Directives", d, directivesToProto, directivesFromProto)
	}
	roundTrip(t, "Invocations/none", nil, invocationsToProto, invocationsFromProto)

	// What a newer peer may send and this end does not know reads as
	// nothing to act on: an inline context, no honoured kind.
	got := directivesFromProto(&pb.SkillDirectives{Context: pb.SkillContext(99), Honoured: []pb.DirectiveKind{42, pb.DirectiveKind_DIRECTIVE_KIND_UNSPECIFIED}, Model: "m"})
	if diff := cmp.Diff(&skill.Directives{Model: "m"}, got); diff != "" {
		t.Errorf("unknown enum values (-want +got):\n%s", diff)
	}
	// A context the vocabulary does not define crosses as inline.
	if c := directivesToProto(&skill.Directives{Context: "sideways"}).GetContext(); c != pb.SkillContext_SKILL_CONTEXT_UNSPECIFIED {
		t.Errorf("unknown context crossed as %v", c)
	}
}
