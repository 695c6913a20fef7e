package agentskills

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Defaults and bounds of Options.
const (
	DefaultMaxDepth = 32
	MaxMaxDepth     = 4096
	DefaultMaxDirs  = 10000
	MaxMaxDirs      = 1000000
	DefaultDebounce = 50 * time.Millisecond
	MaxDebounce     = time.Minute
)

// DefaultClientDir is always scanned: <root>/.agents/skills.
const DefaultClientDir = ".agents"

// Options configures a Provider ([New]). Every field is optional: the zero
// value, like a nil *Options, gives user-level skills from
// ~/.agents/skills, no trusted projects, no live refresh.
type Options struct {
	// ClientDirs are client directory names scanned besides ".agents", in
	// precedence order; ".claude" adds <root>/.claude/skills at every
	// project level and in the home directory. Each must be a single path
	// element. Duplicates (and ".agents" itself) are ignored.
	ClientDirs []string
	// ExtraRoots are further skill roots (directories whose direct
	// subdirectories are skills). An extra root that itself holds a
	// SKILL.md is one skill's own directory, and offers that skill alone,
	// as `skillcatalog validate` takes such a directory. They are
	// user-level and trusted, and rank below the home directory's roots.
	// Each must be an absolute path.
	ExtraRoots []string
	// HomeDir is the home directory holding the user-level roots; "" means
	// os.UserHomeDir(). When no home directory can be determined, only
	// ExtraRoots are user-level roots.
	HomeDir string
	// TrustProject decides whether a project's skills may load. It is
	// called with the project root (the nearest ancestor of the working
	// directory holding .git, or the working directory itself) on every
	// List and Load. nil trusts no project: only user-level skills are
	// offered until the host supplies a decision. After a decision changes,
	// call Provider.Invalidate.
	TrustProject func(projectRoot string) bool
	// MaxDepth bounds how many directories, starting with the working
	// directory, are examined while looking upward for the repository
	// root. 0 means DefaultMaxDepth; otherwise 1..MaxMaxDepth.
	MaxDepth int
	// MaxDirs bounds the number of entries examined in skill roots per
	// List. Exceeding it makes the observation incomplete and adds an error
	// diagnostic. 0 means DefaultMaxDirs; otherwise 1..MaxMaxDirs.
	MaxDirs int
	// Watch enables live refresh: roots are watched, scans are cached
	// between changes, and the invalidate callback fires after changes.
	Watch bool
	// Debounce is the quiet period that coalesces a burst of file system
	// events into one invalidation. 0 means DefaultDebounce; otherwise
	// 1ns..MaxDebounce.
	Debounce time.Duration
	// Presets add the directories and the leniencies of one ecosystem's
	// layout (see Preset); they combine, in order.
	Presets []Preset
	// Logger receives diagnostics when they first appear for a working
	// directory: errors (a skill skipped, a root unreadable) at warning
	// level, warnings at info level, and watcher problems. nil discards
	// them.
	Logger *slog.Logger
}

// Preset names an ecosystem's skill layout. A preset adds client
// directories (scanned at every project level and in the home directory,
// as Options.ClientDirs are), further user-level roots, and leniencies
// that load SKILL.md files the way that ecosystem does; each leniency
// applied is reported as a warning diagnostic.
type Preset string

const (
	// PresetClaudeCode is Claude Code's layout: .claude/skills in the
	// project and in the home directory. A skill without a description
	// is described by the first paragraph of its body, and a SKILL.md
	// without frontmatter loads, named after its directory.
	PresetClaudeCode Preset = "claude-code"
	// PresetCodex is the OpenAI Codex layout: .agents/skills (always
	// scanned), .codex/skills in the project and in the home directory
	// (Codex's earlier location and its default $CODEX_HOME/skills), and
	// the administrators' /etc/codex/skills, ranked last.
	PresetCodex Preset = "codex"
)

// CodexAdminRoot is the user-level root PresetCodex adds.
const CodexAdminRoot = "/etc/codex/skills"

// Presets lists every preset, for command-line flags and documentation.
func Presets() []Preset { return []Preset{PresetClaudeCode, PresetCodex} }

// config is Options after validation and defaulting.
type config struct {
	clientDirs []string // ".agents" first
	userRoots  []rootSpec
	trust      func(string) bool
	maxDepth   int
	maxDirs    int
	watch      bool
	debounce   time.Duration
	logger     *slog.Logger
	home       string // the home directory, cleaned; "" when there is none
	homeErr    error
	// describeFromBody: a skill without a description takes the first
	// paragraph of its body, and a SKILL.md without frontmatter loads
	// (PresetClaudeCode).
	describeFromBody bool
}

