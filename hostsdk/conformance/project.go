package conformance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// projectVar starts a step's cwd or touched path that lies in the
// scenario's project: it stands for the directory the project was copied
// to.
const projectVar = "$PROJECT"

// projectSpec is a project on disk whose skills a real disk provider
// (skill/agentskills) finds: a tree copied, with an empty .git marking
// its root, into the scenario's temporary directory.
type projectSpec struct {
	// Tree is the directory copied, relative to the scenario file.
	Tree string `yaml:"tree"`
	// Untrusted leaves the project untrusted: its skills do not load.
	Untrusted bool `yaml:"untrusted"`
	// Presets are the provider's presets (agentskills.Preset).
	Presets []string `yaml:"presets"`
	Pos     position `yaml:"-"`
}

// project checks the scenario's project and resolves its tree against the
// scenario file's directory.
func (c *checker) project() error {
	p := c.s.Project
	if p == nil {
		return nil
	}
	if p.Tree == "" {
		return c.errorf(p.Pos, "project: tree is required (a directory relative to the scenario file)")
	}
	p.Tree = filepath.Join(filepath.Dir(c.s.File), filepath.FromSlash(p.Tree))
	if fi, err := os.Stat(p.Tree); err != nil || !fi.IsDir() {
		return c.errorf(p.Pos, "project: tree %s is not a directory", p.Tree)
	}
	for _, name := range p.Presets {
		if !slices.Contains(agentskills.Presets(), agentskills.Preset(name)) {
			return c.errorf(p.Pos, "project: preset %q is not one of %q", name, agentskills.Presets())
		}
	}
	return nil
}

// startProject copies the project's tree below dir, marks its root with
// .git, and attaches a disk provider for it to the global scope, with a
// home directory of its own that holds nothing.
func (e *env) startProject(dir string) error {
	spec := e.s.Project
	if spec == nil {
		return nil
	}
	root := filepath.Join(dir, "project")
	if err := os.CopyFS(root, os.DirFS(spec.Tree)); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		return err
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		return err
	}
	presets := make([]agentskills.Preset, len(spec.Presets))
	for i, p := range spec.Presets {
		presets[i] = agentskills.Preset(p)
	}
	trusted := !spec.Untrusted
	p, err := agentskills.New(&agentskills.Options{HomeDir: home, Presets: presets,
		TrustProject: func(projectRoot string) bool { return trusted && projectRoot == root }})
	if err != nil {
		return err
	}
	e.projectDir = root
	e.reg.AddProvider("global", p, &skills.ProviderOptions{Label: agentskills.ProviderLabel})
	return nil
}

// inProject replaces a leading projectVar with the project's directory.
func (e *env) inProject(p string) string {
	if rest, ok := strings.CutPrefix(p, projectVar); ok && e.projectDir != "" {
		return filepath.Join(e.projectDir, filepath.FromSlash(rest))
	}
	return p
}

// inProjectAll is inProject of each path.
func (e *env) inProjectAll(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.ToSlash(e.inProject(p))
	}
	return out
}
