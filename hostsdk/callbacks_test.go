package hostsdk

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestSnapshotDeltas: the host answers a plugin that holds an earlier
// snapshot with what changed since, and anything else with the whole
// snapshot.
func TestSnapshotDeltas(t *testing.T) {
	reg := skilltest.NewRegistry(t)
	register := func(i int, desc string) {
		t.Helper()
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: fmt.Sprintf("skill-%02d", i), Description: desc}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 20; i++ {
		register(i, fmt.Sprintf("Skill %d.", i))
	}
	h, err := New(&Options{Tools: tools.NewTree(), Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	c := hostCallbacks{h}
	ctx := context.Background()
	ask := func(ifNoneMatch string, acceptDelta bool) contract.Snapshot {
		t.Helper()
		snap, err := c.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", AgentScope: tools.GlobalScope, IfNoneMatch: ifNoneMatch, AcceptDelta: acceptDelta})
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}

	first := ask("", true)
	if first.DeltaBase != "" || len(first.Skills) != 20 || !first.Complete {
		t.Fatalf("first snapshot: %d skills, delta base %q", len(first.Skills), first.DeltaBase)
	}
	if again := ask(first.Token, true); !again.NotModified {
		t.Fatalf("unchanged snapshot not answered as not modified: %+v", again)
	}

	register(3, "Changed.")
	if !reg.Unregister(tools.GlobalScope, "skill-07") {
		t.Fatal("unregister failed")
	}
	delta := ask(first.Token, true)
	want := []skill.Summary{{Name: "skill-03", Description: "Changed.", Invocation: skill.DefaultPolicy(), Provider: skills.RuntimeProvider}}
	if delta.DeltaBase != first.Token || !delta.Complete || delta.Token == first.Token {
		t.Fatalf("delta: base %q token %q complete %v", delta.DeltaBase, delta.Token, delta.Complete)
	}
	if diff := cmp.Diff(want, delta.Skills); diff != "" {
		t.Errorf("delta skills (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"skill-07"}, delta.Removed); diff != "" {
		t.Errorf("delta removed (-want +got):\n%s", diff)
	}

	// The whole snapshot, when the plugin cannot take a delta or holds a
	// snapshot the host does not remember.
	for name, snap := range map[string]contract.Snapshot{
		"no delta asked": ask(first.Token, false),
		"unknown base":   ask("tok-unknown", true),
	} {
		if snap.DeltaBase != "" || len(snap.Skills) != 19 || snap.Removed != nil {
			t.Errorf("%s: %d skills, delta base %q, removed %v", name, len(snap.Skills), snap.DeltaBase, snap.Removed)
		}
	}

	// Most skills changed: the delta is not worth it.
	for i := 0; i < 20; i++ {
		register(i, "All new.")
	}
	if whole := ask(delta.Token, true); whole.DeltaBase != "" || len(whole.Skills) != 20 {
		t.Errorf("a change to every skill was sent as a delta of %d", len(whole.Skills))
	}
}

// TestGetSkillSendsOnlyUsableBodies: a definition's body and resource base
// leave the host only for a load that may use them: the model's, of a
// model-invocable skill; a user invocation's, of a user-invocable one.
func TestGetSkillSendsOnlyUsableBodies(t *testing.T) {
	reg := skilltest.NewRegistry(t)
	policies := map[string]skill.InvocationPolicy{
		"both":    skill.DefaultPolicy(),
		"model":   {ModelInvocable: true},
		"user":    {UserInvocable: true},
		"neither": {},
	}
	for name, pol := range policies {
		if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: name, Description: "D.", Invocation: &pol, Content: "Body.",
			ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/s"}}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(&Options{Tools: tools.NewTree(), Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tests := []struct {
		name           string
		userInvocation bool
		wantBody       bool
	}{
		{"both", false, true},
		{"both", true, true},
		{"model", false, true},
		{"model", true, true}, // the plugin refuses it on the policy
		{"user", false, false},
		{"user", true, true},
		{"neither", false, false},
		{"neither", true, false},
	}
	for _, tt := range tests {
		got, err := hostCallbacks{h}.GetSkill(context.Background(), contract.SkillRequest{SessionID: "s", AgentScope: tools.GlobalScope, Name: tt.name, UserInvocation: tt.userInvocation})
		if err != nil || !got.Found {
			t.Fatalf("GetSkill(%s): %+v, %v", tt.name, got, err)
		}
		if hasBody := got.Skill.Content != "" && got.Skill.ResourceBase != nil; hasBody != tt.wantBody {
			t.Errorf("GetSkill(%s, user invocation %v): body sent %v, want %v", tt.name, tt.userInvocation, hasBody, tt.wantBody)
		}
		if got.Skill.Invocation != policies[tt.name] {
			t.Errorf("GetSkill(%s): policy %+v, want %+v", tt.name, got.Skill.Invocation, policies[tt.name])
		}
	}
}
