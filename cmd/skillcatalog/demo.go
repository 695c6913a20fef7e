package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillcatalog/skillcatalog"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/agentskills"
	"github.com/skillcatalog/skillcatalog/hostsdk/mcpskills"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
)

const (
	demoAgent   = "agent:assistant"
	demoSession = "demo-session"
)

// addedSkill is the skill the demo creates on disk to show a replacement.
const addedSkill = `---
name: sql-migrations
description: Write reversible SQL migrations with an explicit down step and a data backfill plan.
---
# SQL migrations

1. Every migration has an up and a down step; test both.
2. Never rewrite a migration that has shipped; add a new one.
3. Backfill large tables in batches, outside the schema change.
`

type demoOptions struct {
	mcpURL      string
	mcpCommand  string
	mcpHeaders  headerFlags
	json        bool
	skillsDir   string
	sessionDir  string
	keepSession bool
	diagnostics bool
}

func demoCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("skillcatalog demo", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o demoOptions
	fl.BoolVar(&o.json, "json", false, "print every event as one JSON object per line")
	fl.StringVar(&o.skillsDir, "skills", "", "use the Agent Skills in `DIR` (one subdirectory per skill) instead of the embedded examples; the demo works on a copy")
	fl.StringVar(&o.sessionDir, "session-dir", "", "write the durable session file into `DIR` instead of a temporary directory (implies -keep-session)")
	fl.BoolVar(&o.keepSession, "keep-session", false, "keep the durable session file and print its path")
	fl.BoolVar(&o.diagnostics, "diagnostics", false, "print the skill providers' diagnostics after discovery")
	fl.StringVar(&o.mcpURL, "mcp-url", "", "also list remote skills from the MCP server at `URL` (streamable HTTP)")
	fl.StringVar(&o.mcpCommand, "mcp-command", "", "also list remote skills from the MCP server that `COMMAND` starts (stdio; split on spaces)")
	fl.Var(&o.mcpHeaders, "mcp-header", "`NAME: VALUE` header sent to the -mcp-url server, for example an Authorization header (repeatable)")
	fl.Usage = func() {
		fmt.Fprint(stderr, "Usage: skillcatalog demo [flags]\n\nRuns a scripted agent session against the real plugin and shows what the model sees.\n\nFlags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "skillcatalog demo: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	if o.sessionDir != "" {
		o.keepSession = true
	}
	out := newReporter(stdout, o.json)
	if err := runDemo(ctx, o, out); err != nil {
		fmt.Fprintf(stderr, "skillcatalog demo: %v\n", err)
		return 1
	}
	return 0
}

// demo holds the pieces of the scripted session.
type demo struct {
	opts     demoOptions
	out      *reporter
	store    *sessionlog.FileStore
	host     *hostsdk.Host
	fsys     *agentskills.Provider
	remote   *mcpskills.Provider // nil unless -mcp-url or -mcp-command is set
	root     string              // the skills root the provider watches
	project  string              // the session's working directory
	steps    int
	sections int

	// Detach the MCP server's and the handbook's skills from the registry.
	removeRemote, removeHandbook func()
}

// workspace is the demo's scratch directory tree.
type workspace struct {
	root       string // the copied skills, watched by the provider
	home       string // an empty home, keeping the user's own skills out
	project    string // the session's working directory
	sessionDir string // where the durable session file goes
}

// runDemo sets up the skill sources, the host and the plugin, then plays the
// script. Resources are released in reverse: host, providers, directory.
func runDemo(ctx context.Context, o demoOptions, out *reporter) (err error) {
	work, err := os.MkdirTemp("", "skillcatalog-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	ws, err := prepareWorkspace(work, o)
	if err != nil {
		return err
	}
	store, err := sessionlog.NewFileStore(ws.sessionDir)
	if err != nil {
		return err
	}

	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the plugin binary: %w", err)
	}
	fsys, err := agentskills.New(agentskills.Options{ExtraRoots: []string{ws.root}, HomeDir: ws.home, Watch: true})
	if err != nil {
		return err
	}
	defer fsys.Close()

	d := &demo{opts: o, out: out, store: store, fsys: fsys, root: ws.root, project: ws.project}
	tree, reg, err := d.attachSources()
	if err != nil {
		return err
	}
	if d.remote != nil {
		defer d.remote.Close()
	}

	if d.host, err = hostsdk.New(hostsdk.Config{Tools: tree, Skills: reg, Sessions: store}); err != nil {
		return err
	}
	defer func() {
		if cerr := d.host.Close(); err == nil {
			err = cerr
		}
	}()
	if err := d.mountPlugin(ctx, exe); err != nil {
		return err
	}
	return d.play(ctx)
}

// prepareWorkspace lays out the demo's directories under work and copies the
// skills into it, so the script can edit them without touching the source.
func prepareWorkspace(work string, o demoOptions) (workspace, error) {
	ws := workspace{
		root:       filepath.Join(work, "skills"),
		home:       filepath.Join(work, "home"),
		project:    filepath.Join(work, "project"),
		sessionDir: o.sessionDir,
	}
	var src fs.FS = skillcatalog.ExampleSkills()
	if o.skillsDir != "" {
		src = os.DirFS(o.skillsDir)
	}
	if err := os.CopyFS(ws.root, src); err != nil {
		return workspace{}, fmt.Errorf("copy skills: %w", err)
	}
	for _, dir := range []string{ws.home, ws.project} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return workspace{}, err
		}
	}
	if ws.sessionDir == "" {
		ws.sessionDir = filepath.Join(work, "sessions")
	}
	return ws, nil
}

