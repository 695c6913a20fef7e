package hostanswer

import (
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestBoundTextCutsOnACharacterBoundary(t *testing.T) {
	if got := BoundText("héllo wörld", 8); got != "héll..." {
		t.Errorf("BoundText = %q", got)
	}
	in := []string{"abcdefgh", "ab"}
	if got := BoundLines(in, 6); !slices.Equal(got, []string{"abc...", "ab"}) || in[0] != "abcdefgh" {
		t.Errorf("BoundLines = %q, input now %q: want a bounded copy", got, in)
	}
}

func TestFoundWithholdsABodyTheLoadMayNotUse(t *testing.T) {
	def := skill.Definition{Summary: skill.Summary{Name: "x", Invocation: skill.InvocationPolicy{UserInvocable: true}}, Content: "body"}
	if got := Found(def, false); got.Skill.Content != "" {
		t.Errorf("a model load of a model-disabled skill got its body")
	}
	if got := Found(def, true); got.Skill.Content != "body" {
		t.Errorf("a user invocation of a user-invocable skill lost its body")
	}
}

func TestAddNotesInTheHostsOrder(t *testing.T) {
	n := Notes{Shared: []string{"shared"}, Incomplete: []string{"why"}, Degraded: []string{"down"}}
	diags, reasons := AddNotes(contract.StepResponse{Outcome: contract.OutcomeInitial, Reasons: []contract.Reason{{Code: contract.ReasonPublishedInitial}}}, n)
	want := []contract.ReasonCode{contract.ReasonPublishedInitial, contract.ReasonNameCollision, contract.ReasonProviderDegraded}
	var got []contract.ReasonCode
	for _, r := range reasons {
		got = append(got, r.Code)
	}
	if !slices.Equal(got, want) || !slices.Equal(diags, []string{"shared"}) {
		t.Errorf("publishing step: reasons %v, diagnostics %v", got, diags)
	}
	_, reasons = AddNotes(contract.StepResponse{Outcome: contract.OutcomeIncomplete}, n)
	if len(reasons) != 2 || reasons[0].Code != contract.ReasonProviderIncomplete || reasons[0].Detail != "why" {
		t.Errorf("incomplete step: reasons %+v", reasons)
	}
}
