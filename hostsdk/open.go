package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// OpenOptions configures Open; nil means every default: the user's Agent
// Skills, Claude Code and Codex skill directories, sessions in memory, the
// plugin in process.
type OpenOptions struct {
	// SkillDirs are further directories of skills (each holds one
	// directory per skill, with its SKILL.md), besides the user's own.
	// Relative paths are taken from the process's working directory.
	SkillDirs []string
	// Presets are the skill layouts scanned (agentskills.Preset); nil
	// means agentskills.Presets(), every layout the SDK knows.
	Presets []agentskills.Preset
	// TrustProjects loads the project skills of every session's working
	// directory (its repository's .agents/skills, .claude/skills, ...), as
	// a runtime whose user owns the directories it works in would. Off,
	// only user-level skills and SkillDirs load.
	TrustProjects bool
	// ToolGrants enforces the tool grants of the skill active in a
	// session's turn (Options.ToolGrants); off by default.
	ToolGrants ToolGrants
	// Debounce is how long the skill directories stay quiet before a
	// change on disk (a SKILL.md written, a skill added or removed)
	// reaches the catalog: a burst of file events, as an editor or a git
	// checkout makes, is one change. 0 means agentskills.DefaultDebounce
	// (50 ms); at most agentskills.MaxDebounce.
	Debounce time.Duration
	// Websites are sites whose published skills (the Agent Skills
	// Discovery RFC) join the catalog, one webskills provider each, and
	// MCPServers are MCP servers whose skills do, one mcpskills provider
	// each. Open makes the providers and Close closes them. Each is
	// best-effort, as a remote source is (a site or server that is down
	// degrades alone), and needs a label no other one has, since its
	// skills are named by it; a nil Logger in its options is Logger.
	Websites   []webskills.Options
	MCPServers []mcpskills.Options
	// Providers are further skill sources of the host's own, attached
	// after the skill directories, Websites and MCPServers, with
	// default options (each decides its availability,
	// skills.AvailabilityDeclarer). The host keeps owning them: Close does
	// not close them, so close each after the Host. A source that needs a
	// rank, another scope or trusted directives is attached by a host
	// built from parts (New).
	Providers []skills.Provider
	// Lock pins the skills of every source to the content digests it
	// records (skills.RegistryOptions.Lock): a skill whose content changed
	// is left out of the catalog and not loaded, and the step says so
	// (ReasonLockMismatch), never serving it changed. Read one with
	// skilllock.Parse, or a skills CLI skills-lock.json with
	// skilllock.ParseNamed. nil locks nothing.
	Lock *skilllock.Lock
	// Unlocked says what Lock does with a skill it does not name:
	// skills.UnlockedLeaveOut (the default; ReasonNotLocked) or
	// skills.UnlockedAllow.
	Unlocked skills.UnlockedPolicy
	// RecordDigests records the content digest of every skill in the
	// session's catalog and load records without a lock
	// (skills.RegistryOptions.RecordDigests), at the cost of a digest of
	// each listed skill whenever a snapshot is computed afresh. A Lock
	// records them anyway.
	RecordDigests bool
	// Store keeps the session logs: any sessionlog.Store, such as
	// PostgreSQL's (package pglog). nil uses SessionDir.
	Store sessionlog.Store
	// SessionDir keeps the session logs in files in this directory when
	// Store is nil; "" with no Store keeps them in memory, for as long as
	// the Host lives.
	SessionDir string
	// Launcher runs the plugin out of process (pluginproc.Binary{Path:
	// ...}); nil runs its rules in the host's process
	// (LoadOptions.InProcess).
	Launcher Launcher
	// Mount holds the options the plugin is mounted with. Open mounts it
	// with the skill_resource tool (MountOptions.ResourceTool) and `/name`
	// user invocation (MountOptions.UserInvocation) on,
	// DescriptionMaxLength at OpenDescriptionMaxLength, and every other
	// option at the plugin's default; the options Mount sets change only
	// what they set, and the rest keeps those defaults, so setting
	// DescriptionMaxLength alone keeps skill_resource and `/name`. A zero
	// field is no change: turn a default that is on off with
	// NoResourceTool or NoUserInvocation, as RelevantSkills' "off" turns
	// the relevant-skills message off.
	Mount *MountOptions
	// Preload names, by agent scope, the skills preloaded for the sessions
	// of each agent (Options.Preload).
	Preload map[string][]string
	// NoResourceTool mounts the plugin without the skill_resource tool,
	// for a runtime that reads a skill's files with its own tools. Mount
	// must not also ask for it.
	NoResourceTool bool
	// NoUserInvocation mounts the plugin without `/name` user invocation,
	// for a runtime with no such menu. Mount must not also ask for it.
	NoUserInvocation bool
	// Logger receives the SDK's, the providers' and the plugin's log
	// output; nil discards it.
	Logger *slog.Logger
}

