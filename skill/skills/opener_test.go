package skills_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// openerProvider offers one directory skill whose resource base names base,
// and opens opened for the host (or fails with err).
type openerProvider struct {
	base, opened string
	err          error
}

func (p *openerProvider) List(context.Context, skills.ListRequest) (skills.Observation, error) {
	return skills.Observation{Skills: []skill.Summary{{Name: "tools", Description: "Tools.", Invocation: skill.InvocationPolicy{ModelInvocable: true, UserInvocable: true}}}, Complete: true}, nil
}

func (p *openerProvider) Load(context.Context, skills.LoadRequest) (skill.Definition, bool, error) {
	return skill.Definition{
		Summary:      skill.Summary{Name: "tools", Description: "Tools.", Invocation: skill.InvocationPolicy{ModelInvocable: true, UserInvocable: true}},
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: p.base},
		Content:      "Body.",
	}, true, nil
}

func (p *openerProvider) OpenSkillDirectory(_ context.Context, req skills.ResourceRequest) (*os.Root, error) {
	if req.Name != "tools" || req.Path != "notes.txt" {
		return nil, errors.New("unexpected request")
	}
	if p.err != nil {
		return nil, p.err
	}
	return os.OpenRoot(p.opened)
}

// TestReadResourceThroughDirectoryOpener: a directory skill of a provider
// that implements DirectoryOpener is read through the directory the
// provider opens, not by the resource base's path, and the provider's
// refusal is the read's.
func TestReadResourceThroughDirectoryOpener(t *testing.T) {
	base, opened := t.TempDir(), t.TempDir()
	for dir, text := range map[string]string{base: "by path\n", opened: "opened\n"} {
		if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &openerProvider{base: base, opened: opened}
	reg := skilltest.NewRegistry(t)
	reg.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}
	if data, err := reg.ReadResource(t.Context(), q, "tools", "notes.txt"); err != nil || string(data) != "opened\n" {
		t.Errorf("ReadResource = %q, %v; want the opened directory's file", data, err)
	}
	if w, err := reg.ReadResourceWindow(t.Context(), q, "tools", "notes.txt", 0, -1); err != nil || string(w.Data) != "opened\n" {
		t.Errorf("ReadResourceWindow = %q, %v; want the opened directory's file", w.Data, err)
	}
	for _, want := range []error{skills.ErrSkillNotFound, skills.ErrNotModelInvocable} {
		p.err = want
		if _, err := reg.ReadResource(t.Context(), q, "tools", "notes.txt"); !errors.Is(err, want) {
			t.Errorf("provider refuses with %v: ReadResource = %v", want, err)
		}
	}
	p.err = errors.New("disk on fire")
	var le *skills.LoadError
	if _, err := reg.ReadResourceWindow(t.Context(), q, "tools", "notes.txt", 0, -1); !errors.As(err, &le) {
		t.Errorf("provider fails: ReadResourceWindow = %v, want a *LoadError", err)
	}
}
