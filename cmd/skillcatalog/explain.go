package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// Reasons explain gives for a skill being in or out of the catalog.
const (
	reasonListed     = "listed"    // in the catalog
	reasonShortened  = "shortened" // in the catalog, its description cut
	reasonPolicy     = "policy"    // disable-model-invocation
	reasonParseError = "parse-error"
	reasonBudget     = "budget" // left out: the names do not fit catalogBudget
	reasonSelection  = "selection"
	reasonShadowed   = "shadowed"
	reasonCollision  = "name-collision" // listed under its qualified name
	reasonUntrusted  = "outside-trust"
	reasonIncomplete = "incomplete" // discovery could not read everything
	reasonDegraded   = "degraded"   // a best-effort source could not be read: its last-good skills kept, or it left out
	reasonPaths      = "paths"      // scoped by paths: in the catalog once a touched file matches
)

type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

type explainOptions struct {
	skillsDirs   stringsFlag
	home         string
	cwd          string
	agent        string
	presets      presetFlags
	trustProject bool
	json         bool
	touched      stringsFlag

	descriptionMaxLength int
	catalogBudget        int
	resourceTool         bool
	userInvocation       bool
	searchTool           bool
	relevantSkills       string

	// request is a user's request for the step, and requests a file of
	// them: the relevant-skills message the step would add.
	request, requests string

	include, exclude stringsFlag

	mcpURL     string
	mcpCommand string
	mcpHeaders headerFlags
	mcpLabel   string

	// web is a website's skills (-web-url), as the demo takes them.
	web webOptions
	// lockFile pins the skills to a lock (-lock), and allowUnlocked lets
	// the skills it does not name in (-unlocked allow).
	lockFile string
	unlocked string
	// session is a session log file (-session) whose recorded versions
	// explain prints instead.
	session string

	// wrapLocal, when set, wraps the skill directories' provider where the
	// registry reaches it: tests count the calls that get through.
	wrapLocal func(skills.Provider) skills.Provider
}

// explanation is what explain prints; -json prints it as is.
type explanation struct {
	Cwd     string `json:"cwd"`
	Agent   string `json:"agent"`
	Outcome string `json:"outcome"`
	// Catalog is the text of the catalog message the model would see at
	// a session's first step; "" when none is published.
	Catalog string `json:"catalog"`
	// Complete is false when some skill source could not be read.
	Complete bool `json:"complete"`
	// Scan says which skill directories were read, how many skills
	// loaded, which were skipped and why, and which directories of
	// skills were not read.
	Scan    agentskills.Survey `json:"scan"`
	Skills  []explainedSkill   `json:"skills"`
	Notes   []string           `json:"notes"` // the step's diagnostics
	Sources []explainedSource  `json:"sourceDiagnostics"`
	// Relevant is, for a step given a request (-request), what the
	// relevant-skills message would hold; absent without a request.
	Relevant *explainedRelevant `json:"relevant,omitempty"`
}

