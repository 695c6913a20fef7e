package skillserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/swaptest"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// TestSwappedSkillDirectoryLeadsNowhere: a skill's directory exchanged
// again and again with a link to a private directory (renameat2
// RENAME_EXCHANGE) never makes the server list, read or show a private
// file, however the exchanges fall between checking the skill's SKILL.md
// and reading its files: the private directory holds no SKILL.md, so it is
// never a skill.
func TestSwappedSkillDirectoryLeadsNowhere(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "pdf/SKILL.md", "---\nname: pdf\ndescription: Read PDFs.\n---\nSee notes.txt.\n")
	writeFile(t, root, "pdf/notes.txt", "public notes\n")
	private := t.TempDir()
	writeFile(t, private, "notes.txt", "PRIVATE notes\n")
	writeFile(t, private, "private-only.txt", "PRIVATE only\n")
	if err := os.Symlink(private, filepath.Join(root, ".swap")); err != nil {
		t.Fatal(err)
	}
	cs := connectRev(t, skillserver.NewDir(root), "memory", rev2025, nil)
	stop := swaptest.Exchange(t, filepath.Join(root, "pdf"), filepath.Join(root, ".swap"), 10*time.Microsecond)

	const reads = 2000
	leaks, served := 0, 0
	for i := range reads {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://pdf/notes.txt"})
		if err == nil {
			served++
			if text := res.Contents[0].Text; text != "public notes\n" {
				leaks++
				if leaks == 1 {
					t.Errorf("read skill://pdf/notes.txt = %q", text)
				}
			}
		}
		if i%20 != 0 {
			continue
		}
		skills, _ := listAll(t, cs)
		for _, sk := range skills {
			for _, r := range resources(t, sk) {
				if strings.Contains(r.URI, "private-only") || (strings.HasSuffix(r.URI, "/notes.txt") && r.Size != int64(len("public notes\n"))) {
					t.Errorf("skills/list lists a private file: %+v", r)
				}
			}
		}
		if dir, err := readDir(cs, "skill://pdf", ""); err == nil {
			for _, r := range dir.Resources {
				if r.Name == "private-only.txt" {
					t.Errorf("resources/directory/read skill://pdf lists %s", r.URI)
				}
			}
		}
	}
	stop()
	if leaks > 0 {
		t.Errorf("%d of %d reads of skill://pdf/notes.txt returned the private file", leaks, reads)
	}
	t.Logf("%d reads: %d served the skill's file, %d the private one", reads, served, leaks)
}
