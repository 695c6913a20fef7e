package wire

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestInvalidTextNamesTheField: a request gRPC cannot send because of a
// string that is not UTF-8 is explained as the host's failure, naming the
// proposed message when it is one, and the field's path otherwise; a
// request whose strings are all valid is not explained at all.
func TestInvalidTextNamesTheField(t *testing.T) {
	msg := func(id, text string) contract.Message {
		return contract.Message{ID: id, Role: contract.RoleUser, Content: []contract.ContentBlock{{Type: "text", Text: text}}}
	}
	step := func(mut func(*contract.StepRequest)) contract.StepRequest {
		r := contract.StepRequest{MountID: "m", SessionID: "s1", Cwd: "/w", AgentScope: "global",
			Downstream: contract.Decision{Messages: []contract.Message{msg("u1", "héllo")}},
			Snapshot:   &contract.Snapshot{Complete: true, Skills: []skill.Summary{{Name: "a", Description: "Does a ✓."}}}}
		mut(&r)
		return r
	}
	tests := []struct {
		name string
		req  contract.StepRequest
		want string // "" for no explanation
	}{
		{"all valid", step(func(*contract.StepRequest) {}), ""},
		{"a proposed message", step(func(r *contract.StepRequest) {
			r.Downstream.Messages = append(r.Downstream.Messages, msg("u2", "ol\xe1"))
		}),
			`PreStep request: message "u2": content block 0's text is not valid UTF-8 (byte 2 starts no UTF-8 sequence)`},
		{"the session id", step(func(r *contract.StepRequest) { r.SessionID = "s\xff" }),
			`PreStep request: field session_id is not valid UTF-8 (byte 1 starts no UTF-8 sequence)`},
		{"an inlined snapshot's description", step(func(r *contract.StepRequest) { r.Snapshot.Skills[0].Description = "x\xc3" }),
			`PreStep request: field snapshot.skills[0].description is not valid UTF-8 (byte 1 starts no UTF-8 sequence)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := stepRequestToProto(tt.req)
			_, marshalErr := proto.Marshal(in)
			err := invalidText("PreStep request", in, tt.req.Downstream.Messages)
			if tt.want == "" {
				if err != nil || marshalErr != nil {
					t.Fatalf("invalidText = %v (marshal: %v), want nil", err, marshalErr)
				}
				return
			}
			if marshalErr == nil {
				t.Fatal("the request marshals: the case tests nothing")
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, contract.ErrHostFailed) || !errors.Is(err, skill.ErrInvalidUTF8) {
				t.Fatalf("invalidText = %v, want %q matching ErrHostFailed and ErrInvalidUTF8", err, tt.want)
			}
		})
	}
}

// TestInvalidUTF8PathInListsAndMaps walks repeated and map fields.
func TestInvalidUTF8PathInListsAndMaps(t *testing.T) {
	v, err := structpb.NewStruct(map[string]any{"ok": "fine", "list": []any{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if path, _ := invalidUTF8Path(v.ProtoReflect()); path != "" {
		t.Fatalf("valid struct: path %q", path)
	}
	v.Fields["list"].GetListValue().Values[1] = structpb.NewStringValue("b\xff")
	if path, text := invalidUTF8Path(v.ProtoReflect()); path != "fields[list].list_value.values[1].string_value" || text != "b\xff" {
		t.Errorf("path %q, text %q", path, text)
	}
	delete(v.Fields, "list")
	v.Fields["k\xfe"] = structpb.NewBoolValue(true)
	if path, _ := invalidUTF8Path(v.ProtoReflect()); !strings.HasPrefix(path, "fields (a key)") {
		t.Errorf("path %q, want the map's key", path)
	}
}
