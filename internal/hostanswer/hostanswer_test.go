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

// TestMailboxGivesAStepOnlyWhatCameAfterItsMark: notes put before a step
// marked the mailbox are not the step's; the newest put after are, in any
// mix, and taking them leaves them for a step that marked earlier.
func TestMailboxGivesAStepOnlyWhatCameAfterItsMark(t *testing.T) {
	shared, incomplete, degraded := []string{"shared"}, []string{"incomplete"}, []string{"degraded"}
	for _, n := range []Notes{
		{Shared: shared},
		{Incomplete: incomplete},
		{Degraded: degraded},
		{Shared: shared, Incomplete: incomplete, Degraded: degraded},
	} {
		var m Mailbox
		m.Put(Notes{Shared: []string{"left by a tool call"}})
		mark := m.Mark()
		if got := m.Since(mark); !slices.Equal(got.Shared, nil) || got.Incomplete != nil || got.Degraded != nil {
			t.Errorf("before any put since the mark: %+v, want none", got)
		}
		m.Put(Notes{Shared: []string{"older"}})
		m.Put(n)
		if got := m.Since(mark); !slices.Equal(got.Shared, n.Shared) || !slices.Equal(got.Incomplete, n.Incomplete) || !slices.Equal(got.Degraded, n.Degraded) {
			t.Errorf("after putting %+v: %+v", n, got)
		}
		if got := m.Since(mark); !slices.Equal(got.Shared, n.Shared) {
			t.Errorf("a second read: %+v, want %+v again", got, n)
		}
		m.Put(Notes{})
		if got := m.Since(mark); got.Shared != nil || got.Incomplete != nil || got.Degraded != nil {
			t.Errorf("after a snapshot that said nothing: %+v, want none", got)
		}
	}
}