// explainedRelevant is the relevant-skills message of a request.
type explainedRelevant struct {
	Request string `json:"request"`
	// Skills are the skills the message describes, best first; empty
	// when the step adds no message (why is in Reason).
	Skills []string `json:"skills"`
	// Message is the message's text, "" when there is none.
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

type explainedSkill struct {
	Name     string `json:"name"`
	Provider string `json:"provider,omitempty"`
	Origin   string `json:"origin,omitempty"`
	// OriginKind is "website" for a website's skill, absent otherwise.
	OriginKind skill.OriginKind `json:"originKind,omitempty"`
	Path       string           `json:"path,omitempty"`
	Listed     bool             `json:"listed"`
	Reasons    []explainReason  `json:"reasons"`
	// Directives are what the skill asks of the runtime (a fork, a model,
	// tools to pre-approve), as a host loading it receives them.
	Directives *skill.Directives `json:"directives,omitempty"`
	// ArgumentNames, for a local skill, are the names of its positional
	// arguments (`arguments`), which its instructions write as `$name`.
	ArgumentNames []string `json:"argumentNames,omitempty"`
}

type explainReason struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

type explainedSource struct {
	Severity string `json:"severity"`
	Path     string `json:"path,omitempty"`
	Skill    string `json:"skill,omitempty"`
	Message  string `json:"message"`
}

const explainUsage = `Usage: skillcatalog explain [flags]

Runs the plugin's engine in this process on the given skill sources, as a
host would for a session's first step, and prints the catalog text the
model would see, then every skill found and why it is in or out of the
catalog:

  listed          in the catalog
  shortened       in the catalog, its description cut (catalogDescriptionMaxLength or catalogBudget)
  policy          disable-model-invocation: the model never sees it (a user may invoke it by name)
  parse-error     its SKILL.md was skipped; the detail says why
  budget          left out: the names do not fit catalogBudget
  selection       the session's selection (-include, -exclude) leaves it out
  shadowed        a skill of the same name in a higher-ranked root wins
  name-collision  a remote skill listed under its qualified name LABEL:path
  outside-trust   in a project that is not trusted (see -trust-project)
  incomplete      a source could not be read; a host keeps its last catalog
  degraded        a best-effort source (the MCP server) could not be read; the
                  other skills are published, with its last-good listing or without it
  paths           scoped by its paths: in the catalog once the session touches a
                  matching file (-touched FILE reports one)
  lock-mismatch   -lock names it, and its content is not the locked version: left out
  not-locked      -lock does not name it, and -unlocked leave-out leaves it out

Skill directories are those of the Agent Skills provider: <project>/.agents/skills
from -cwd up to the repository root (only with -trust-project), -home's
.agents/skills, the -preset layouts' directories (every preset unless -preset
names some, as hostsdk.Open; -preset none for none), then every -skills DIR
(a DIR that holds SKILL.md is that one skill). The mount options default to
what hostsdk.Open mounts: resourceTool and userInvocation on,
catalogDescriptionMaxLength 1024. One line says which of them were
scanned (and which are absent), how many skills loaded, how many were
skipped and why, and which directories of skills were not scanned: a
project's when it is not trusted, .claude/skills or .codex/skills without
their -preset.

With -session FILE (a session log, as hostsdk.Open's SessionDir keeps one
per session) it prints instead, for each catalog the session's model was
shown and each skill it loaded, the version of every skill named: the
content digest recorded with it ("version not recorded" when the host
computed none, as without a lock).

Each skill that asks something of the runtime says what: its directives
(a fork and its agent, a model, tools to pre-approve), as a host loading it
receives them, a remote server's marked as requests no host acts on.

With -json it prints one object: {"cwd", "agent", "outcome", "catalog",
"complete", "scan": {"dirs", "absent", "loaded", "skipped": [{"path",
"skill", "reason", "detail"}], "notScanned": [{"path", "why"}], "summary"},
"skills": [{"name", "provider", "origin", "path", "listed", "reasons":
[{"kind", "detail"}], "directives": {"context", "agent", "model",
"allowedTools", "trusted", "diagnostics"}}], "notes", "sourceDiagnostics"}.

Flags:
`

func explainCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o explainOptions
	fl := explainFlags(&o)
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(fl, stderr, "unexpected argument %q", fl.Arg(0))
	}
	if o.requests != "" {
		return explainRequests(ctx, o, stdout, stderr)
	}
	if o.session != "" {
		sv, err := readSessionVersions(o.session)
		return report(stdout, stderr, "explain", sv, err, o.json, printSessionVersions)
	}
	ex, err := explain(ctx, o)
	return report(stdout, stderr, "explain", ex, err, o.json, printExplanation)
}

