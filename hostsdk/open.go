package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/hostsdk/agentskills"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
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
// store, the plugin loaded and mounted in the global scope. Sessions are
// then opened with Host.Session. Close releases everything Open made.
//
// A runtime with several agents, its own skills or another provider builds
// the parts itself (New, Load, Mount).
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
	disk, err := agentskills.New(&agentskills.Options{ExtraRoots: roots, Presets: o.Presets, Watch: true,
		TrustProject: trustAll(o.TrustProjects), Logger: o.Logger})
	if err != nil {
		return nil, fmt.Errorf("hostsdk: open the skill directories: %w", err)
	}
	store, err := openStore(o)
	if err != nil {
		disk.Close()
		return nil, err
	}
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		disk.Close()
		return nil, err
	}
	registry.AddProvider(tools.GlobalScope, disk, skills.ProviderOptions{})
	h, err := New(&Options{Tools: tools.NewTree(), Skills: registry, Sessions: store, Logger: o.Logger})
	if err != nil {
		disk.Close()
		return nil, err
	}
	h.closers = append(h.closers, disk.Close)
	if err := h.loadAndMount(ctx, o.Launcher, mount); err != nil {
		return nil, errors.Join(err, h.Close())
	}
	return h, nil
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
	p, err := h.Load(ctx, LoadOptions{Launcher: launcher, InProcess: launcher == nil})
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
