package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

func TestMessages(t *testing.T) {
	t.Parallel()
	fromNil(t, "Message", messageFromProto, contract.Message{})
	for name, m := range map[string]contract.Message{"zero": {}, "full": fullMessage} {
		roundTrip(t, "Message/"+name, m, messageToProto, messageFromProto)
	}
	for _, r := range []contract.Role{contract.RoleUser, contract.RoleAssistant, contract.RoleSystem, contract.RoleTool, ""} {
		roundTrip(t, "Role/"+string(r), r, roleToProto, roleFromProto)
	}
	if got := roleToProto("moderator"); got != pb.Role_ROLE_UNSPECIFIED {
		t.Errorf("unknown role = %v, want unspecified", got)
	}
	if got := roleFromProto(pb.Role(99)); got != "" {
		t.Errorf("unknown wire role = %q, want empty", got)
	}
	want := &pb.Message{Id: "m1", Role: pb.Role_ROLE_ASSISTANT, Content: []*pb.ContentBlock{{Type: "text", Text: "hello"}, {Type: "tool_use", RawJson: []byte(`{"type":"tool_use","id":"c1","name":"skill","input":{}}`)}}, SourceJson: []byte(`{"kind":"skill-catalog"}`), UserInput: true}
	if diff := cmp.Diff(want, messageToProto(fullMessage), protocmp.Transform()); diff != "" {
		t.Errorf("messageToProto (-want +got):\n%s", diff)
	}
}

func TestDecisions(t *testing.T) {
	t.Parallel()
	fromNil(t, "Decision", decisionFromProto, contract.Decision{})
	for name, d := range map[string]contract.Decision{
		"zero":                     {},
		"enter":                    {Messages: []contract.Message{fullMessage, {ID: "m2"}}},
		"reject":                   {Reject: &contract.Reject{Reason: "budget"}},
		"reject with empty reason": {Reject: &contract.Reject{}},
	} {
		roundTrip(t, "Decision/"+name, d, decisionToProto, decisionFromProto)
	}
	// A decision with no kind (an older or careless host) enters with
	// nothing.
	if diff := cmp.Diff(contract.Decision{}, decisionFromProto(&pb.Decision{})); diff != "" {
		t.Errorf("kindless decision (-want +got):\n%s", diff)
	}
}
