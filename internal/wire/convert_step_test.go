package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

func TestStepRequests(t *testing.T) {
	t.Parallel()
	fromNil(t, "StepRequest", stepRequestFromProto, contract.StepRequest{})
	full := contract.StepRequest{
		MountID: "mount-1", SessionID: "s", Cwd: "/w", AgentScope: "agent:a", Turn: 3, Step: 4,
		Downstream:        contract.Decision{Messages: []contract.Message{fullMessage}},
		SkillToolIdentity: "tooldef-1", SnapshotToken: "tok", Head: &contract.SessionHead{Seq: 9, SurfaceRevision: 2},
		TouchedPaths: []string{"/w/src/app.go", "docs/intro.md"},
	}
	withRecent := full
	withRecent.Recent = &contract.RecentEvents{AfterSeq: 7, Events: []contract.SessionEvent{{Seq: 9, Type: "message", Source: []byte(`{"kind":"x"}`), Visible: true}, {Seq: 8, Type: "message", SourceDigest: contract.SourceDigestOf([]byte(`{"kind":"skill-catalog"}`)), Visible: true}}}
	for name, r := range map[string]contract.StepRequest{
		"zero":               {},
		"full":               full,
		"zero head":          {Head: &contract.SessionHead{}},
		"recent events":      withRecent,
		"no recent events":   {Recent: &contract.RecentEvents{AfterSeq: 3}},
		"recent after start": {Recent: &contract.RecentEvents{}},
	} {
		roundTrip(t, "StepRequest/"+name, r, stepRequestToProto, stepRequestFromProto)
	}
}

func TestStepResponses(t *testing.T) {
	t.Parallel()
	for _, o := range []contract.Outcome{contract.OutcomeRejectPassthrough, contract.OutcomeUnchanged, contract.OutcomeIncomplete, contract.OutcomeInitial, contract.OutcomeReplacement, contract.OutcomeTombstone} {
		p, err := outcomeToProto(o)
		if err != nil {
			t.Fatalf("outcomeToProto(%q): %v", o, err)
		}
		if back, err := outcomeFromProto(p); err != nil || back != o {
			t.Errorf("outcome %q round trip = %q, %v", o, back, err)
		}
	}
	if _, err := outcomeToProto("maybe"); err == nil {
		t.Error("an unknown outcome was sent")
	}
	for _, o := range []pb.Outcome{pb.Outcome_OUTCOME_UNSPECIFIED, pb.Outcome(99)} {
		if _, err := outcomeFromProto(o); err == nil {
			t.Errorf("wire outcome %v was accepted", o)
		}
	}
	if _, err := stepResponseFromProto(nil); err == nil {
		t.Error("a missing response (no outcome) was accepted")
	}

	full := contract.StepResponse{Outcome: contract.OutcomeReplacement, Edits: []contract.Edit{
		{Op: contract.EditRemove, Index: 2},
		{Op: contract.EditReplace, Index: 0, Message: fullMessage},
		{Op: contract.EditAppend, Message: contract.Message{ID: "new"}},
		{Op: contract.EditRemove}, // index 0
	}, Diagnostics: []string{"catalogBudget 100: 2 of 3 catalog descriptions shortened to 5 characters"},
		Reasons: []contract.Reason{
			{Code: contract.ReasonPublishedReplacement, Detail: "published a complete replacement listing 3 skills"},
			{Code: contract.ReasonBudget, Detail: "catalogBudget 100: 2 of 3 catalog descriptions shortened to 5 characters"},
			{Code: "a-code-of-a-newer-plugin"},
		},
		Invocations: []contract.Invocation{fullInvocation, {Name: "plain", MessageID: "m2"}}}
	for name, r := range map[string]contract.StepResponse{"no edits": {Outcome: contract.OutcomeUnchanged}, "full": full} {
		p, err := stepResponseToProto(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := stepResponseFromProto(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(r, back); diff != "" {
			t.Errorf("StepResponse/%s round trip (-want +got):\n%s", name, diff)
		}
	}
	if _, err := stepResponseToProto(contract.StepResponse{Outcome: contract.OutcomeUnchanged, Edits: []contract.Edit{{}}}); err == nil {
		t.Error("an edit without an operation was sent")
	}
	if _, err := stepResponseFromProto(&pb.PreStepResponse{Outcome: pb.Outcome_OUTCOME_UNCHANGED, Edits: []*pb.MessageEdit{{}}}); err == nil {
		t.Error("an empty wire edit was accepted")
	}
	if _, err := editFromProto(nil); err == nil {
		t.Error("a nil wire edit was accepted")
	}
}