// explainFlags is explain's flag set, which fills o. Its defaults are
// hostsdk.Open's (every preset, skill_resource and `/name` on,
// OpenDescriptionMaxLength), so explain shows what a host that opens with
// Open shows.
func explainFlags(o *explainOptions) *flag.FlagSet {
	fl := flag.NewFlagSet("explain", flag.ContinueOnError)
	fl.Var(&o.skillsDirs, "skills", "a skill root `DIR` (one subdirectory per skill, or one skill's own folder), user-level and trusted (repeatable)")
	fl.StringVar(&o.home, "home", "", "the home `DIR` whose .agents/skills (and preset directories) are user-level roots (default: your home directory)")
	fl.StringVar(&o.cwd, "cwd", "", "the session's working `DIR`, where project skills are looked for (default: the current directory)")
	fl.StringVar(&o.agent, "agent", "agent:explain", "the calling agent's `SCOPE`")
	fl.Var(&o.presets, "preset", "scan and load as the `LAYOUT` does ("+presetNames()+"; repeatable; none: no preset); by default every preset, as hostsdk.Open")
	fl.Var(&o.touched, "touched", "a `FILE` the session touched, as a host reports the files of its tool calls: skills whose paths match it are activated (repeatable)")
	fl.BoolVar(&o.trustProject, "trust-project", false, "trust the project of -cwd, so its skills load (a host decides this per project)")
	fl.BoolVar(&o.json, "json", false, "print the explanation as one JSON object")
	fl.IntVar(&o.descriptionMaxLength, "description-max-length", hostsdk.OpenDescriptionMaxLength, "the mount option catalogDescriptionMaxLength: by default hostsdk.Open's, the Agent Skills limit (0: the plugin's default, 500)")
	fl.IntVar(&o.catalogBudget, "catalog-budget", contract.DefaultCatalogBudget, "the mount option catalogBudget (0: no budget)")
	fl.BoolVar(&o.resourceTool, "resource-tool", true, "the mount option resourceTool, on as hostsdk.Open mounts it (-resource-tool=false: off)")
	fl.BoolVar(&o.userInvocation, "user-invocation", true, "the mount option userInvocation, on as hostsdk.Open mounts it (-user-invocation=false: off)")
	fl.BoolVar(&o.searchTool, "search-tool", false, "the mount option searchTool")
	fl.StringVar(&o.relevantSkills, "relevant-skills", contract.RelevantAuto, "the mount option relevantSkills: `MODE` auto, on or off")
	fl.StringVar(&o.request, "request", "", "the user's request `TEXT` at the step: shows the relevant-skills message it would get")
	fl.StringVar(&o.requests, "requests", "", "read requests from `FILE` (JSON lines {\"id\", \"query\"}) and print, for each, the skills its relevant-skills message would describe: {\"id\", \"relevant\": [names]}")
	fl.Var(&o.include, "include", "select only the skill `NAME` (repeatable), as hostsdk.Selection.IncludeNames")
	fl.Var(&o.exclude, "exclude", "leave the skill `NAME` out (repeatable), as hostsdk.Selection.ExcludeNames")
	fl.StringVar(&o.mcpURL, "mcp-url", "", "also list remote skills from the MCP server at `URL` (streamable HTTP)")
	fl.StringVar(&o.mcpCommand, "mcp-command", "", "also list remote skills from the MCP server that `COMMAND` starts (stdio; split on spaces)")
	fl.Var(&o.mcpHeaders, "mcp-header", "`NAME: VALUE` header sent to the -mcp-url server (repeatable)")
	fl.StringVar(&o.mcpLabel, "mcp-label", mcpskills.DefaultLabel, "the `LABEL` the host gives the MCP server")
	o.web.flags(fl)
	fl.StringVar(&o.session, "session", "", "print instead which version (content digest) of each skill the session logged in `FILE` (a session directory's .jsonl) showed its model in each catalog and loaded")
	fl.StringVar(&o.lockFile, "lock", "", "pin the skills to the lock `FILE` (skillcatalog lock's, or a skills CLI skills-lock.json): a changed skill is left out (lock-mismatch)")
	fl.StringVar(&o.unlocked, "unlocked", "leave-out", "with -lock, what happens to a skill the lock does not name: `POLICY` leave-out (not-locked) or allow")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), explainUsage)
		fl.PrintDefaults()
	}
	return fl
}

// scannedPresets are the presets explain scans with: those -preset names,
// or, with none named, every preset, as hostsdk.Open does.
func (o explainOptions) scannedPresets() []agentskills.Preset {
	if o.presets == nil {
		return agentskills.Presets()
	}
	return o.presets
}