func (o Options) config() (config, error) {
	c := config{
		trust:    o.TrustProject,
		maxDepth: o.MaxDepth,
		maxDirs:  o.MaxDirs,
		watch:    o.Watch,
		debounce: o.Debounce,
		logger:   o.Logger,
	}
	if err := c.checkBounds(o); err != nil {
		return config{}, err
	}
	adminRoots, err := c.applyPresets(o)
	if err != nil {
		return config{}, err
	}
	if err := c.addUserRoots(o, adminRoots); err != nil {
		return config{}, err
	}
	return c, nil
}

// checkBounds defaults and checks the numeric options, and the logger.
func (c *config) checkBounds(o Options) error {
	switch {
	case c.maxDepth == 0:
		c.maxDepth = DefaultMaxDepth
	case c.maxDepth < 1 || c.maxDepth > MaxMaxDepth:
		return fmt.Errorf("agentskills: Options.MaxDepth must be between 1 and %d (0 selects %d), got %d", MaxMaxDepth, DefaultMaxDepth, o.MaxDepth)
	}
	switch {
	case c.maxDirs == 0:
		c.maxDirs = DefaultMaxDirs
	case c.maxDirs < 1 || c.maxDirs > MaxMaxDirs:
		return fmt.Errorf("agentskills: Options.MaxDirs must be between 1 and %d (0 selects %d), got %d", MaxMaxDirs, DefaultMaxDirs, o.MaxDirs)
	}
	switch {
	case c.debounce == 0:
		c.debounce = DefaultDebounce
	case c.debounce < 0 || c.debounce > MaxDebounce:
		return fmt.Errorf("agentskills: Options.Debounce must be between 1ns and %v (0 selects %v), got %v", MaxDebounce, DefaultDebounce, o.Debounce)
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

// applyPresets sets the client directories (".agents" first, then
// ClientDirs and the presets', each once) and the presets' leniencies, and
// returns the presets' administrators' roots.
func (c *config) applyPresets(o Options) ([]string, error) {
	clientDirs := slices.Clone(o.ClientDirs)
	var adminRoots []string
	for i, p := range o.Presets {
		switch p {
		case PresetClaudeCode:
			clientDirs = append(clientDirs, ".claude")
			c.describeFromBody = true
		case PresetCodex:
			clientDirs = append(clientDirs, ".codex")
			adminRoots = append(adminRoots, CodexAdminRoot)
		default:
			return nil, fmt.Errorf("agentskills: Options.Presets[%d] is %q; the presets are %q and %q", i, p, PresetClaudeCode, PresetCodex)
		}
	}
	c.clientDirs = []string{DefaultClientDir}
	seen := map[string]bool{DefaultClientDir: true}
	for i, d := range clientDirs {
		if d == "" || d == "." || d == ".." || strings.ContainsAny(d, `/\`) || d != filepath.Base(d) {
			return nil, fmt.Errorf("agentskills: Options.ClientDirs[%d] must be a single directory name such as \".claude\", got %q", i, d)
		}
		if !seen[d] {
			seen[d] = true
			c.clientDirs = append(c.clientDirs, d)
		}
	}
	return adminRoots, nil
}

// addUserRoots sets the user-level roots: the home directory's client
// directories, ExtraRoots, then the administrators' roots, each once.
func (c *config) addUserRoots(o Options, adminRoots []string) error {
	home := o.HomeDir
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			c.homeErr = err
		} else {
			home = h
		}
	}
	if home != "" {
		if !filepath.IsAbs(home) {
			return fmt.Errorf("agentskills: Options.HomeDir must be an absolute path, got %q", home)
		}
		home = filepath.Clean(home)
		c.home = home
		for _, d := range c.clientDirs {
			c.userRoots = append(c.userRoots, rootSpec{
				path:   filepath.Join(home, d, "skills"),
				anchor: home,
				scope:  ScopeUser,
			})
		}
	}
	for i, r := range o.ExtraRoots {
		if !filepath.IsAbs(r) {
			return fmt.Errorf("agentskills: Options.ExtraRoots[%d] must be an absolute path, got %q", i, r)
		}
		r = filepath.Clean(r)
		c.userRoots = append(c.userRoots, rootSpec{path: r, anchor: filepath.Dir(r), scope: ScopeUser, extra: true})
	}
	for _, r := range adminRoots {
		c.userRoots = append(c.userRoots, rootSpec{path: r, anchor: filepath.Dir(r), scope: ScopeUser})
	}
	// The same directory listed twice is scanned once, at its first rank.
	c.userRoots = dedupRoots(c.userRoots, nil)
	return nil
}

// lenience is how this configuration reads SKILL.md files.
func (c *config) lenience() lenience { return lenience{describeFromBody: c.describeFromBody} }

// dedupRoots drops roots whose path is already in have or earlier in roots.
func dedupRoots(roots []rootSpec, have map[string]bool) []rootSpec {
	seen := make(map[string]bool, len(roots)+len(have))
	for k := range have {
		seen[k] = true
	}
	out := roots[:0]
	for _, r := range roots {
		if seen[r.path] {
			continue
		}
		seen[r.path] = true
		out = append(out, r)
	}
	return out
}
