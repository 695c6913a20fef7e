package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/skillcatalog/skillcatalog"
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
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
	mcpStderr   io.Writer // the -mcp-command server's stderr, prefixed
	mcpHeaders  headerFlags
	mcpLabel    string
	web         webOptions
	json        bool
	skillsDir   string
	sessionDir  string
	keepSession bool
	diagnostics bool
	trace       bool
}

func demoCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("demo", flag.ContinueOnError)
	var o demoOptions
	fl.BoolVar(&o.json, "json", false, "print every event as one JSON object per line")
	fl.StringVar(&o.skillsDir, "skills", "", "use the Agent Skills in `DIR` (one subdirectory per skill) instead of the embedded examples; the demo works on a copy")
	fl.StringVar(&o.sessionDir, "session-dir", "", "write the durable session file into `DIR` instead of a temporary directory (implies -keep-session)")
	fl.BoolVar(&o.keepSession, "keep-session", false, "keep the durable session file (in a new temporary directory) and print its path")
	fl.BoolVar(&o.diagnostics, "diagnostics", false, "print the skill providers' diagnostics after discovery")
	fl.BoolVar(&o.trace, "trace", false, "print the OpenTelemetry spans of every step and tool call as a tree with durations")
	fl.StringVar(&o.mcpURL, "mcp-url", "", "also list remote skills from the MCP server at `URL` (streamable HTTP)")
	fl.StringVar(&o.mcpCommand, "mcp-command", "", "also list remote skills from the MCP server that `COMMAND` starts (stdio; split on spaces; its stderr goes to the demo's, each line prefixed \"mcp-command: \")")
	fl.Var(&o.mcpHeaders, "mcp-header", "`NAME: VALUE` header sent to the -mcp-url server, for example an Authorization header (repeatable)")
	fl.StringVar(&o.mcpLabel, "mcp-label", mcpskills.DefaultLabel, "the `LABEL` the host gives the MCP server: its skills' catalog lines name it, and colliding names are qualified as LABEL:path")
	o.web.flags(fl)
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), "Usage: skillcatalog demo [flags]\n\nRuns a scripted agent session against the real plugin and shows what the model sees.\n\nFlags:\n")
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(fl, stderr, "unexpected argument %q", fl.Arg(0))
	}
	if o.skillsDir != "" {
		if err := checkSkillsDir(o.skillsDir); err != nil {
			fmt.Fprintf(stderr, "skillcatalog demo: %v\n", err)
			return 1
		}
	}
	if o.sessionDir != "" {
		o.keepSession = true
	}
	if o.mcpCommand != "" {
		o.mcpStderr = &prefixWriter{w: stderr, prefix: "mcp-command: "}
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
	web      *webskills.Provider // nil unless -web-url is set
	root     string              // the skills root the provider watches
	userRoot string              // what stands for -skills DIR: root, or the skill's copy in it
	project  string              // the session's working directory
	loaded   string              // the skill the model loaded in the third section
	shown    map[string]bool     // the skills whose instructions the model loaded
	steps    int
	sections int
	spans    *spanCollector // nil unless -trace is set
	// degraded is what the last step said of best-effort sources that
	// could not be read, printed when it changes.
	degraded string

	// Detach the MCP server's and the handbook's skills from the registry.
	removeRemote, removeHandbook func()
}