// explain builds a host with the sources o names, runs one step of a
// fresh session through the engine in process, and explains the result.
func explain(ctx context.Context, o explainOptions) (explanation, error) {
	roots, err := o.resolvePaths()
	if err != nil {
		return explanation{}, err
	}
	opts := agentskills.Options{ExtraRoots: roots, HomeDir: o.home, Presets: o.scannedPresets(),
		TrustProject: func(string) bool { return o.trustProject }}
	fsys, err := agentskills.New(&opts)
	if err != nil {
		return explanation{}, err
	}
	defer fsys.Close()
	// The same roots with every project trusted: what trust keeps out.
	opts.TrustProject = func(string) bool { return true }
	everything, err := agentskills.New(&opts)
	if err != nil {
		return explanation{}, err
	}
	defer everything.Close()

	reg, closeRemote, err := o.registry(fsys)
	if err != nil {
		return explanation{}, err
	}
	defer closeRemote()
	res, err := explainStep(ctx, o, reg)
	if err != nil {
		return explanation{}, err
	}
	q := skills.Query{SessionID: explainSession, Cwd: o.cwd, Chain: []string{o.agent, tools.GlobalScope}}
	snap, err := reg.Snapshot(ctx, q)
	if err != nil {
		return explanation{}, err
	}
	ex, localSkills, err := o.explanation(ctx, res, snap, fsys, everything)
	if err != nil {
		return explanation{}, err
	}
	explainDirectives(ctx, reg, q, ex.Skills, localSkills)
	return ex, nil
}

// registry returns a registry of fsys's skills and, when o names an MCP
// server, the server's, and a function that closes what it opened.
func (o explainOptions) registry(fsys *agentskills.Provider) (*skills.Registry, func(), error) {
	ro, err := o.lockOptions()
	if err != nil {
		return nil, nil, err
	}
	reg, err := skills.NewRegistry(ro)
	if err != nil {
		return nil, nil, err
	}
	var listed skills.Provider = fsys
	if o.wrapLocal != nil {
		listed = o.wrapLocal(fsys)
	}
	reg.AddProvider(tools.GlobalScope, &listedOnce{Provider: listed}, nil)
	closeWeb := func() {}
	if o.web.url != "" {
		web, err := o.web.provider()
		if err != nil {
			return nil, nil, fmt.Errorf("website skills: %w", err)
		}
		reg.AddProvider(tools.GlobalScope, web, &skills.ProviderOptions{Rank: -1, Label: o.web.label})
		closeWeb = func() { web.Close() }
	}
	if o.mcpURL == "" && o.mcpCommand == "" {
		return reg, closeWeb, nil
	}
	remote, err := mcpskills.New(&mcpskills.Options{URL: o.mcpURL, Command: strings.Fields(o.mcpCommand), Headers: o.mcpHeaders.m, Label: o.mcpLabel})
	if err != nil {
		return nil, nil, fmt.Errorf("remote skills: %w", err)
	}
	// Best-effort, as the provider declares: while the server cannot be
	// read, the local skills are published without its skills.
	reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Rank: -1, Label: o.mcpLabel})
	return reg, func() { remote.Close(); closeWeb() }, nil
}

// explainSession is the session explain's one step belongs to.
const explainSession = "explain"

// resolvePaths makes the working directory, the skill directories and the
// home directory absolute, and returns the skill directories.
func (o *explainOptions) resolvePaths() ([]string, error) {
	var err error
	if o.cwd == "" {
		if o.cwd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if o.cwd, err = filepath.Abs(o.cwd); err != nil {
		return nil, err
	}
	roots := make([]string, len(o.skillsDirs))
	for i, d := range o.skillsDirs {
		if err := checkSkillsDir(d); err != nil {
			return nil, err
		}
		if roots[i], err = filepath.Abs(d); err != nil {
			return nil, err
		}
	}
	if o.home != "" {
		if o.home, err = filepath.Abs(o.home); err != nil {
			return nil, err
		}
	}
	return roots, nil
}

// explainStep runs the step a session's first model step would run, on
// reg's skills, with the engine in process and o's mount options and
// selection.
func explainStep(ctx context.Context, o explainOptions, reg *skills.Registry) (hostsdk.StepResult, error) {
	tree := tools.NewTree()
	if err := tree.AddScope(o.agent, tools.GlobalScope); err != nil {
		return hostsdk.StepResult{}, err
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		return hostsdk.StepResult{}, err
	}
	defer host.Close()
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		return hostsdk.StepResult{}, err
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, o.mountOptions()); err != nil {
		return hostsdk.StepResult{}, err
	}
	return o.step(ctx, host, explainSession, o.request)
}