// attachSources builds the scope tree and the registry with its providers in
// rank order: the skills directory, the MCP server if one is given (ranked
// below local skills of the same name), and the handbook that fails to load.
func (d *demo) attachSources() (*tools.Tree, *skills.Registry, error) {
	tree := tools.NewTree()
	if err := tree.AddScope(demoAgent, tools.GlobalScope); err != nil {
		return nil, nil, err
	}
	reg := skills.NewRegistry()
	reg.AddProvider(tools.GlobalScope, d.fsys, skills.ProviderOptions{})
	d.removeRemote = func() {}
	if d.opts.mcpURL != "" || d.opts.mcpCommand != "" {
		remote, err := mcpskills.New(mcpskills.Config{URL: d.opts.mcpURL, Command: strings.Fields(d.opts.mcpCommand), Headers: d.opts.mcpHeaders.m})
		if err != nil {
			return nil, nil, fmt.Errorf("remote skills: %w", err)
		}
		d.remote = remote
		d.removeRemote = reg.AddProvider(tools.GlobalScope, remote, skills.ProviderOptions{Rank: -1})
	}
	d.removeHandbook = reg.AddProvider(tools.GlobalScope, handbookProvider{}, skills.ProviderOptions{})
	return tree, reg, nil
}

// mountPlugin starts this binary as the plugin and mounts it globally.
func (d *demo) mountPlugin(ctx context.Context, exe string) error {
	plugin, err := d.host.Load(ctx, hostsdk.LoadOptions{Path: exe})
	if err != nil {
		return err
	}
	_, err = plugin.Mount(ctx, tools.GlobalScope, "")
	return err
}