// workspace is the demo's scratch directory tree.
type workspace struct {
	root       string // the copied skills, watched by the provider
	userRoot   string // what stands for -skills DIR in root: root, or DIR's copy in it when DIR is one skill's folder
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
	store, err := sessionlog.NewFileStore(ws.sessionDir, nil)
	if err != nil {
		return err
	}
	if err := checkNewSession(store); err != nil {
		return err
	}

	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the plugin binary: %w", err)
	}
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{ws.root}, HomeDir: ws.home, Watch: true})
	if err != nil {
		return err
	}
	defer fsys.Close()

	d := &demo{opts: o, out: out, store: store, fsys: fsys, root: ws.root, userRoot: ws.userRoot, project: ws.project}
	var tp *sdktrace.TracerProvider
	if o.trace {
		tp, d.spans = newDemoTracing()
		defer tp.Shutdown(context.WithoutCancel(ctx))
	}
	tree, reg, err := d.attachSources(tp)
	if err != nil {
		return err
	}
	if d.remote != nil {
		defer d.remote.Close()
	}
	if d.web != nil {
		defer d.web.Close()
	}

	cfg := hostsdk.Options{Tools: tree, Skills: reg, Sessions: store}
	if tp != nil {
		cfg.TracerProvider = tp
	}
	if d.host, err = hostsdk.New(&cfg); err != nil {
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
	ws.userRoot = ws.root
	if o.skillsDir != "" {
		src = os.DirFS(o.skillsDir)
		if isSkillFolder(o.skillsDir) {
			abs, err := filepath.Abs(o.skillsDir)
			if err != nil {
				return workspace{}, err
			}
			ws.userRoot = filepath.Join(ws.root, filepath.Base(abs))
		}
	}
	if err := os.CopyFS(ws.userRoot, src); err != nil {
		if o.skillsDir != "" {
			return workspace{}, fmt.Errorf("copy the skills of -skills %s: %w", o.skillsDir, err)
		}
		return workspace{}, fmt.Errorf("copy skills: %w", err)
	}
	for _, dir := range []string{ws.home, ws.project} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return workspace{}, err
		}
	}
	switch {
	case ws.sessionDir != "":
	case o.keepSession:
		// Outside work, which is removed when the demo ends.
		dir, err := os.MkdirTemp("", "skillcatalog-session-")
		if err != nil {
			return workspace{}, err
		}
		ws.sessionDir = dir
	default:
		ws.sessionDir = filepath.Join(work, "sessions")
	}
	return ws, nil
}

// checkNewSession refuses a -session-dir that already holds the demo's
// session: the script shows a session from its start, and a resumed one
// would publish nothing where the script says it does.
func checkNewSession(store *sessionlog.FileStore) error {
	path := store.Path(demoSession)
	if info, err := os.Stat(path); err == nil && info.Size() > 0 {
		return fmt.Errorf("-session-dir %s already holds the demo's session from an earlier run (%s): the demo starts a new session; remove that file or choose another directory", filepath.Dir(path), path)
	}
	return nil
}

// attachSources builds the scope tree and the registry with its providers in
// rank order: the skills directory, the MCP server if one is given (ranked
// below local skills of the same name), and, with the embedded examples
// only, the scripted handbook that fails to load. tp, when set, traces the
// providers' calls.
func (d *demo) attachSources(tp *sdktrace.TracerProvider) (*tools.Tree, *skills.Registry, error) {
	tree := tools.NewTree()
	if err := tree.AddScope(demoAgent, tools.GlobalScope); err != nil {
		return nil, nil, err
	}
	var ro skills.RegistryOptions
	if tp != nil {
		ro.TracerProvider = tp
	}
	reg, err := skills.NewRegistry(&ro)
	if err != nil {
		return nil, nil, err
	}
	reg.AddProvider(tools.GlobalScope, d.fsys, &skills.ProviderOptions{Label: "agentskills"})
	d.removeRemote = func() {}
	if d.opts.mcpURL != "" || d.opts.mcpCommand != "" {
		remote, err := mcpskills.New(&mcpskills.Options{URL: d.opts.mcpURL, Command: strings.Fields(d.opts.mcpCommand), Stderr: d.opts.mcpStderr, Headers: d.opts.mcpHeaders.m, Label: d.opts.mcpLabel})
		if err != nil {
			return nil, nil, fmt.Errorf("remote skills: %w", err)
		}
		d.remote = remote
		d.removeRemote = reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Rank: -1, Label: "mcp"})
	}
	if d.opts.web.url != "" {
		web, err := d.opts.web.provider()
		if err != nil {
			return nil, nil, fmt.Errorf("skills from a website: %w", err)
		}
		d.web = web
		reg.AddProvider(tools.GlobalScope, web, &skills.ProviderOptions{Rank: -1, Label: "web"})
	}
	d.removeHandbook = func() {}
	if d.opts.skillsDir == "" {
		// A scripted provider whose skill fails to load, to show a provider
		// error; left out when the catalog is the user's own skills.
		d.removeHandbook = reg.AddProvider(tools.GlobalScope, handbookProvider{}, &skills.ProviderOptions{Label: "handbook"})
	}
	return tree, reg, nil
}