// mountOptions are the mount options o names.
func (o explainOptions) mountOptions() *hostsdk.MountOptions {
	budget := o.catalogBudget
	if budget == 0 {
		budget = contract.NoCatalogBudget
	}
	return &hostsdk.MountOptions{DescriptionMaxLength: o.descriptionMaxLength, CatalogBudget: budget,
		ResourceTool: o.resourceTool, UserInvocation: o.userInvocation, SearchTool: o.searchTool, RelevantSkills: o.relevantSkills}
}

// step runs a session's first step on host, with o's selection, and the
// user's request when there is one.
func (o explainOptions) step(ctx context.Context, host *hostsdk.Host, session, request string) (hostsdk.StepResult, error) {
	s := host.Session(session, &hostsdk.SessionOptions{Cwd: o.cwd, AgentScope: o.agent})
	if sel := o.selection(); !sel.IsZero() {
		if err := s.SelectSkills(ctx, sel); err != nil {
			return hostsdk.StepResult{}, err
		}
	}
	var downstream hostsdk.Decision
	if request != "" {
		downstream.Messages = []hostsdk.Message{{ID: "request", Role: hostsdk.RoleUser, UserInput: true,
			Content: []hostsdk.ContentBlock{{Type: "text", Text: request}}}}
	}
	s.Touch(o.touched...)
	return s.Step(ctx, downstream, &hostsdk.StepOptions{Turn: 1, Step: 1})
}

// selection is the skill selection o names.
func (o explainOptions) selection() hostsdk.Selection {
	return hostsdk.Selection{IncludeNames: o.include, ExcludeNames: o.exclude}
}

// explanation puts together what the step published and why each skill is
// in or out: the listing (fsys), what trusting every project would add
// (everything), the snapshot's outages and the provider's diagnostics. It
// returns the local skills too, with their frontmatter.
func (o explainOptions) explanation(ctx context.Context, res hostsdk.StepResult, snap skills.Snapshot, fsys, everything *agentskills.Provider) (explanation, []agentskills.Skill, error) {
	ex := explanation{Cwd: o.cwd, Agent: o.agent, Outcome: string(res.Outcome), Complete: snap.Complete,
		Notes: append(append([]string{}, res.Diagnostics...), snap.Diagnostics...)}
	if o.request != "" {
		ex.Relevant = relevantOf(o.request, res)
	}
	var entries []catalogEntry
	for _, m := range res.Decision.Messages {
		if es, ok := catalogRecord(m.Source); ok {
			ex.Catalog, entries = m.Text(), es
		}
	}
	maxLen := cmp.Or(o.descriptionMaxLength, render.DefaultDescriptionMaxLength)
	local, _, err := fsys.Skills(ctx, o.cwd)
	if err != nil {
		return explanation{}, nil, err
	}
	ex.Skills = explainSnapshot(snap, entries, local, o.selection(), maxLen)
	ex.Skills = append(ex.Skills, explainDiagnostics(fsys.Diagnostics())...)
	all, _, err := everything.Skills(ctx, o.cwd)
	if err != nil {
		return explanation{}, nil, err
	}
	ex.Skills = append(ex.Skills, explainUntrusted(local, all)...)
	ex.Skills = append(ex.Skills, explainOutages(snap)...)
	ex.Skills = append(ex.Skills, explainLocked(snap)...)
	slices.SortStableFunc(ex.Skills, func(a, b explainedSkill) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Path, b.Path))
	})
	sv, err := fsys.Survey(ctx, o.cwd)
	if err != nil {
		return explanation{}, nil, err
	}
	ex.Scan = withFlags(sv)
	ex.Sources = []explainedSource{}
	for _, d := range fsys.Diagnostics() {
		ex.Sources = append(ex.Sources, explainedSource{Severity: string(d.Severity), Path: d.Path, Skill: d.Skill, Message: d.Message})
	}
	return ex, local, nil
}