// Open sets up a Host for the common case in one call: a global scope, a
// skill registry with Agent Skills on disk (watched for changes), a session
// store, the plugin loaded and mounted in the global scope. Websites, MCP
// servers and a host's own providers join the same registry. Sessions are
// then opened with Host.Session. Close releases everything Open made.
//
// A runtime with several agents, or with sources attached other than in
// the global scope, builds the parts itself (New, Load, Mount).
func Open(ctx context.Context, opts *OpenOptions) (*Host, error) {
	var o OpenOptions
	if opts != nil {
		o = *opts
	}
	mount, err := o.mountOptions()
	if err != nil {
		return nil, err
	}
	if o.Presets == nil {
		o.Presets = agentskills.Presets()
	}
	roots := make([]string, len(o.SkillDirs))
	for i, d := range o.SkillDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("hostsdk: OpenOptions.SkillDirs[%d] %q: %w", i, d, err)
		}
		roots[i] = abs
	}
	if err := o.checkLabels(); err != nil {
		return nil, err
	}
	providers, closers, err := o.openProviders(roots)
	if err != nil {
		return nil, err
	}
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	store, err := openStore(o)
	if err != nil {
		closeAll()
		return nil, err
	}
	registry, err := skills.NewRegistry(&skills.RegistryOptions{Lock: o.Lock, Unlocked: o.Unlocked, RecordDigests: o.RecordDigests})
	if err != nil {
		closeAll()
		return nil, err
	}
	for _, p := range providers {
		registry.AddProvider(tools.GlobalScope, p.provider, &skills.ProviderOptions{Label: p.label})
	}
	h, err := New(&Options{Tools: tools.NewTree(), Skills: registry, Sessions: store, Logger: o.Logger, Preload: o.Preload, ToolGrants: o.ToolGrants})
	if err != nil {
		closeAll()
		return nil, err
	}
	h.closers = append(h.closers, closers...)
	if err := h.loadAndMount(ctx, o.Launcher, mount); err != nil {
		return nil, errors.Join(err, h.Close())
	}
	return h, nil
}

// openProvider is a provider Open attaches, with its label ("" for the
// provider's Go type).
type openProvider struct {
	provider skills.Provider
	label    string
}

// openProviders makes the providers o names, in the order they are
// attached: the skill directories (roots, made absolute), the websites,
// the MCP servers, then o.Providers. It returns the closers of those it
// made; on an error it has closed them.
func (o OpenOptions) openProviders(roots []string) (ps []openProvider, closers []func() error, err error) {
	defer func() {
		if err != nil {
			for _, c := range closers {
				c()
			}
			closers = nil
		}
	}()
	if o.Debounce < 0 || o.Debounce > agentskills.MaxDebounce {
		return nil, nil, fmt.Errorf("hostsdk: OpenOptions.Debounce is %v; it must be from 0 (the default, %v) to %v", o.Debounce, agentskills.DefaultDebounce, agentskills.MaxDebounce)
	}
	disk, err := agentskills.New(&agentskills.Options{ExtraRoots: roots, Presets: o.Presets, Watch: true,
		TrustProject: trustAll(o.TrustProjects), Debounce: o.Debounce, Logger: o.Logger})
	if err != nil {
		return nil, nil, fmt.Errorf("hostsdk: open the skill directories: %w", err)
	}
	closers = append(closers, disk.Close)
	ps = append(ps, openProvider{provider: disk})
	for i, w := range o.Websites {
		if w.Logger == nil {
			w.Logger = o.Logger
		}
		web, err := webskills.New(&w)
		if err != nil {
			return nil, closers, fmt.Errorf("hostsdk: OpenOptions.Websites[%d]: %w", i, err)
		}
		closers = append(closers, web.Close)
		ps = append(ps, openProvider{provider: web, label: web.Label()})
	}
	for i, m := range o.MCPServers {
		if m.Logger == nil {
			m.Logger = o.Logger
		}
		mcp, err := mcpskills.New(&m)
		if err != nil {
			return nil, closers, fmt.Errorf("hostsdk: OpenOptions.MCPServers[%d]: %w", i, err)
		}
		closers = append(closers, mcp.Close)
		ps = append(ps, openProvider{provider: mcp, label: labelOr(m.Label, mcpskills.DefaultLabel)})
	}
	for i, p := range o.Providers {
		if p == nil {
			return nil, closers, fmt.Errorf("hostsdk: OpenOptions.Providers[%d] is nil", i)
		}
		ps = append(ps, openProvider{provider: p})
	}
	return ps, closers, nil
}