// mountPlugin starts this binary as the plugin and mounts it globally.
func (d *demo) mountPlugin(ctx context.Context, exe string) error {
	plugin, err := d.host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: exe}})
	if err != nil {
		return err
	}
	_, err = plugin.Mount(ctx, tools.GlobalScope, &hostsdk.MountOptions{ResourceTool: true, UserInvocation: true})
	return err
}

// play runs the script's sections in order.
func (d *demo) play(ctx context.Context) error {
	for _, section := range []func(context.Context) error{
		d.publishInitialCatalog,
		d.stepWithoutChanges,
		d.loadFirstSkill,
		d.readResource,
		d.invokeByName,
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
	if err := d.showScan(ctx); err != nil {
		return err
	}
	if d.opts.skillsDir == "" {
		d.out.note("note", "team-handbook is the demo's scripted skill: its provider fails every load, to show a provider error")
	}
	if d.opts.diagnostics {
		d.showDiagnostics()
	}
	return nil
}

// showScan says in one line, as explain, validate and serve-mcp say it,
// which directory the demo's skills come from, how many loaded, and how
// many were skipped and why. The demo's own empty home directory is left
// out of it.
func (d *demo) showScan(ctx context.Context) error {
	sv, err := d.fsys.Survey(ctx, d.project)
	if err != nil {
		return err
	}
	sv.Absent, sv.Dirs = nil, []string{d.skillsLabel()}
	if d.opts.skillsDir != "" {
		sv = withPaths(sv, d.userRoot, filepath.Clean(d.opts.skillsDir))
	}
	hint := "-diagnostics says why"
	if d.opts.diagnostics {
		hint = "the diagnostics below say why"
	}
	d.out.note("scan", surveyLine(sv, hint))
	return nil
}

func (d *demo) showDiagnostics() {
	for _, diag := range d.fsys.Diagnostics() {
		d.out.note("diagnostic", d.userPaths(diag.String()))
	}
	if d.remote != nil {
		for _, diag := range d.remote.Diagnostics() {
			d.out.note("diagnostic", "mcp: "+diag)
		}
	}
	if d.web != nil {
		for _, diag := range d.web.Diagnostics() {
			d.out.note("diagnostic", "web: "+diag)
		}
	}
}

func (d *demo) stepWithoutChanges(ctx context.Context) error {
	d.section("Nothing changed: the next step adds nothing")
	return d.step(ctx)
}

func (d *demo) loadFirstSkill(ctx context.Context) error {
	d.section("The model loads a skill with the `skill` tool")
	name, err := d.loadableSkill(ctx, true)
	if err != nil {
		return err
	}
	if name == "" {
		d.out.note("note", "no skill in "+d.skillsLabel()+" can be loaded by the model; skipped")
		return nil
	}
	d.loaded = name
	return d.call(ctx, name)
}

// invokeByName shows user invocation: the user's own message names a skill
// with /name, and the step appends that skill's instructions after it. A
// skill the model may not load is the example when there is one: naming it
// is the only way it reaches the model.
func (d *demo) invokeByName(ctx context.Context) error {
	d.section("The user invokes a skill by name with `/name`")
	name, err := d.userInvocableSkill(ctx)
	if err != nil {
		return err
	}
	if name == "" {
		d.out.note("note", "no skill in "+d.skillsLabel()+" can be invoked by the user; skipped")
		return nil
	}
	// The examples' deploy-production is asked for in a sentence about a
	// release; the user's own skill is named alone, whatever it does.
	text := "/" + name
	if d.opts.skillsDir == "" {
		text += " for the release we tagged this morning, please."
	}
	if err := d.step(ctx, hostsdk.Message{ID: "user-1", Role: hostsdk.RoleUser, UserInput: true,
		Content: []hostsdk.ContentBlock{{Type: "text", Text: text}}}); err != nil {
		return err
	}
	d.out.note("note", "the skill's instructions follow the user's message; a later step does not add them again")
	return nil
}

// referencedPath finds the first file an instruction refers to below a
// skill's scripts, references or assets directory.
var referencedPath = regexp.MustCompile("(?:^|[\\s`(])((?:scripts|references|assets)/[A-Za-z0-9_./-]*[A-Za-z0-9_-])")

// readResource shows the resource-read tool: the model reads a file that a
// skill's instructions refer to. A remote skill's file is read when a
// remote skills server is given (-mcp-url, -mcp-command), since that is
// what the tool is for: the model has no other way to reach it. Without
// one, a local skill's file is read; the model could also open that one
// with its own file tools.
func (d *demo) readResource(ctx context.Context) error {
	d.section("The model reads a file a skill refers to with the `skill_resource` tool")
	type candidate struct {
		name  string
		p     skills.Provider
		where string // a remote skill's origin, "" for a local one
	}
	var remotes []candidate
	if d.remote != nil {
		remotes = append(remotes, candidate{p: d.remote, where: "the MCP server"})
	}
	if d.web != nil {
		remotes = append(remotes, candidate{p: d.web, where: "the website"})
	}
	var candidates []candidate
	for _, r := range remotes {
		obs, err := r.p.List(ctx, skills.ListRequest{SessionID: demoSession, Cwd: d.project})
		if err == nil {
			for _, s := range obs.Skills {
				candidates = append(candidates, candidate{s.Name, r.p, r.where})
			}
		}
	}
	// Every local skill the model may load, the one loaded above first.
	locals, err := d.loadableSkills(ctx, true)
	if err != nil {
		return err
	}
	for _, name := range locals {
		candidates = append(candidates, candidate{name, d.fsys, ""})
	}
	for _, c := range candidates {
		def, found, err := c.p.Load(ctx, skills.LoadRequest{SessionID: demoSession, Cwd: d.project, Name: c.name})
		if err != nil || !found {
			continue
		}
		m := referencedPath.FindStringSubmatch(def.Content)
		if m == nil {
			continue
		}
		if err := d.noteResource(ctx, c.name, c.where); err != nil {
			return err
		}
		return d.read(ctx, c.name, m[1])
	}
	d.out.note("note", "no skill's instructions refer to a file below scripts/, references/ or assets/; skipped")
	return nil
}

// noteResource says whose file the model reads, and has it load that
// skill first unless it did above: a remote skill's `skill` result names
// the resource tool, and a local skill's instructions are where the model
// learns of the file.
func (d *demo) noteResource(ctx context.Context, name, where string) error {
	which := "the local skill " + name + ", loaded first"
	if name == d.loaded {
		which = name + ", the local skill loaded above"
	}
	remote := where != ""
	switch {
	case remote:
		d.out.note("note", name+" is a remote skill: its files are on "+where+", and the skill_resource tool reads them through the host")
	case d.remote != nil || d.web != nil:
		d.out.note("note", "no remote skill refers to a file; a file of "+which+", is read instead")
	default:
		d.out.note("note", "without -mcp-url or -mcp-command the model reads a file of "+which+" (its own file tools could too); with a remote skills server, such as skillcatalog serve-mcp -skills testdata/remote-skills, it reads a remote skill's file")
	}
	if remote || name != d.loaded {
		return d.call(ctx, name)
	}
	return nil
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
	names := []string{"Not A Name", "no-such-skill"}
	hidden, err := d.loadableSkill(ctx, false)
	if err != nil {
		return err
	}
	if hidden != "" {
		names = append(names, hidden)
	}
	if d.opts.skillsDir == "" {
		names = append(names, "team-handbook") // the scripted provider that fails
	}
	for _, name := range names {
		if err := d.call(ctx, name); err != nil {
			return err
		}
	}
	if hidden == "" {
		d.out.note("note", "no skill in "+d.skillsLabel()+" sets disable-model-invocation, so the error for one is not shown")
	}
	if d.opts.skillsDir != "" {
		d.out.note("note", "a provider's own error (Error: <message>) shows without -skills, from a scripted failing provider")
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

// showTrace prints the spans of what the demo just did, with -trace.
func (d *demo) showTrace() {
	if d.spans != nil {
		d.out.trace(d.spans.take())
	}
}

func (d *demo) section(title string) {
	d.sections++
	d.out.section(d.sections, title)
}

// step runs the next model step, with the user's messages that arrived
// since the previous one.
func (d *demo) step(ctx context.Context, user ...hostsdk.Message) error {
	d.steps++
	res, err := d.host.Session(demoSession, &hostsdk.SessionOptions{Cwd: d.project, AgentScope: demoAgent}).Step(ctx, hostsdk.Decision{Messages: user}, &hostsdk.StepOptions{Turn: 1, Step: d.steps})
	if err != nil {
		return err
	}
	d.out.step(d.steps, res)
	d.showTrace()
	if res.Outcome == hostsdk.OutcomeIncomplete {
		d.out.note("why", d.incompleteReason())
	}
	d.noteDegraded(res.Reasons)
	return nil
}

// noteDegraded prints the step's provider-degraded reasons (a best-effort
// source, the MCP server, that could not be read) when they differ from the
// previous step's, so an outage is told once, not at every step.
func (d *demo) noteDegraded(reasons []hostsdk.Reason) {
	var lines []string
	for _, r := range reasons {
		if r.Code == contract.ReasonProviderDegraded {
			lines = append(lines, r.Detail)
		}
	}
	now := strings.Join(lines, "\n")
	if now == d.degraded {
		return
	}
	d.degraded = now
	for _, l := range lines {
		d.out.note("degraded", l)
	}
}

// incompleteReason says in one line why skill discovery was incomplete:
// the newest problem a provider reported.
func (d *demo) incompleteReason() string {
	if d.remote != nil {
		if why := d.remote.ListError(); why != "" {
			return "mcp: " + why
		}
	}
	for _, diag := range d.fsys.Diagnostics() {
		if diag.Severity == agentskills.SeverityError && diag.Skill == "" {
			return d.userPaths(diag.String()) // a root that could not be read
		}
	}
	return "a skill provider could not list its skills; -diagnostics shows what they reported"
}

func (d *demo) call(ctx context.Context, name string) error {
	args, err := json.Marshal(map[string]string{"name": name})
	if err != nil {
		return err
	}
	res, err := d.host.Session(demoSession, &hostsdk.SessionOptions{Cwd: d.project, AgentScope: demoAgent}).CallTool(ctx, hostsdk.ToolCall{Name: contract.SkillToolName, Arguments: args})
	if err != nil {
		return err
	}
	d.out.tool(name, res)
	d.showTrace()
	if !res.IsError {
		if d.shown == nil {
			d.shown = map[string]bool{}
		}
		d.shown[name] = true
	}
	return nil
}

// read calls the resource-read tool for a skill's file, from its start.
func (d *demo) read(ctx context.Context, name, path string) error {
	args, err := json.Marshal(map[string]string{"name": name, "path": path})
	if err != nil {
		return err
	}
	res, err := d.host.Session(demoSession, &hostsdk.SessionOptions{Cwd: d.project, AgentScope: demoAgent}).CallTool(ctx, hostsdk.ToolCall{Name: contract.ResourceToolName, Arguments: args})
	if err != nil {
		return err
	}
	d.out.resource(name, path, res)
	d.showTrace()
	return nil
}

// loadableSkill returns a skill of the skills directory that the model can
// (modelInvocable) or cannot load, preferring the examples' pdf-forms and
// deploy-production, else the first by name; "" when there is none.
func (d *demo) loadableSkill(ctx context.Context, modelInvocable bool) (string, error) {
	names, err := d.loadableSkills(ctx, modelInvocable)
	if err != nil || len(names) == 0 {
		return "", err
	}
	return names[0], nil
}

// loadableSkills returns the skills of the skills directory that the
// model can (modelInvocable) or cannot load: the one loaded in the third
// section first, then the examples' pdf-forms (or deploy-production),
// then the others by name.
func (d *demo) loadableSkills(ctx context.Context, modelInvocable bool) ([]string, error) {
	obs, err := d.fsys.List(ctx, skills.ListRequest{SessionID: demoSession, Cwd: d.project})
	if err != nil {
		return nil, err
	}
	preferred := "deploy-production"
	if modelInvocable {
		preferred = "pdf-forms"
	}
	var names []string
	for _, s := range obs.Skills {
		if s.Invocation.ModelInvocable == modelInvocable && skill.ValidName(s.Name) {
			names = append(names, s.Name)
		}
	}
	slices.Sort(names)
	for _, first := range []string{preferred, d.loaded} {
		if i := slices.Index(names, first); i > 0 {
			names = append(append([]string{first}, names[:i]...), names[i+1:]...)
		}
	}
	return names, nil
}

// userInvocableSkill returns a skill of the skills directory that the
// user can invoke by name: one the model cannot load if there is one
// (the examples' deploy-production first), else the first by name of
// those the model has not loaded above, whose instructions were shown
// already, else the first the model loaded; "" when there is none.
func (d *demo) userInvocableSkill(ctx context.Context) (string, error) {
	obs, err := d.fsys.List(ctx, skills.ListRequest{SessionID: demoSession, Cwd: d.project})
	if err != nil {
		return "", err
	}
	var userOnly, others, shown []string
	for _, s := range obs.Skills {
		switch {
		case !s.Invocation.UserInvocable || !skill.ValidName(s.Name):
		case !s.Invocation.ModelInvocable:
			userOnly = append(userOnly, s.Name)
		case d.shown[s.Name]:
			shown = append(shown, s.Name)
		default:
			others = append(others, s.Name)
		}
	}
	switch {
	case slices.Contains(userOnly, "deploy-production"):
		return "deploy-production", nil
	case len(userOnly) > 0:
		return slices.Min(userOnly), nil
	case len(others) > 0:
		return slices.Min(others), nil
	case len(shown) > 0:
		return slices.Min(shown), nil
	}
	return "", nil
}

// skillsLabel names the skills the demo runs on, as the user gave them.
func (d *demo) skillsLabel() string {
	if d.opts.skillsDir != "" {
		return d.opts.skillsDir
	}
	return "the example skills"
}

// userPaths rewrites paths inside the demo's copy of the user's skills
// directory to the user's own paths.
func (d *demo) userPaths(s string) string {
	if d.opts.skillsDir == "" {
		return s
	}
	return strings.ReplaceAll(s, d.userRoot, filepath.Clean(d.opts.skillsDir))
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

// prefixWriter writes to w with prefix at the start of every line, so that
// the lines of a server's stderr stand apart from the demo's own. Writes
// are serialized.
type prefixWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	mid    bool // the last write ended inside a line
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var buf []byte
	for rest := b; len(rest) > 0; {
		if !p.mid {
			buf = append(buf, p.prefix...)
		}
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		buf = append(buf, line...)
		rest = rest[len(line):]
		p.mid = line[len(line)-1] != '\n'
	}
	if _, err := p.w.Write(buf); err != nil {
		return 0, err
	}
	return len(b), nil
}