// catalogEntry is one entry of a published catalog record.
type catalogEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Origin      string `json:"origin"`
	OriginKind  string `json:"origin_kind"` // "website", or absent for an MCP server
}

// catalogRecord decodes a catalog message's source record.
func catalogRecord(source json.RawMessage) ([]catalogEntry, bool) {
	var rec struct {
		Kind    string         `json:"kind"`
		Entries []catalogEntry `json:"entries"`
	}
	if len(source) == 0 || json.Unmarshal(source, &rec) != nil || rec.Kind != "skill-catalog" {
		return nil, false
	}
	return rec.Entries, true
}

// catalogKey is what tells one catalog entry from another.
type catalogKey struct{ name, origin, originKind string }

// explainSnapshot explains every skill the registry offers: in the
// catalog, shortened, or out by policy, selection or budget.
func explainSnapshot(snap skills.Snapshot, entries []catalogEntry, local []agentskills.Skill, sel hostsdk.Selection, maxLen int) []explainedSkill {
	paths := make(map[string]string, len(local))
	for _, s := range local {
		paths[s.Name] = s.Dir
	}
	listedAt := make(map[catalogKey]int, len(entries))
	for i, c := range entries {
		if _, ok := listedAt[catalogKey{c.Name, c.Origin, c.OriginKind}]; !ok {
			listedAt[catalogKey{c.Name, c.Origin, c.OriginKind}] = i
		}
	}
	var out []explainedSkill
	for _, s := range snap.Skills {
		e := explainedSkill{Name: s.Name, Provider: s.Provider, Origin: s.Origin}
		if s.Origin != "" {
			e.OriginKind = s.OriginKind
		}
		recordedKind := ""
		if s.Origin != "" && s.OriginKind == skill.OriginWebsite {
			recordedKind = "website"
		}
		if s.Origin == "" {
			e.Path = paths[s.Name]
		}
		if s.Origin != "" && strings.HasPrefix(s.Name, s.Origin+":") {
			e.Reasons = append(e.Reasons, explainReason{reasonCollision, fmt.Sprintf("another skill has its name, so this remote skill is listed and loaded under its qualified name %q", s.Name)})
		}
		i, listed := listedAt[catalogKey{s.Name, s.Origin, recordedKind}]
		switch {
		case listed:
			e.Listed = true
			e.Reasons = append(e.Reasons, explainReason{reasonListed, "in the catalog"})
			if s.Paths != "" {
				e.Reasons = append(e.Reasons, explainReason{reasonPaths, "scoped by paths " + strings.Join(skill.PathPatterns(s.Paths), ", ") + ": activated by a touched file"})
			}
			listedDesc := skill.ListedDescription(s)
			full := render.NormalizeDescription(listedDesc, render.DefaultDescriptionMaxLength*1000)
			if strings.TrimSpace(s.WhenToUse) != "" {
				e.Reasons = append(e.Reasons, explainReason{reasonListed, fmt.Sprintf("its when_to_use follows its description, joined by %q", skill.WhenToUseJoin)})
			}
			switch got := entries[i].Description; {
			case got == full:
			case got == render.NormalizeDescription(listedDesc, maxLen):
				e.Reasons = append(e.Reasons, explainReason{reasonShortened, fmt.Sprintf("description cut to %s %d", contract.OptionDescriptionMaxLength, maxLen)})
			case got == "":
				e.Reasons = append(e.Reasons, explainReason{reasonShortened, fmt.Sprintf("description removed: the names alone fill %s", contract.OptionCatalogBudget)})
			default:
				e.Reasons = append(e.Reasons, explainReason{reasonShortened, fmt.Sprintf("description cut to %d characters to fit %s", len([]rune(got)), contract.OptionCatalogBudget)})
			}
		case !s.Invocation.ModelInvocable:
			detail := "disable-model-invocation: true, so the model never sees it"
			if s.Invocation.UserInvocable {
				detail += "; a user can invoke it by name (/" + s.Name + ") when the mount has userInvocation"
			}
			e.Reasons = append(e.Reasons, explainReason{reasonPolicy, detail})
		case !sel.Allows(s.Name, s.Provider):
			e.Reasons = append(e.Reasons, explainReason{reasonSelection, "the session's selection leaves it out"})
		case s.Paths != "":
			e.Reasons = append(e.Reasons, explainReason{reasonPaths, "scoped by paths " + strings.Join(skill.PathPatterns(s.Paths), ", ") +
				": enters the catalog at the first step whose touched files match (-touched FILE); the skill tool and /" + s.Name + " load it before that"})
		case len(entries) > 0:
			e.Reasons = append(e.Reasons, explainReason{reasonBudget, "left out of the catalog: the names do not fit " + contract.OptionCatalogBudget})
		default:
			e.Reasons = append(e.Reasons, explainReason{reasonIncomplete, "no catalog was published"})
		}
		out = append(out, e)
	}
	return out
}

