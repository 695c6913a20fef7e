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

	"github.com/hashicorp/go-hclog"

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
	out      *reporter
	host     *hostsdk.Host
	fsys     *agentskills.Provider
	root     string // the skills root the provider watches
	project  string // the session's working directory
	steps    int
	sections int
}

func runDemo(ctx context.Context, o demoOptions, out *reporter) (err error) {
	work, err := os.MkdirTemp("", "skillcatalog-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	root := filepath.Join(work, "skills")
	var src fs.FS = skillcatalog.ExampleSkills()
	if o.skillsDir != "" {
		src = os.DirFS(o.skillsDir)
	}
	if err := os.CopyFS(root, src); err != nil {
		return fmt.Errorf("copy skills: %w", err)
	}
	home := filepath.Join(work, "home") // keeps the user's own skills out of the demo
	project := filepath.Join(work, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	sessionDir := o.sessionDir
	if sessionDir == "" {
		sessionDir = filepath.Join(work, "sessions")
	}
	store, err := sessionlog.NewFileStore(sessionDir)
	if err != nil {
		return err
	}

	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the plugin binary: %w", err)
	}
	fsys, err := agentskills.New(agentskills.Options{ExtraRoots: []string{root}, HomeDir: home, Watch: true})
	if err != nil {
		return err
	}
	defer fsys.Close()

	tree := tools.NewTree()
	if err := tree.AddScope(demoAgent, tools.GlobalScope); err != nil {
		return err
	}
	reg := skills.NewRegistry()
	reg.AddProvider(tools.GlobalScope, fsys, skills.ProviderOptions{})
	var remote *mcpskills.Provider
	removeRemote := func() {}
	if o.mcpURL != "" || o.mcpCommand != "" {
		remote, err = mcpskills.New(mcpskills.Config{URL: o.mcpURL, Command: strings.Fields(o.mcpCommand), Headers: o.mcpHeaders.m})
		if err != nil {
			return fmt.Errorf("remote skills: %w", err)
		}
		defer remote.Close()
		// Local skills rank above remote ones of the same name.
		removeRemote = reg.AddProvider(tools.GlobalScope, remote, skills.ProviderOptions{Rank: -1})
	}
	removeHandbook := reg.AddProvider(tools.GlobalScope, handbookProvider{}, skills.ProviderOptions{})

	host, err := hostsdk.New(hostsdk.Config{Tools: tree, Skills: reg, Sessions: store, Logger: hclog.New(&hclog.LoggerOptions{Output: io.Discard})})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := host.Close(); err == nil {
			err = cerr
		}
	}()
	plugin, err := host.Load(ctx, hostsdk.LoadOptions{Path: exe})
	if err != nil {
		return err
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, ""); err != nil {
		return err
	}
	d := &demo{out: out, host: host, fsys: fsys, root: root, project: project}

	d.section("The first model step publishes the initial catalog")
	if err := d.step(ctx); err != nil {
		return err
	}
	if o.diagnostics {
		for _, diag := range fsys.Diagnostics() {
			out.note("diagnostic", diag.String())
		}
		if remote != nil {
			for _, diag := range remote.Diagnostics() {
				out.note("diagnostic", "mcp: "+diag)
			}
		}
	}

	d.section("Nothing changed: the next step adds nothing")
	if err := d.step(ctx); err != nil {
		return err
	}

	d.section("The model loads a skill with the `skill` tool")
	first := d.firstSkill()
	if err := d.call(ctx, first); err != nil {
		return err
	}

	d.section("A skill is added on disk: a complete replacement")
	if err := d.writeSkill("sql-migrations", addedSkill); err != nil {
		return err
	}
	if err := d.step(ctx); err != nil {
		return err
	}

	d.section("A description is edited: a complete replacement")
	if err := d.editSkill("sql-migrations", func(s string) string {
		return strings.Replace(s, "description: Write reversible SQL migrations", "description: Write safe, reversible SQL migrations", 1)
	}); err != nil {
		return err
	}
	if err := d.step(ctx); err != nil {
		return err
	}

	d.section("Only a body is edited: no message, but the next load shows the new body")
	if err := d.editSkill("sql-migrations", func(s string) string {
		return s + "4. Name migrations after what they change, not when.\n"
	}); err != nil {
		return err
	}
	if err := d.step(ctx); err != nil {
		return err
	}
	if err := d.call(ctx, "sql-migrations"); err != nil {
		return err
	}

	d.section("Every error the `skill` tool reports")
	for _, name := range []string{"Not A Name", "no-such-skill", "deploy-production", "team-handbook"} {
		if err := d.call(ctx, name); err != nil {
			return err
		}
	}

	d.section("Every skill is removed: the empty tombstone")
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			return err
		}
	}
	removeHandbook()
	removeRemote() // remote skills are the server's to delete; the demo stops listing them
	fsys.Invalidate()
	if err := d.step(ctx); err != nil {
		return err
	}
	if err := d.call(ctx, "sql-migrations"); err != nil {
		return err
	}

	d.section("The durable session log")
	log, err := store.Open(ctx, demoSession)
	if err != nil {
		return err
	}
	defer log.Close()
	head, err := log.Head(ctx)
	if err != nil {
		return err
	}
	if o.keepSession {
		out.note("session", fmt.Sprintf("%d durable events kept in %s", head.Seq, store.Path(demoSession)))
	} else {
		out.note("session", fmt.Sprintf("%d durable events were written (-keep-session keeps the file)", head.Seq))
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
	res, err := d.host.CallTool(ctx, hostsdk.ToolCall{SessionID: demoSession, Cwd: d.project, AgentScope: demoAgent, Name: "skill", Arguments: string(args)})
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
