package wire

import (
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// Conversions of messages, their roles and a step's decision.

// roleToProto converts a message role; a role outside the four known ones
// becomes ROLE_UNSPECIFIED.
func roleToProto(r contract.Role) pb.Role {
	switch r {
	case contract.RoleUser:
		return pb.Role_ROLE_USER
	case contract.RoleAssistant:
		return pb.Role_ROLE_ASSISTANT
	case contract.RoleSystem:
		return pb.Role_ROLE_SYSTEM
	case contract.RoleTool:
		return pb.Role_ROLE_TOOL
	}
	return pb.Role_ROLE_UNSPECIFIED
}

// roleFromProto converts a message role; ROLE_UNSPECIFIED and unknown
// values become "".
func roleFromProto(r pb.Role) contract.Role {
	switch r {
	case pb.Role_ROLE_USER:
		return contract.RoleUser
	case pb.Role_ROLE_ASSISTANT:
		return contract.RoleAssistant
	case pb.Role_ROLE_SYSTEM:
		return contract.RoleSystem
	case pb.Role_ROLE_TOOL:
		return contract.RoleTool
	}
	return ""
}

// messageToProto converts a message; its source bytes are shared, not
// copied.
func messageToProto(m contract.Message) *pb.Message {
	out := &pb.Message{Id: m.ID, Role: roleToProto(m.Role), SourceJson: m.Source, UserInput: m.UserInput}
	if len(m.Content) > 0 {
		out.Content = make([]*pb.ContentBlock, len(m.Content))
		for i, b := range m.Content {
			out.Content[i] = &pb.ContentBlock{Type: b.Type, Text: b.Text, RawJson: b.Raw}
		}
	}
	return out
}

// messageFromProto converts a message.
func messageFromProto(m *pb.Message) contract.Message {
	out := contract.Message{ID: m.GetId(), Role: roleFromProto(m.GetRole()), Source: m.GetSourceJson(), UserInput: m.GetUserInput()}
	if blocks := m.GetContent(); len(blocks) > 0 {
		out.Content = make([]contract.ContentBlock, len(blocks))
		for i, b := range blocks {
			out.Content[i] = contract.ContentBlock{Type: b.GetType(), Text: b.GetText(), Raw: b.GetRawJson()}
		}
	}
	return out
}

func messagesToProto(ms []contract.Message) []*pb.Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]*pb.Message, len(ms))
	for i, m := range ms {
		out[i] = messageToProto(m)
	}
	return out
}

func messagesFromProto(ms []*pb.Message) []contract.Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]contract.Message, len(ms))
	for i, m := range ms {
		out[i] = messageFromProto(m)
	}
	return out
}

// decisionToProto converts a decision: a reject, or an enter with its
// messages.
func decisionToProto(d contract.Decision) *pb.Decision {
	if d.Reject != nil {
		return &pb.Decision{Kind: &pb.Decision_Reject{Reject: &pb.RejectDecision{Reason: d.Reject.Reason}}}
	}
	return &pb.Decision{Kind: &pb.Decision_Enter{Enter: &pb.EnterDecision{Messages: messagesToProto(d.Messages)}}}
}

// decisionFromProto converts a decision; a missing decision enters with no
// messages.
func decisionFromProto(d *pb.Decision) contract.Decision {
	if r := d.GetReject(); r != nil {
		return contract.Decision{Reject: &contract.Reject{Reason: r.GetReason()}}
	}
	return contract.Decision{Messages: messagesFromProto(d.GetEnter().GetMessages())}
}
