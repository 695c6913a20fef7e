package agentskills

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestHostReadsThroughTheSkillDirectory: the host reads a skill's files
// through the directory the provider opened (skills.DirectoryOpener): a
// skill directory that is a link, and one whose SKILL.md is a link out of
// it, are read as before; a directory whose SKILL.md is gone or declares
// another skill serves nothing; a skill kept from the model is refused.
func TestHostReadsThroughTheSkillDirectory(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	external := filepath.Join(base, "external")
	writeSkill(t, filepath.Join(external, "linked-target"), "linked", "Linked.", "Body.")
	writeFile(t, filepath.Join(external, "linked-target", "notes.txt"), "linked notes\n")
	writeSkill(t, filepath.Join(root, "plain"), "plain", "Plain.", "Body.")
	writeFile(t, filepath.Join(root, "plain", "notes.txt"), "plain notes\n")
	symlink(t, filepath.Join("..", "external", "linked-target"), filepath.Join(root, "linked"))
	writeSkill(t, external, "file-linked", "Its SKILL.md is a link.", "Body.")
	mkdirAll(t, filepath.Join(root, "file-linked"))
	symlink(t, filepath.Join(external, skillFileName), filepath.Join(root, "file-linked", skillFileName))
	writeFile(t, filepath.Join(root, "file-linked", "notes.txt"), "file-linked notes\n")

	p, err := New(&Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	reg := skilltest.NewRegistry(t)
	reg.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}
	for name, want := range map[string]string{"plain": "plain notes\n", "linked": "linked notes\n", "file-linked": "file-linked notes\n"} {
		if data, err := reg.ReadResource(t.Context(), q, name, "notes.txt"); err != nil || string(data) != want {
			t.Errorf("%s: ReadResource = %q, %v; want %q", name, data, err, want)
		}
		if w, err := reg.ReadResourceWindow(t.Context(), q, name, "notes.txt", 0, -1); err != nil || string(w.Data) != want {
			t.Errorf("%s: ReadResourceWindow = %q, %v; want %q", name, w.Data, err, want)
		}
	}

	// What the SKILL.md says now decides, not what the listing said.
	for _, tc := range []struct {
		content string
		want    error
	}{
		{"---\nname: other\ndescription: Another skill.\n---\n", skills.ErrSkillNotFound},
		{"---\nname: plain\ndescription: Plain.\ndisable-model-invocation: true\n---\n", skills.ErrNotModelInvocable},
	} {
		writeFile(t, filepath.Join(root, "plain", skillFileName), tc.content)
		root, err := p.OpenSkillDirectory(t.Context(), skills.ResourceRequest{SessionID: "s1", Name: "plain", Path: "notes.txt"})
		if err == nil {
			root.Close()
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("SKILL.md %q: OpenSkillDirectory = %v, want %v", tc.content, err, tc.want)
		}
	}
	if err := os.Remove(filepath.Join(root, "plain", skillFileName)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.OpenSkillDirectory(t.Context(), skills.ResourceRequest{SessionID: "s1", Name: "plain", Path: "notes.txt"}); !errors.Is(err, skills.ErrSkillNotFound) {
		t.Errorf("SKILL.md removed: OpenSkillDirectory = %v, want ErrSkillNotFound", err)
	}
}