// checkLabels refuses two remote sources under one label: their skills
// would be named alike (`label:name`, "website `label`").
func (o OpenOptions) checkLabels() error {
	seen := map[string]string{}
	check := func(field string, i int, label string) error {
		name := fmt.Sprintf("OpenOptions.%s[%d]", field, i)
		if first, ok := seen[label]; ok {
			return fmt.Errorf("hostsdk: %s.Label %q is %s's already: each remote source needs a label of its own", name, label, first)
		}
		seen[label] = name
		return nil
	}
	for i, w := range o.Websites {
		if err := check("Websites", i, labelOr(w.Label, webskills.DefaultLabel)); err != nil {
			return err
		}
	}
	for i, m := range o.MCPServers {
		if err := check("MCPServers", i, labelOr(m.Label, mcpskills.DefaultLabel)); err != nil {
			return err
		}
	}
	return nil
}

// labelOr returns label, or def when it is empty.
func labelOr(label, def string) string {
	if label == "" {
		return def
	}
	return label
}

// OpenDescriptionMaxLength is the catalogDescriptionMaxLength Open mounts
// with unless OpenOptions.Mount sets one: the Agent Skills limit on a
// description, so that every spec-valid description reaches the catalog
// whole. The plugin's own default (500) cuts real skills, such as the
// official docx and xlsx, whose "Do NOT trigger when ..." clauses come
// last; the catalog budget, not a cap on each entry, bounds a large
// catalog.
const OpenDescriptionMaxLength = agentskills.MaxDescriptionLength

// mountOptions returns o.Mount completed with Open's defaults: the
// skill_resource tool and `/name` user invocation on, unless NoResourceTool
// or NoUserInvocation turns them off, and OpenDescriptionMaxLength unless
// Mount sets DescriptionMaxLength.
func (o OpenOptions) mountOptions() (MountOptions, error) {
	var cfg MountOptions
	if o.Mount != nil {
		cfg = *o.Mount
	}
	switch {
	case o.NoResourceTool && cfg.ResourceTool:
		return cfg, errors.New("hostsdk: OpenOptions.NoResourceTool turns off the skill_resource tool that OpenOptions.Mount.ResourceTool asks for: set one")
	case o.NoUserInvocation && cfg.UserInvocation:
		return cfg, errors.New("hostsdk: OpenOptions.NoUserInvocation turns off the `/name` invocation that OpenOptions.Mount.UserInvocation asks for: set one")
	}
	cfg.ResourceTool = !o.NoResourceTool
	cfg.UserInvocation = !o.NoUserInvocation
	if cfg.DescriptionMaxLength == 0 {
		cfg.DescriptionMaxLength = OpenDescriptionMaxLength
	}
	return cfg, nil
}

// loadAndMount loads the plugin with launcher (nil: in process) and mounts
// it in the global scope with cfg.
func (h *Host) loadAndMount(ctx context.Context, launcher Launcher, cfg MountOptions) error {
	p, err := h.Load(ctx, &LoadOptions{Launcher: launcher, InProcess: launcher == nil})
	if err != nil {
		return err
	}
	_, err = p.Mount(ctx, tools.GlobalScope, &cfg)
	return err
}

// openStore returns the store o names.
func openStore(o OpenOptions) (sessionlog.Store, error) {
	switch {
	case o.Store != nil:
		return o.Store, nil
	case o.SessionDir != "":
		store, err := sessionlog.NewFileStore(o.SessionDir, nil)
		if err != nil {
			return nil, fmt.Errorf("hostsdk: OpenOptions.SessionDir: %w", err)
		}
		return store, nil
	}
	return sessionlog.NewMemoryStore(), nil
}

// trustAll is a project-trust decision that trusts every project, or none.
func trustAll(trust bool) func(string) bool {
	if !trust {
		return nil
	}
	return func(string) bool { return true }
}