// explainOutages explains, in entries of no skill, why the snapshot was
// incomplete, and each best-effort source that could not be read.
func explainOutages(snap skills.Snapshot) []explainedSkill {
	var out []explainedSkill
	if !snap.Complete {
		out = append(out, explainedSkill{Reasons: []explainReason{{reasonIncomplete,
			"some skill source could not be read (see the source diagnostics); a host keeps the catalog it published last"}}})
	}
	for _, why := range snap.Degraded {
		out = append(out, explainedSkill{Reasons: []explainReason{{reasonDegraded, why}}})
	}
	return out
}

// explainDiagnostics explains the skills the provider found and did not
// offer: skipped files and shadowed skills.
func explainDiagnostics(ds []agentskills.Diagnostic) []explainedSkill {
	var out []explainedSkill
	for _, d := range ds {
		switch {
		case d.Skill == "":
		case d.Severity == agentskills.SeverityError && filepath.Base(d.Path) == "SKILL.md":
			out = append(out, explainedSkill{Name: d.Skill, Provider: agentskills.ProviderLabel, Path: filepath.Dir(d.Path),
				Reasons: []explainReason{{reasonParseError, d.Message}}})
		case strings.HasPrefix(d.Message, "shadowed by"):
			out = append(out, explainedSkill{Name: d.Skill, Provider: agentskills.ProviderLabel, Path: filepath.Dir(d.Path),
				Reasons: []explainReason{{reasonShadowed, d.Message}}})
		}
	}
	return out
}

// explainUntrusted explains the project skills a trusted project would
// add: those in all, read with every project trusted, that local lacks.
func explainUntrusted(local, all []agentskills.Skill) []explainedSkill {
	offered := make(map[string]bool, len(local))
	for _, l := range local {
		offered[l.Dir] = true
	}
	var out []explainedSkill
	for _, s := range all {
		if s.Scope != agentskills.ScopeProject || offered[s.Dir] {
			continue
		}
		out = append(out, explainedSkill{Name: s.Name, Provider: agentskills.ProviderLabel, Path: s.Dir,
			Reasons: []explainReason{{reasonUntrusted, "the project is not trusted, so its skills do not load (a host passes agentskills.Options.TrustProject; here -trust-project)"}}})
	}
	return out
}