// play runs the script's sections in order.
func (d *demo) play(ctx context.Context) error {
	for _, section := range []func(context.Context) error{
		d.publishInitialCatalog,
		d.stepWithoutChanges,
		d.loadFirstSkill,
		d.addSkill,
		d.editDescription,
		d.editBody,
		d.showToolErrors,
		d.removeEverySkill,
		d.showSessionLog,
	} {
		if err := section(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (d *demo) publishInitialCatalog(ctx context.Context) error {
	d.section("The first model step publishes the initial catalog")
	if err := d.step(ctx); err != nil {
		return err
	}
	if d.opts.diagnostics {
		d.showDiagnostics()
	}
	return nil
}

func (d *demo) showDiagnostics() {
	for _, diag := range d.fsys.Diagnostics() {
		d.out.note("diagnostic", diag.String())
	}
	if d.remote != nil {
		for _, diag := range d.remote.Diagnostics() {
			d.out.note("diagnostic", "mcp: "+diag)
		}
	}
}

func (d *demo) stepWithoutChanges(ctx context.Context) error {
	d.section("Nothing changed: the next step adds nothing")
	return d.step(ctx)
}

func (d *demo) loadFirstSkill(ctx context.Context) error {
	d.section("The model loads a skill with the `skill` tool")
	return d.call(ctx, d.firstSkill())
}

func (d *demo) addSkill(ctx context.Context) error {
	d.section("A skill is added on disk: a complete replacement")
	if err := d.writeSkill("sql-migrations", addedSkill); err != nil {
		return err
	}
	return d.step(ctx)
}

func (d *demo) editDescription(ctx context.Context) error {
	d.section("A description is edited: a complete replacement")
	if err := d.editSkill("sql-migrations", func(s string) string {
		return strings.Replace(s, "description: Write reversible SQL migrations", "description: Write safe, reversible SQL migrations", 1)
	}); err != nil {
		return err
	}
	return d.step(ctx)
}

func (d *demo) editBody(ctx context.Context) error {
	d.section("Only a body is edited: no message, but the next load shows the new body")
	if err := d.editSkill("sql-migrations", func(s string) string {
		return s + "4. Name migrations after what they change, not when.\n"
	}); err != nil {
		return err
	}
	if err := d.step(ctx); err != nil {
		return err
	}
	return d.call(ctx, "sql-migrations")
}

func (d *demo) showToolErrors(ctx context.Context) error {
	d.section("Every error the `skill` tool reports")
	for _, name := range []string{"Not A Name", "no-such-skill", "deploy-production", "team-handbook"} {
		if err := d.call(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (d *demo) removeEverySkill(ctx context.Context) error {
	d.section("Every skill is removed: the empty tombstone")
	entries, err := os.ReadDir(d.root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(d.root, e.Name())); err != nil {
			return err
		}
	}
	d.removeHandbook()
	d.removeRemote() // remote skills are the server's to delete; the demo stops listing them
	d.fsys.Invalidate()
	if err := d.step(ctx); err != nil {
		return err
	}
	return d.call(ctx, "sql-migrations")
}

func (d *demo) showSessionLog(ctx context.Context) error {
	d.section("The durable session log")
	log, err := d.store.Open(ctx, demoSession)
	if err != nil {
		return err
	}
	defer log.Close()
	head, err := log.Head(ctx)
	if err != nil {
		return err
	}
	if d.opts.keepSession {
		d.out.note("session", fmt.Sprintf("%d durable events kept in %s", head.Seq, d.store.Path(demoSession)))
	} else {
		d.out.note("session", fmt.Sprintf("%d durable events were written (-keep-session keeps the file)", head.Seq))
	}
	return nil
}

func (d *demo) section(title string) {
	d.sections++
	d.out.section(d.sections, title)
}

func (d *demo) step(ctx context.Context) error {
	d.steps++
	res, err := d.host.PreStep(ctx, hostsdk.Step{SessionID: demoSession, Cwd: d.project, AgentScope: demoAgent, Turn: 1, Step: d.steps})
	if err != nil {
		return err
	}
	d.out.step(d.steps, res)
	return nil
}

func (d *demo) call(ctx context.Context, name string) error {
	args, err := json.Marshal(map[string]string{"name": name})
	if err != nil {
		return err
	}
	res, err := d.host.CallTool(ctx, hostsdk.ToolCall{SessionID: demoSession, Cwd: d.project, AgentScope: demoAgent, Name: "skill", Arguments: args})
	if err != nil {
		return err
	}
	d.out.tool(name, res)
	return nil
}

// firstSkill picks a skill to load from the copied directory, preferring
// the examples' pdf-forms.
func (d *demo) firstSkill() string {
	if _, err := os.Stat(filepath.Join(d.root, "pdf-forms", "SKILL.md")); err == nil {
		return "pdf-forms"
	}
	entries, _ := os.ReadDir(d.root)
	for _, e := range entries {
		if e.IsDir() {
			return e.Name()
		}
	}
	return "pdf-forms"
}

func (d *demo) writeSkill(name, text string) error {
	dir := filepath.Join(d.root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
		return err
	}
	// The watcher would notice too; telling the provider makes the demo
	// deterministic.
	d.fsys.Invalidate()
	return nil
}

func (d *demo) editSkill(name string, edit func(string) string) error {
	path := filepath.Join(d.root, name, "SKILL.md")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return d.writeSkill(name, edit(string(b)))
}

// handbookProvider stands for a remote service that lists a skill but fails
// when it is loaded, to show how a provider's error reaches the model.
type handbookProvider struct{}

func (handbookProvider) List(context.Context, skills.ListRequest) (skills.Observation, error) {
	return skills.Observation{Complete: true, Skills: []skill.Summary{{
		Name:        "team-handbook",
		Description: "Answer questions about the team's working agreements from the handbook service.",
		Invocation:  skill.DefaultPolicy(),
		Provider:    "handbook-service",
	}}}, nil
}

func (handbookProvider) Load(context.Context, skills.LoadRequest) (skill.Definition, bool, error) {
	return skill.Definition{}, false, errors.New("handbook service unavailable: connection refused")
}

// headerFlags collects repeated "Name: value" flags.
type headerFlags struct{ m map[string]string }

func (h *headerFlags) String() string { return "" }

func (h *headerFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want NAME: VALUE, got %q", v)
	}
	if h.m == nil {
		h.m = map[string]string{}
	}
	h.m[strings.TrimSpace(name)] = strings.TrimSpace(value)
	return nil
}
