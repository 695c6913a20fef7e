package hostanswer

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// onlyView sees the skills named in it, under a token of its own.
type onlyView []string

func (v onlyView) Whole() bool              { return len(v) == 0 }
func (v onlyView) Token(base string) string { return "only:" + base }
func (v onlyView) Filter(sums []skill.Summary) []skill.Summary {
	var out []skill.Summary
	for _, s := range sums {
		if slices.Contains(v, s.Name) {
			out = append(out, s)
		}
	}
	return out
}
func (v onlyView) RefusesName(name string) bool      { return !slices.Contains(v, name) }
func (v onlyView) Allows(name, provider string) bool { return slices.Contains(v, name) }

// mapSent is a Sent that keeps everything.
type mapSent map[string][]skill.Summary

func (m mapSent) Get(token string) ([]skill.Summary, bool) { s, ok := m[token]; return s, ok }
func (m mapSent) Add(token string, s []skill.Summary)      { m[token] = s }

func newAnswerer(t *testing.T, sent Sent) (*Answerer, *skills.Registry) {
	t.Helper()
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []skills.RuntimeSkill{
		{Name: "pdf-forms", Description: "Fill PDF forms.", Content: "Use the form tool."},
		{Name: "git-flow", Description: "Branch with git.", Content: "Branch first."},
	} {
		if err := reg.Register("global", s); err != nil {
			t.Fatal(err)
		}
	}
	chain := func(scope string) ([]string, error) {
		if scope != "" {
			return nil, errors.New("unknown scope")
		}
		return []string{"global"}, nil
	}
	return New(reg, chain, sent), reg
}

func names(sums []skill.Summary) []string {
	var out []string
	for _, s := range sums {
		out = append(out, s.Name)
	}
	return out
}

// TestAnswererSnapshotViewsAndDeltas: a view narrows the snapshot under a
// token of its own; a plugin holding a sent snapshot gets what changed
// since; the current token is not modified; a relative working directory
// and an unknown scope are refused before the registry is asked.
func TestAnswererSnapshotViewsAndDeltas(t *testing.T) {
	ctx := context.Background()
	a, reg := newAnswerer(t, mapSent{})
	whole, _, err := a.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", Cwd: "/w"}, nil)
	if err != nil || !whole.Complete || !slices.Equal(names(whole.Skills), []string{"git-flow", "pdf-forms"}) {
		t.Fatalf("whole snapshot = %+v, %v", whole, err)
	}
	only, _, err := a.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", Cwd: "/w"}, onlyView{"pdf-forms"})
	if err != nil || only.Token != "only:"+whole.Token || !slices.Equal(names(only.Skills), []string{"pdf-forms"}) {
		t.Fatalf("viewed snapshot = %+v, %v", only, err)
	}
	same, _, _ := a.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", Cwd: "/w", IfNoneMatch: whole.Token, AcceptDelta: true}, nil)
	if !same.NotModified || same.Token != whole.Token {
		t.Errorf("the current token: %+v, want not modified", same)
	}
	if err := reg.Register("global", skills.RuntimeSkill{Name: "zip-files", Description: "Zip files.", Content: "Zip."}); err != nil {
		t.Fatal(err)
	}
	delta, _, err := a.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", Cwd: "/w", IfNoneMatch: whole.Token, AcceptDelta: true}, nil)
	if err != nil || delta.DeltaBase != whole.Token || !slices.Equal(names(delta.Skills), []string{"zip-files"}) || len(delta.Removed) != 0 {
		t.Errorf("after a skill was added: %+v, %v; want a delta adding zip-files", delta, err)
	}
	if _, _, err := a.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", Cwd: "relative"}, nil); !errors.Is(err, ErrRelativeCwd) {
		t.Errorf("a relative working directory: %v, want ErrRelativeCwd", err)
	}
	if _, _, err := a.Snapshot(ctx, contract.SnapshotRequest{SessionID: "s", Cwd: "/w", AgentScope: "agent:x"}, nil); err == nil {
		t.Error("an unknown scope: no error")
	}
}

// TestAnswererGetSkillThroughAView: a skill the view leaves out is not
// found; one it keeps is, with its body; without a view every skill is.
func TestAnswererGetSkillThroughAView(t *testing.T) {
	ctx := context.Background()
	a, _ := newAnswerer(t, nil)
	for _, tt := range []struct {
		name  string
		view  View
		found bool
	}{
		{"git-flow", nil, true},
		{"git-flow", onlyView{"pdf-forms"}, false},
		{"pdf-forms", onlyView{"pdf-forms"}, true},
		{"missing", nil, false},
	} {
		look, err := a.GetSkill(ctx, contract.SkillRequest{SessionID: "s", Cwd: "/w", Name: tt.name}, tt.view)
		if err != nil || look.Found != tt.found || (tt.found && look.Skill.Content == "") {
			t.Errorf("GetSkill(%s, %v) = %+v, %v; want found %v with its body", tt.name, tt.view, look, err, tt.found)
		}
	}
	read, err := a.ReadResource(ctx, contract.ResourceRequest{SessionID: "s", Cwd: "/w", Name: "git-flow", Path: "x.md", MaxBytes: 10})
	if err != nil || read.Status == contract.ResourceOK {
		t.Errorf("a runtime skill's missing file: %+v, %v; want an answer that is not ok", read, err)
	}
}