func printExplanation(w io.Writer, ex explanation) {
	fmt.Fprintf(w, "Working directory %s, agent %s: outcome %s", skill.QuoteUnsafe(ex.Cwd), ex.Agent, ex.Outcome)
	if !ex.Complete {
		fmt.Fprint(w, " (skill discovery incomplete)")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, surveyLine(ex.Scan, "the skills found below say why"))
	if ex.Catalog == "" {
		fmt.Fprintln(w, "\nNo catalog is published.")
	} else {
		fmt.Fprintf(w, "\nThe catalog the model sees:\n\n%s\n", ex.Catalog)
	}
	if r := ex.Relevant; r != nil {
		if r.Message == "" {
			fmt.Fprintf(w, "\nThe request adds no relevant-skills message: %s.\n", r.Reason)
		} else {
			fmt.Fprintf(w, "\nThe relevant-skills message the request adds:\n\n%s\n", r.Message)
		}
	}
	fmt.Fprintln(w, "\nSkills found:")
	if len(ex.Skills) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, s := range ex.Skills {
		status := "out"
		if s.Listed {
			status = "in "
		}
		where := s.Path
		if s.Origin != "" {
			where = s.OriginKind.String() + " " + s.Origin // "MCP server docs", "website docs"
		}
		name := s.Name
		if name == "" {
			name = "(all)"
		}
		fmt.Fprintf(w, "  %s %s", status, skill.QuoteUnsafe(name))
		if where != "" {
			fmt.Fprintf(w, "  %s", skill.QuoteUnsafe(where))
		}
		fmt.Fprintln(w)
		for _, r := range s.Reasons {
			fmt.Fprintf(w, "      %s: %s\n", r.Kind, skill.QuoteUnsafe(r.Detail))
		}
		if line := directivesLine(s.Directives); line != "" {
			fmt.Fprintf(w, "      directives: %s\n", line)
		}
		if line := argumentsLine(s.ArgumentNames); line != "" {
			fmt.Fprintf(w, "      arguments: %s\n", line)
		}
		if s.Directives != nil && s.Origin != "" { // a local skill's are among the source diagnostics
			for _, d := range s.Directives.Diagnostics {
				fmt.Fprintf(w, "      directive diagnostic: %s\n", skill.QuoteUnsafe(d))
			}
		}
	}
	if len(ex.Notes) > 0 {
		fmt.Fprintln(w, "\nNotes:")
		for _, n := range ex.Notes {
			fmt.Fprintf(w, "  %s\n", skill.QuoteUnsafe(n))
		}
	}
	if len(ex.Sources) > 0 {
		fmt.Fprintln(w, "\nSource diagnostics:")
		for _, d := range ex.Sources {
			fmt.Fprintf(w, "  %s\n", agentskills.Diagnostic{Path: d.Path, Skill: d.Skill, Severity: agentskills.Severity(d.Severity), Message: d.Message})
		}
	}
}

// listedOnce lists the provider it wraps once per working directory and
// answers every later listing from that first one, as an Invalidator
// that never invalidates, so the registry keeps its snapshot. explain
// asks one question of directories that do not change meanwhile; without
// it, every load through the registry would list (read) every skill again,
// which made explaining n skills cost n² reads. Loads go to the provider.
type listedOnce struct {
	skills.Provider
	mu    sync.Mutex
	lists map[string]skills.Observation
}

func (p *listedOnce) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if obs, ok := p.lists[req.Cwd]; ok {
		return cloneObservation(obs), nil
	}
	obs, err := p.Provider.List(ctx, req)
	if err != nil {
		return obs, err
	}
	if p.lists == nil {
		p.lists = make(map[string]skills.Observation)
	}
	p.lists[req.Cwd] = cloneObservation(obs)
	return obs, nil
}

// ContentDigest implements skills.ContentDigester with the wrapped
// provider's, so that a lock digests a skill on disk as a host does.
func (p *listedOnce) ContentDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	if d, ok := p.Provider.(skills.ContentDigester); ok {
		return d.ContentDigest(ctx, req)
	}
	def, found, err := p.Provider.Load(ctx, req)
	if err != nil || !found {
		return "", found, err
	}
	return skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(def.Content)}}), true, nil
}

// SkillsCLIDigest implements skills.SkillsCLIDigester with the wrapped
// provider's.
func (p *listedOnce) SkillsCLIDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	d, ok := p.Provider.(skills.SkillsCLIDigester)
	if !ok {
		return "", false, fmt.Errorf("the provider cannot digest a skill as the skills CLI does")
	}
	return d.SkillsCLIDigest(ctx, req)
}

// SetInvalidate implements skills.Invalidator: nothing changes while
// explain runs.
func (p *listedOnce) SetInvalidate(func()) {}

func cloneObservation(obs skills.Observation) skills.Observation {
	obs.Skills, obs.Incomplete = slices.Clone(obs.Skills), slices.Clone(obs.Incomplete)
	return obs
}
