package modelapi_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestGrantsForTheCaller: with the host's enforced grants, OfferedTools
// leaves out the tools a loaded skill withholds, and Refusal answers a
// call of one with the refusal naming the skill.
func TestGrantsForTheCaller(t *testing.T) {
	ctx := context.Background()
	tree := tools.NewTree()
	reg := skilltest.NewRegistry(t)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(),
		Logger: slog.New(slog.DiscardHandler), ToolGrants: hostsdk.ToolGrantsEnforce})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Register(tools.GlobalScope, tools.Definition{Name: "web_fetch", Description: "Fetches.", InputSchema: []byte(`{"type":"object"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "release", Description: "Cuts a release.", Content: "Cut it.",
		Directives: &skill.Directives{DisallowedTools: []string{"web_fetch"}}}); err != nil {
		t.Fatal(err)
	}
	sess := host.Session("s1", nil)
	visible := tree.Visible(tools.GlobalScope)
	if got := modelapi.OfferedTools(sess, visible); len(got) != len(visible) {
		t.Fatalf("before the skill: %d of %d tools", len(got), len(visible))
	}
	if _, err := sess.CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: []byte(`{"name":"release"}`)}); err != nil {
		t.Fatal(err)
	}
	for _, tl := range modelapi.OfferedTools(sess, visible) {
		if tl.Definition.Name == "web_fetch" {
			t.Error("web_fetch offered while release withholds it")
		}
	}
	res, refused := modelapi.Refusal(sess, hostsdk.ToolCall{CallID: "c1", Name: "web_fetch"})
	if !refused || res.CallID != "c1" || !res.Result.IsError || res.Result.Text != render.GrantRefusal("web_fetch", "release", false) {
		t.Errorf("Refusal = %+v, %v", res, refused)
	}
	if _, refused := modelapi.Refusal(sess, hostsdk.ToolCall{Name: "skill"}); refused {
		t.Error("the skill tool refused")
	}
}
