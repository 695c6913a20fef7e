//go:build !unix

package skillserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// openRootTree opens the skill directory at skillPath below the skills
// directory dir as a tree whose paths are resolved relative to the opened
// directory, so that no link leads outside; the skill's SKILL.md and files
// are all read through it. A link that is the skill path's first segment
// is followed, as discovery follows it. Without openat, a SKILL.md that is
// a link out of its directory is not served on this platform.
func openRootTree(dir, skillPath string) (*skillTree, error) {
	first, rest, _ := strings.Cut(skillPath, "/")
	root, err := os.OpenRoot(filepath.Join(dir, first))
	if err != nil {
		return nil, err
	}
	if rest != "" {
		nested, err := root.OpenRoot(filepath.FromSlash(rest))
		root.Close()
		if err != nil {
			return nil, err
		}
		root = nested
	}
	return &skillTree{
		fsys:      root.FS(),
		open:      func(rel string) (fs.File, error) { return root.Open(filepath.FromSlash(rel)) },
		openSkill: func() (fs.File, error) { return root.Open(skillFileName) },
		statSkill: func() (fs.FileInfo, error) { return root.Stat(skillFileName) },
		close:     func() { root.Close() },
	}, nil
}
