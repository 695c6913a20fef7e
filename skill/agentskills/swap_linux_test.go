package agentskills

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/swaptest"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestSwappedSkillDirectoryServesNoPrivateFile: a skill's directory
// exchanged again and again with a link to a private directory (renameat2
// RENAME_EXCHANGE) never lets the host's resource read (the skill_resource
// tool's) return a private file, however the exchanges fall between
// loading the skill's SKILL.md and reading the file: the private directory
// holds no SKILL.md, so it is never the skill.
func TestSwappedSkillDirectoryServesNoPrivateFile(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	private := filepath.Join(base, "private")
	for _, dir := range []string{filepath.Join(root, "pdf"), private} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(root, "pdf", skillFileName), "---\nname: pdf\ndescription: Read PDFs.\n---\nSee notes.txt.\n")
	writeFile(t, filepath.Join(root, "pdf", "notes.txt"), "public notes\n")
	writeFile(t, filepath.Join(private, "notes.txt"), "PRIVATE notes\n")
	link := filepath.Join(base, "link")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	p, err := New(&Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	reg := skilltest.NewRegistry(t)
	reg.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}
	stop := swaptest.Exchange(t, filepath.Join(root, "pdf"), link, 10*time.Microsecond)

	const reads = 4000
	leaks, served := 0, 0
	for i := range reads {
		var data []byte
		var err error
		if i%2 == 0 {
			data, err = reg.ReadResource(context.Background(), q, "pdf", "notes.txt")
		} else {
			var w skills.ResourceWindow
			w, err = reg.ReadResourceWindow(context.Background(), q, "pdf", "notes.txt", 0, -1)
			data = w.Data
		}
		if err != nil {
			continue
		}
		served++
		if string(data) != "public notes\n" {
			leaks++
			if leaks == 1 {
				t.Errorf("read pdf/notes.txt = %q", data)
			}
		}
	}
	stop()
	if leaks > 0 {
		t.Errorf("%d of %d reads of pdf/notes.txt returned the private file", leaks, reads)
	}
	t.Logf("%d reads: %d served the skill's file, %d the private one", reads, served, leaks)
}
