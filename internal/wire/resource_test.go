package wire

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// resourceTestHost adds resource reads to testHost.
type resourceTestHost struct {
	*testHost
	asked []contract.ResourceRequest
}

func (h *resourceTestHost) ReadResource(_ context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	h.asked = append(h.asked, req)
	const file = "print('a')\n"
	if req.Path != "scripts/a.py" {
		return contract.ResourceRead{Status: contract.ResourceNotFound}, nil
	}
	return contract.ResourceRead{Status: contract.ResourceOK, Data: []byte(file[req.Offset:]), Total: int64(len(file))}, nil
}

// TestGRPCResourceTool: the tool name, the ReadResource callback and the
// page value cross the wire; a host without the callback makes the tool
// answer that resources are not readable.
func TestGRPCResourceTool(t *testing.T) {
	ctx := context.Background()
	host := &resourceTestHost{testHost: newTestHost()}
	c, served := connect(t, plugin.New(nil), host)
	m := mountBound(t, c, served, `{"resourceTool": true}`, "tooldef-1")
	if len(m.Tools) != 2 || m.Tools[1].Name != "skill_resource" || !json.Valid(m.Tools[1].InputSchema) || !json.Valid(m.Tools[1].OutputSchema) {
		t.Fatalf("tools = %+v", m.Tools)
	}
	res, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID, ToolName: "skill_resource", SkillToolIdentity: "tooldef-1", SessionID: "s1", Cwd: "/w", AgentScope: "agent:a", Arguments: json.RawMessage(`{"name":"alpha","path":"scripts/a.py","offset":6}`)})
	if err != nil || res.IsError || res.Value != nil {
		t.Fatalf("read = %+v, %v", res, err)
	}
	want := &skill.ResourcePage{Name: "alpha", Path: "scripts/a.py", Offset: 6, TotalBytes: 11, Content: "'a')\n"}
	if d := cmp.Diff(want, res.Resource); d != "" {
		t.Errorf("page (-want +got):\n%s", d)
	}
	wantReq := contract.ResourceRequest{SessionID: "s1", Cwd: "/w", AgentScope: "agent:a", Name: "alpha", Path: "scripts/a.py", Offset: 6, MaxBytes: 8195}
	if len(host.asked) != 1 || host.asked[0] != wantReq {
		t.Errorf("host asked %+v, want %+v", host.asked, wantReq)
	}
	res, err = c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID, ToolName: "skill_resource", SkillToolIdentity: "tooldef-1", Arguments: json.RawMessage(`{"name":"alpha","path":"b.md"}`)})
	if err != nil || res.Text != `Error: resource "b.md" of skill "alpha" was not found` {
		t.Errorf("missing = %q, %v", res.Text, err)
	}
	// The identity `skill` resolves to crosses the wire: an agent whose
	// `skill` is another definition reads no resources.
	res, err = c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID, ToolName: "skill_resource", SkillToolIdentity: "tooldef-other", Arguments: json.RawMessage(`{"name":"alpha","path":"scripts/a.py"}`)})
	if err != nil || !res.IsError || res.Text != string(render.ResourceToolWithoutSkill()) || len(host.asked) != 2 {
		t.Errorf("without the skill tool = %+v, %v (host asked %d times)", res, err, len(host.asked))
	}

	// A page with more to come keeps its next offset.
	p := skill.ResourcePage{Name: "a", Path: "p", Offset: 1, TotalBytes: 9000, Content: "x"}
	next := int64(8193)
	p.NextOffset = &next
	if d := cmp.Diff(&p, resourcePageFromProto(resourcePageToProto(&p))); d != "" {
		t.Errorf("page round trip (-want +got):\n%s", d)
	}

	// A host that does not serve ReadResource.
	plain := newTestHost()
	c2, served2 := connect(t, plugin.New(nil), plain)
	m2 := mountBound(t, c2, served2, `{"resourceTool": true}`, "tooldef-1")
	res, err = c2.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m2.MountID, ToolName: "skill_resource", SkillToolIdentity: "tooldef-1", Arguments: json.RawMessage(`{"name":"alpha","path":"scripts/a.py"}`)})
	if err != nil || res.Text != "Error: the resources of skill \"alpha\" are not readable through the skill_resource tool; load them as the skill's resource guidance describes" {
		t.Errorf("host without reads = %q, %v", res.Text, err)
	}
}

func TestResourceStatusRoundTrip(t *testing.T) {
	t.Parallel()
	for st := range resourceStatuses {
		in := contract.ResourceRead{Status: st, Data: []byte("d"), Total: 7, Error: "e"}
		if got := resourceReadFromProto(resourceReadToProto(in)); got.Status != st || got.Total != 7 || string(got.Data) != "d" || got.Error != "e" {
			t.Errorf("%s: round trip %+v", st, got)
		}
	}
	if got := resourceReadFromProto(resourceReadToProto(contract.ResourceRead{Status: "weird"})); got.Status == contract.ResourceOK {
		t.Errorf("an unknown status became ok")
	}
}
