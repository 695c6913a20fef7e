package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

func TestMountMessages(t *testing.T) {
	t.Parallel()
	req, id := configureRequestFromProto(nil)
	if req != (contract.ConfigureRequest{}) || id != 0 {
		t.Errorf("ConfigureRequest from nil = %+v, %d", req, id)
	}
	for _, r := range []contract.ConfigureRequest{{}, {Config: `{"catalogDescriptionMaxLength": 9}`, Scope: "agent:a", Discovery: `{"skillRoots":["/srv/skills"]}`}} {
		got, gotID := configureRequestFromProto(configureRequestToProto(r, 7))
		if got != r || gotID != 7 {
			t.Errorf("ConfigureRequest round trip = %+v, %d; want %+v, 7", got, gotID, r)
		}
	}
	fromNil(t, "ConfigureResponse", configureResponseFromProto, contract.ConfigureResponse{})
	for _, r := range []contract.ConfigureResponse{{}, {MountID: "mount-1", Tools: []contract.ToolDefinition{plugin.SkillTool(), {Name: "other"}}, AcceptsSourceDigests: true, DiscoversSkills: true}} {
		roundTrip(t, "ConfigureResponse", r, configureResponseToProto, configureResponseFromProto)
	}
	mount, bindings := bindToolsFromProto(nil)
	if mount != "" || bindings != nil {
		t.Errorf("BindTools from nil = %q, %v", mount, bindings)
	}
	for _, b := range [][]contract.ToolBinding{nil, {{ToolName: "skill", DefinitionIdentity: "tooldef-1"}, {}}} {
		gotMount, got := bindToolsFromProto(bindToolsToProto("mount-1", b))
		if gotMount != "mount-1" || !cmp.Equal(got, b) {
			t.Errorf("BindTools round trip = %q, %+v; want mount-1, %+v", gotMount, got, b)
		}
	}
}
