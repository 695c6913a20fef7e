package conformance

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// DefaultWait bounds how long a cancelled pre-step waits for a provider to
// report that it observed the cancellation.
const DefaultWait = 30 * time.Second

// DefaultStepTimeout bounds one pre-step or tool call, so a plugin that
// hangs fails its scenario instead of stalling the suite.
const DefaultStepTimeout = time.Minute

// Runner runs scenarios against a plugin binary through the host SDK.
type Runner struct {
	// PluginPath is the plugin binary. Every scenario starts its own
	// process of it.
	PluginPath string
	// InProcess runs every scenario against the plugin's rules in this
	// process (hostsdk.LoadOptions.InProcess) instead of a binary;
	// PluginPath must then be empty.
	InProcess bool
	// Logger receives the SDK's and the plugin's log output; nil discards.
	Logger *slog.Logger
	// Wait bounds waiting for a provider to observe a cancellation; zero
	// means DefaultWait.
	Wait time.Duration
	// StepTimeout bounds each pre-step and tool call; zero means
	// DefaultStepTimeout.
	StepTimeout time.Duration
}

// Result is the outcome of one scenario.
type Result struct {
	Name string
	File string
	// Failures each name the step that failed and what differed; empty
	// when the scenario passed. Steps after a failing one are not run.
	Failures []string
}

// Passed reports whether the scenario passed.
func (r Result) Passed() bool { return len(r.Failures) == 0 }

// env is the host-side world of one running scenario.
type env struct {
	// projectDir is where the scenario's project was copied ("" without
	// one).
	projectDir  string
	ctx         context.Context
	r           *Runner
	s           *scenario
	wait        time.Duration
	stepTimeout time.Duration

	store sessionlog.Store
	tree  *tools.Tree
	reg   *skills.Registry
	host  *hostsdk.Host
	// replica is a second host on the same store and skills, with a scope
	// tree of its own and its own plugin instance, started by the first
	// step that asks for it (preStep.replica); nil until then.
	replica   *hostsdk.Host
	providers map[string]*scriptedProvider
	sites     []*site              // websites read by real web providers
	runtime   map[string]skillSpec // scope NUL name → registration
	shadows   map[string]string    // scope NUL tool → shadow's identity
	started   chan skilltest.Call  // hanging providers announce themselves here
	preSteps  map[string]int       // pre-steps run per session
	after     []string             // changes since the last checked step
	resources string               // where runtime registrations' resources are written
}

// loadOptions says how every scenario's host runs the plugin: a binary
// needs a path, and a Runner that sets both is refused by Load.
func (r *Runner) loadOptions() *hostsdk.LoadOptions {
	opts := &hostsdk.LoadOptions{InProcess: r.InProcess}
	if r.PluginPath != "" || !r.InProcess {
		opts.Launcher = pluginproc.Binary{Path: r.PluginPath}
	}
	return opts
}

// Run executes one scenario in a fresh host: its own scope tree, skill
// registry, scripted providers, file-backed session store in a temporary
// directory and plugin process, all closed before Run returns.
func (r *Runner) Run(ctx context.Context, s *Scenario) Result {
	return r.run(ctx, s.s)
}

func (r *Runner) run(ctx context.Context, s *scenario) (res Result) {
	res = Result{Name: s.Name, File: s.File}
	fail := func(format string, args ...any) {
		res.Failures = append(res.Failures, fmt.Sprintf(format, args...))
	}
	dir, err := os.MkdirTemp("", "skillcatalog-conform-")
	if err != nil {
		fail("setup: %v", err)
		return res
	}
	defer os.RemoveAll(dir)
	e, err := r.newEnv(ctx, s, dir)
	if err != nil {
		fail("setup: %v", err)
		return res
	}
	defer e.closeSites()
	defer func() {
		if err := e.host.Close(); err != nil {
			fail("close host: %v", err)
		}
		if e.replica != nil {
			if err := e.replica.Close(); err != nil {
				fail("close the replica: %v", err)
			}
		}
	}()
	plugin, err := e.host.Load(ctx, r.loadOptions())
	if err != nil {
		fail("load plugin: %v", err)
		return res
	}
	_, err = plugin.MountJSON(ctx, s.Plugin.Scope, s.Plugin.Config)
	e.checkMount(err, fail)
	if len(res.Failures) > 0 {
		return res
	}
	for i := range s.Steps {
		if failures := e.runStep(i); len(failures) > 0 {
			res.Failures = append(res.Failures, failures...)
			if rest := len(s.Steps) - i - 1; rest > 0 {
				fail("%d later step(s) not run", rest)
			}
			break
		}
	}
	return res
}

// newEnv builds a scenario's world in dir: scopes, skills, providers,
// seeded session logs and the Host, with the plugin not yet loaded.
func (r *Runner) newEnv(ctx context.Context, s *scenario, dir string) (*env, error) {
	ro, err := lockOptions(s.Lock)
	if err != nil {
		return nil, err
	}
	reg, err := skills.NewRegistry(ro)
	if err != nil {
		return nil, err
	}
	e := &env{
		ctx:         ctx,
		r:           r,
		s:           s,
		wait:        r.Wait,
		stepTimeout: r.StepTimeout,
		tree:        tools.NewTree(),
		reg:         reg,
		providers:   make(map[string]*scriptedProvider),
		runtime:     make(map[string]skillSpec),
		shadows:     make(map[string]string),
		started:     make(chan skilltest.Call, 64),
		preSteps:    make(map[string]int),
		resources:   filepath.Join(dir, "resources"),
	}
	if e.wait <= 0 {
		e.wait = DefaultWait
	}
	if e.stepTimeout <= 0 {
		e.stepTimeout = DefaultStepTimeout
	}
	if e.store, err = sessionlog.NewFileStore(filepath.Join(dir, "sessions"), nil); err != nil {
		return nil, err
	}
	if err := e.startProject(dir); err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if err := e.setup(); err != nil {
		e.closeSites()
		return nil, err
	}
	if e.host, err = hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: e.store, Logger: r.Logger, ToolGrants: e.toolGrants()}); err != nil {
		return nil, err
	}
	return e, nil
}

// checkMount checks the mount's error against the scenario's configError:
// a refused configuration must be refused with that message and leave no
// `skill` tool behind; any other must mount.
func (e *env) checkMount(err error, fail func(string, ...any)) {
	p := e.s.Plugin
	want := p.ConfigError
	if want == nil {
		if err != nil {
			fail("mount in %s: %v", p.Scope, err)
		}
		return
	}
	var cerr *hostsdk.ConfigError
	switch {
	case err == nil:
		fail("mount in %s with configuration %s: accepted, want the configuration error %s", p.Scope, p.Config, want.describe())
	case !errors.As(err, &cerr):
		fail("mount in %s: %v, want a configuration error", p.Scope, err)
	default:
		if d := textDiff(want, cerr.Message); d != "" {
			fail("mount in %s with configuration %s: configuration error (-want +got):\n%s", p.Scope, p.Config, d)
		}
	}
	if _, _, ok := e.tree.Resolve(p.Scope, contract.SkillToolName); ok && err != nil {
		fail("mount in %s: the refused configuration left a `skill` tool registered", p.Scope)
	}
}

// setup builds the scopes, seeds the session logs and registers skills and
// providers.
func (e *env) setup() error {
	for _, a := range e.s.Agents {
		if err := e.tree.AddScope(a.Scope, a.Parent); err != nil {
			return err
		}
	}
	for _, ss := range e.s.Sessions {
		if len(ss.Events) == 0 {
			continue
		}
		if err := e.appendEvents(ss.ID, ss.Events); err != nil {
			return fmt.Errorf("seed session %q: %w", ss.ID, err)
		}
	}
	for _, ps := range e.s.Providers {
		p := newScriptedProvider(ps, e.started)
		e.providers[ps.ID] = p
		e.reg.AddProvider(ps.Scope, p.attached(), &skills.ProviderOptions{Rank: ps.Rank, Label: ps.Label, Availability: availability(ps.Availability)})
	}
	for _, st := range e.s.Sites {
		if err := e.startSite(st); err != nil {
			return err
		}
	}
	for _, sk := range e.s.Skills {
		if err := e.addSkill(sk); err != nil {
			return err
		}
	}
	return nil
}

// closeSites stops the scenario's sites and their providers.
func (e *env) closeSites() {
	for _, s := range e.sites {
		s.close()
	}
}

func (e *env) addSkill(sk skillSpec) error {
	if sk.Provider != "" {
		e.providers[sk.Provider].add(sk)
		return nil
	}
	rs := runtimeSkill(sk)
	if len(sk.Resources) > 0 {
		dir, err := e.writeResources(sk)
		if err != nil {
			return err
		}
		rs.ResourceBase = &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}
	}
	if err := e.reg.Register(sk.Scope, rs); err != nil {
		return err
	}
	e.runtime[sk.Scope+"\x00"+sk.Name] = sk
	return nil
}

// writeResources writes a runtime registration's resources below a fresh
// directory and returns it.
func (e *env) writeResources(sk skillSpec) (string, error) {
	if err := os.MkdirAll(e.resources, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(e.resources, sk.Name+"-")
	if err != nil {
		return "", err
	}
	for path, content := range sk.Resources {
		file := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			return "", fmt.Errorf("skill %q: write resource %q: %w", sk.Name, path, err)
		}
	}
	return dir, nil
}

func runtimeSkill(sk skillSpec) skills.RuntimeSkill {
	pol := policy(sk)
	rs := skills.RuntimeSkill{
		Name:          sk.Name,
		Description:   sk.Description,
		Invocation:    &pol,
		Provider:      sk.Label,
		Content:       sk.Body,
		Rank:          sk.Rank,
		Paths:         sk.Paths,
		WhenToUse:     sk.WhenToUse,
		ArgumentNames: sk.ArgumentNames,
	}
	if len(sk.AllowedTools) > 0 || len(sk.DisallowedTools) > 0 {
		rs.Directives = &skill.Directives{AllowedTools: sk.AllowedTools, DisallowedTools: sk.DisallowedTools}
	}
	if rb := sk.ResourceBase; rb != nil {
		rs.ResourceBase = &skill.ResourceBase{Kind: skill.ResourceKind(rb.Kind), Path: rb.Path, URL: rb.URL, Description: rb.Description}
	}
	return rs
}

func (e *env) openLog(session string) (sessionlog.Log, error) {
	return e.store.Open(e.ctx, session)
}

func (e *env) appendEvents(session string, evs []eventSpec) error {
	recs := make([]sessionlog.Record, len(evs))
	for i, ev := range evs {
		rec, err := ev.record()
		if err != nil {
			return err
		}
		recs[i] = rec
	}
	log, err := e.openLog(session)
	if err != nil {
		return err
	}
	defer log.Close()
	_, err = log.Append(e.ctx, recs...)
	return err
}

func (ev eventSpec) record() (sessionlog.Record, error) {
	rec := sessionlog.Record{Type: ev.Type}
	if ev.Source != nil {
		rec.Source = []byte(*ev.Source)
	}
	if h := ev.Hide; h != nil {
		rec.Hide = &sessionlog.Range{From: h.From, To: h.To}
	}
	switch {
	case ev.Body != nil:
		rec.Body = []byte(*ev.Body)
	case ev.Hide == nil && ev.Type == sessionlog.TypeMessage:
		role := hostsdk.Role(ev.Role)
		if role == "" {
			role = hostsdk.RoleUser
		}
		body, err := json.Marshal(hostsdk.Message{ID: ev.ID, Role: role, Content: []hostsdk.ContentBlock{{Type: "text", Text: ev.Text}}})
		if err != nil {
			return rec, err
		}
		rec.Body = body
	}
	return rec, nil
}

// readLog returns every event of a session, oldest first.
func (e *env) readLog(session string) ([]sessionlog.Event, error) {
	log, err := e.openLog(session)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	var newestFirst []sessionlog.Event
	var before uint64
	for {
		page, err := log.ReadBackward(e.ctx, before, 0, 1024)
		if err != nil {
			return nil, err
		}
		newestFirst = append(newestFirst, page.Events...)
		if !page.More || len(page.Events) == 0 {
			break
		}
		before = page.Events[len(page.Events)-1].Seq
	}
	out := make([]sessionlog.Event, len(newestFirst))
	for i, ev := range newestFirst {
		out[len(out)-1-i] = ev
	}
	return out, nil
}

// runStep runs step i and returns its failures.
func (e *env) runStep(i int) []string {
	st := &e.s.Steps[i]
	label := fmt.Sprintf("step %d", i+1)
	if st.Name != "" {
		label += fmt.Sprintf(" %q", st.Name)
	}
	what := describeStep(st)
	switch {
	case st.PreStep != nil, st.ToolCall != nil:
		if len(e.after) > 0 {
			what += "; after: " + strings.Join(e.after, ", ")
		}
		e.after = nil
	default:
		e.after = append(e.after, what)
	}
	label += " (" + what + ")"

	var failures []string
	fail := func(format string, args ...any) {
		failures = append(failures, label+": "+fmt.Sprintf(format, args...))
	}
	if err := e.mutate(st); err != nil {
		fail("%v", err)
		return failures
	}
	switch {
	case st.PreStep != nil:
		e.preStep(st.PreStep, st.Expect, fail)
	case st.ToolCall != nil:
		e.toolCall(st.ToolCall, st.Expect, fail)
	case st.Grants != nil:
		e.grants(st.Grants, fail)
	}
	return failures
}

// toolGrants is the host's grant mode the scenario asks for.
func (e *env) toolGrants() hostsdk.ToolGrants {
	switch e.s.Plugin.ToolGrants {
	case "enforce":
		return hostsdk.ToolGrantsEnforce
	case "strict":
		return hostsdk.ToolGrantsStrict
	}
	return hostsdk.ToolGrantsOff
}

// grants checks the tools the session may offer and call now.
func (e *env) grants(a *grantsAction, fail func(string, ...any)) {
	sess := e.host.Session(a.Session, nil)
	if got := sess.OfferedTools(a.All); !slices.Equal(got, a.Offered) {
		fail("offered tools %q, want %q", got, a.Offered)
	}
	for _, tool := range a.All {
		refusal, ok := sess.CheckToolCall(tool)
		want, refused := a.Refused[tool]
		switch {
		case refused && ok:
			fail("a call of %s is allowed, want it refused with %q", tool, want)
		case refused && refusal != want:
			fail("a call of %s is refused with %q, want %q", tool, refusal, want)
		case !refused && !ok:
			fail("a call of %s is refused with %q, want it allowed", tool, refusal)
		}
	}
}

// mutate applies a step that changes the world (every action but preStep
// and toolCall).
func (e *env) mutate(st *stepSpec) error {
	switch {
	case st.AddSkill != nil:
		return e.addSkill(*st.AddSkill)
	case st.RemoveSkill != nil:
		r := st.RemoveSkill
		if r.Provider != "" {
			if !e.providers[r.Provider].remove(r.Name) {
				return fmt.Errorf("provider %q offers no skill %q", r.Provider, r.Name)
			}
			return nil
		}
		if !e.reg.Unregister(r.Scope, r.Name) {
			return fmt.Errorf("no skill %q is registered in scope %q", r.Name, r.Scope)
		}
		delete(e.runtime, r.Scope+"\x00"+r.Name)
	case st.ChangeSkill != nil:
		ch := st.ChangeSkill
		if ch.Provider != "" {
			if !e.providers[ch.Provider].change(ch) {
				return fmt.Errorf("provider %q offers no skill %q", ch.Provider, ch.Name)
			}
			return nil
		}
		key := ch.Scope + "\x00" + ch.Name
		sk, ok := e.runtime[key]
		if !ok {
			return fmt.Errorf("no skill %q is registered in scope %q", ch.Name, ch.Scope)
		}
		applyChange(&sk, ch)
		return e.addSkill(sk)
	case st.SetProvider != nil:
		e.providers[st.SetProvider.ID].setState(st.SetProvider)
	case st.Restrict != nil:
		return e.tree.Restrict(st.Restrict.Scope, st.Restrict.Tool)
	case st.Unrestrict != nil:
		return e.tree.Unrestrict(st.Unrestrict.Scope, st.Unrestrict.Tool)
	case st.Shadow != nil:
		r := st.Shadow
		key := r.Scope + "\x00" + r.Tool
		if _, ok := e.shadows[key]; ok {
			return fmt.Errorf("scope %q already has a shadow %q", r.Scope, r.Tool)
		}
		id, err := e.tree.Register(r.Scope, tools.Definition{
			Name:        r.Tool,
			Description: "A same-name tool of the runtime's own, not the plugin's.",
			InputSchema: json.RawMessage(`{"type":"object"}`),
		})
		if err != nil {
			return err
		}
		e.shadows[key] = id
	case st.Unshadow != nil:
		r := st.Unshadow
		key := r.Scope + "\x00" + r.Tool
		id, ok := e.shadows[key]
		if !ok {
			return fmt.Errorf("scope %q has no shadow %q", r.Scope, r.Tool)
		}
		e.tree.Unregister(id)
		delete(e.shadows, key)
	case st.Compact != nil:
		return e.compact(st.Compact)
	case st.AppendEvents != nil:
		return e.appendEvents(st.AppendEvents.Session, st.AppendEvents.Events)
	case st.SelectSkills != nil:
		return e.selectSkills(st.SelectSkills)
	case st.RestartHost != nil:
		return e.restartHost()
	}
	return nil
}

func (e *env) selectSkills(a *selectAction) error {
	sel := hostsdk.Selection{
		IncludeNames:     a.IncludeNames,
		ExcludeNames:     a.ExcludeNames,
		IncludeProviders: a.IncludeProviders,
		ExcludeProviders: a.ExcludeProviders,
	}
	err := e.host.Session(a.Session, nil).SelectSkills(e.ctx, sel)
	switch {
	case a.Error == nil:
		return err
	case err == nil:
		return fmt.Errorf("the selection was accepted, want the error %s", a.Error.describe())
	}
	if d := textDiff(a.Error, err.Error()); d != "" {
		return fmt.Errorf("selection error (-want +got):\n%s", d)
	}
	return nil
}

// replicaHost returns the scenario's replica, starting it the first time:
// a host on the same session store and skill registry, with the
// scenario's agents in a scope tree of its own (restrictions and shadows
// apply to the first host's tree only) and the plugin loaded and mounted
// as for the first host, as another replica of a fleet would be.
func (e *env) replicaHost() (*hostsdk.Host, error) {
	if e.replica != nil {
		return e.replica, nil
	}
	tree := tools.NewTree()
	for _, a := range e.s.Agents {
		if err := tree.AddScope(a.Scope, a.Parent); err != nil {
			return nil, err
		}
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: e.reg, Sessions: e.store, Logger: e.r.Logger, ToolGrants: e.toolGrants()})
	if err != nil {
		return nil, err
	}
	plugin, err := host.Load(e.ctx, e.r.loadOptions())
	if err == nil && e.s.Plugin.ConfigError == nil {
		_, err = plugin.MountJSON(e.ctx, e.s.Plugin.Scope, e.s.Plugin.Config)
	}
	if err != nil {
		host.Close()
		return nil, fmt.Errorf("replica: %w", err)
	}
	e.replica = host
	return host, nil
}

// restartHost closes the host, which stops its plugin process and removes
// the plugin's tools, and starts a new host on the same store, scopes and
// skills with the plugin mounted as before.
func (e *env) restartHost() error {
	if err := e.host.Close(); err != nil {
		return fmt.Errorf("close host: %w", err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: e.tree, Skills: e.reg, Sessions: e.store, Logger: e.r.Logger, ToolGrants: e.toolGrants()})
	if err != nil {
		return err
	}
	e.host = host
	plugin, err := host.Load(e.ctx, e.r.loadOptions())
	if err != nil {
		return fmt.Errorf("load plugin: %w", err)
	}
	if e.s.Plugin.ConfigError != nil {
		return nil // the first host ran without a mount too
	}
	if _, err := plugin.MountJSON(e.ctx, e.s.Plugin.Scope, e.s.Plugin.Config); err != nil {
		return fmt.Errorf("mount in %s: %w", e.s.Plugin.Scope, err)
	}
	return nil
}

func (e *env) compact(a *compactAction) error {
	log, err := e.openLog(a.Session)
	if err != nil {
		return err
	}
	defer log.Close()
	head, err := log.Head(e.ctx)
	if err != nil {
		return err
	}
	from, to := a.From, a.To
	if from == 0 {
		from = 1
	}
	if to == 0 {
		to = head.Seq
	}
	if to == 0 || to > head.Seq || from > to {
		return fmt.Errorf("cannot hide events %d..%d of session %q, whose head is %d", from, to, a.Session, head.Seq)
	}
	_, err = log.Append(e.ctx, sessionlog.Record{Type: "compaction", Hide: &sessionlog.Range{From: from, To: to}})
	return err
}

func (e *env) preStep(a *preStepAction, exp *expectation, fail func(string, ...any)) {
	e.preSteps[a.Session]++
	step := e.hostStep(a)
	ctx, cancel := context.WithTimeout(e.ctx, e.stepTimeout)
	defer cancel()
	var res hostsdk.StepResult
	var err error
	host := e.host
	if a.Replica {
		if host, err = e.replicaHost(); err != nil {
			fail("start the replica: %v", err)
			return
		}
	}
	if a.Cancel {
		res, err = e.cancelledPreStep(ctx, step)
	} else {
		res, err = runStep(ctx, host, step)
	}
	if exp == nil {
		exp = &expectation{}
	}
	switch {
	case exp.Error != nil && err == nil:
		fail("pre-step succeeded, want the error %s", exp.Error.describe())
	case exp.Error != nil:
		if d := textDiff(exp.Error, err.Error()); d != "" {
			fail("pre-step error (-want +got):\n%s", d)
		}
	case err != nil && exp.Outcome != string(hostsdk.OutcomePluginError):
		fail("pre-step failed: %v", err)
		return
	}
	checkDecision(step, res, exp, fail)
	for _, id := range exp.Cancelled {
		select {
		case <-e.providers[id].cancelled():
		case <-time.After(e.wait):
			fail("provider %q did not observe the cancellation within %s", id, e.wait)
		}
	}
	e.checkCommon(a.Session, exp, fail)
}

// runStep runs step through the handle of the session it names, with the
// session's directory, agent, preloaded and touched files as the step
// names them: a scenario's steps may vary each.
func runStep(ctx context.Context, host *hostsdk.Host, step hostsdk.Step) (hostsdk.StepResult, error) {
	s := host.Session(step.SessionID, &hostsdk.SessionOptions{Cwd: step.Cwd, AgentScope: step.AgentScope, PreloadSkills: step.PreloadSkills})
	s.Touch(step.TouchedPaths...)
	return s.Step(ctx, step.Downstream, &hostsdk.StepOptions{Turn: step.Turn, Step: step.Step})
}

// hostStep is the step a preStep action runs, defaults applied.
func (e *env) hostStep(a *preStepAction) hostsdk.Step {
	step := hostsdk.Step{SessionID: a.Session, Cwd: e.inProject(a.Cwd), AgentScope: a.Agent, Turn: a.Turn, Step: a.Step,
		TouchedPaths: e.inProjectAll(a.Touched), PreloadSkills: a.Preload}
	if step.Turn == 0 {
		step.Turn = 1
	}
	if step.Step == 0 {
		step.Step = e.preSteps[a.Session]
	}
	if ds := a.Downstream; ds != nil {
		if ds.Reject != nil {
			step.Downstream.Reject = &hostsdk.Reject{Reason: *ds.Reject}
		}
		for _, m := range ds.Messages {
			msg := hostsdk.Message{ID: m.ID, Role: hostsdk.Role(m.Role), Content: []hostsdk.ContentBlock{{Type: "text", Text: m.Text}}, UserInput: m.UserInput}
			if m.Source != nil {
				msg.Source = json.RawMessage(*m.Source)
			}
			step.Downstream.Messages = append(step.Downstream.Messages, msg)
		}
	}
	return step
}

// checkDecision checks a pre-step's outcome, decision and diagnostics
// against what exp expects of them.
func checkDecision(step hostsdk.Step, res hostsdk.StepResult, exp *expectation, fail func(string, ...any)) {
	if exp.Outcome != "" && string(res.Outcome) != exp.Outcome {
		fail("outcome: got %q, want %q", res.Outcome, exp.Outcome)
	}
	if exp.Reject != nil {
		switch got := res.Decision.Reject; {
		case got == nil:
			fail("decision: entered with %d message(s), want a rejection with reason %q", len(res.Decision.Messages), *exp.Reject)
		case got.Reason != *exp.Reject:
			fail("rejection reason: got %q, want %q", got.Reason, *exp.Reject)
		}
	} else if step.Downstream.Reject == nil && res.Decision.Reject != nil {
		fail("decision: rejected (%q), want an entering decision", res.Decision.Reject.Reason)
	}
	if exp.Messages != nil {
		if d := diffMessages(*exp.Messages, res.Decision.Messages); d != "" {
			fail("messages (-want +got):\n%s", d)
		}
	}
	added, removed := changes(step.Downstream.Messages, res.Decision.Messages)
	if exp.Added != nil {
		if d := diffMessages(*exp.Added, added); d != "" {
			fail("added messages (-want +got):\n%s", d)
		}
	}
	if exp.Removed != nil {
		if d := diff(*exp.Removed, removed); d != "" {
			fail("removed proposed messages (-want +got):\n%s", d)
		}
	}
	if exp.NothingAdded && (len(added) > 0 || len(removed) > 0) {
		fail("want the proposed messages unchanged; final messages (-proposed +final):\n%s",
			diff(viewMessages(step.Downstream.Messages), viewMessages(res.Decision.Messages)))
	}
	if exp.Diagnostics != nil {
		if d := diffTexts(*exp.Diagnostics, res.Diagnostics); d != "" {
			fail("diagnostics (-want +got):\n%s", d)
		}
	}
	if exp.Reasons != nil {
		if d := diffReasons(*exp.Reasons, res.Reasons); d != "" {
			fail("reasons (-want +got):\n%s", d)
		}
	}
}

// availability is a scripted provider's availability as the registry
// takes it.
func availability(a string) skills.Availability {
	switch a {
	case availabilityStrict:
		return skills.Strict
	case availabilityBestEffort:
		return skills.BestEffort
	}
	return skills.DefaultAvailability
}

// cancelledPreStep runs a pre-step and cancels its context as soon as a
// hanging provider has started listing.
func (e *env) cancelledPreStep(parent context.Context, step hostsdk.Step) (hostsdk.StepResult, error) {
	for _, p := range e.providers {
		p.drain()
	}
	for len(e.started) > 0 {
		<-e.started
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	type result struct {
		res hostsdk.StepResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := runStep(ctx, e.host, step)
		done <- result{res, err}
	}()
	select {
	case <-e.started:
		cancel()
		r := <-done
		return r.res, r.err
	case r := <-done:
		// Nothing hung, so there was nothing to cancel; the expectations
		// judge what the step did instead.
		return r.res, r.err
	}
}

func (e *env) toolCall(a *toolCallAction, exp *expectation, fail func(string, ...any)) {
	args := ""
	if a.Arguments != nil {
		args = *a.Arguments
	} else {
		b, _ := json.Marshal(map[string]string{"name": *a.Skill})
		args = string(b)
	}
	ctx, cancel := context.WithTimeout(e.ctx, e.stepTimeout)
	defer cancel()
	res, err := e.host.Session(a.Session, &hostsdk.SessionOptions{Cwd: e.inProject(a.Cwd), AgentScope: a.Agent}).CallTool(ctx, hostsdk.ToolCall{CallID: "conformance-call", Name: a.Tool, Arguments: json.RawMessage(args)})
	if exp == nil {
		exp = &expectation{}
	}
	var notFound *hostsdk.ToolNotFoundError
	switch {
	case exp.NotFound:
		if !errors.As(err, &notFound) {
			fail("want %q not to resolve to the plugin's tool for %s, got %s", a.Tool, a.Agent, describeCall(res, err))
		}
	case exp.Error != nil:
		if err == nil {
			fail("tool call succeeded, want the error %s", exp.Error.describe())
		} else if d := textDiff(exp.Error, err.Error()); d != "" {
			fail("tool call error (-want +got):\n%s", d)
		}
	case err != nil:
		fail("tool call failed: %v", err)
	default:
		got := viewTool(res)
		want := got
		if exp.IsError != nil {
			want.IsError = *exp.IsError
		}
		if exp.Text != nil {
			want.Text = exp.Text.want(got.Text)
		}
		switch {
		case exp.Value.Set:
			want.Value = exp.Value.Value
		case want.IsError:
			want.Value = nil // an error result carries no value
		}
		if d := diff(want, got); d != "" {
			fail("tool result (-want +got):\n%s", d)
		}
		if a.Record {
			e.recordResult(ctx, a.Session, res, fail)
		}
	}
	e.checkCommon(a.Session, exp, fail)
}

// recordResult appends a tool call's result to the session log as a host
// does: a tool-role message holding the result, with its source.
func (e *env) recordResult(ctx context.Context, session string, res hostsdk.ToolResult, fail func(string, ...any)) {
	block, err := hostsdk.ToolResultBlock("conformance-call", []hostsdk.ContentBlock{hostsdk.TextBlock(res.Text)}, res.IsError)
	if err == nil {
		_, err = e.host.Session(session, nil).Append(ctx, hostsdk.Message{Role: hostsdk.RoleTool, Content: []hostsdk.ContentBlock{block}, Source: res.Source})
	}
	if err != nil {
		fail("record the tool result: %v", err)
	}
}

func describeCall(res hostsdk.ToolResult, err error) string {
	if err != nil {
		return "the error " + err.Error()
	}
	return fmt.Sprintf("the result %q", res.Text)
}

// checkCommon checks the expectations both step kinds share.
func (e *env) checkCommon(session string, exp *expectation, fail func(string, ...any)) {
	if exp.Log != nil {
		evs, err := e.readLog(session)
		if err != nil {
			fail("read session %q: %v", session, err)
		} else {
			e.checkLog(session, exp.Log, evs, fail)
		}
	}
	for _, id := range sortedKeys(exp.Loads) {
		got, _ := e.providers[id].counters()
		if d := diff(exp.Loads[id], got); d != "" {
			fail("provider %q loads so far (-want +got):\n%s", id, d)
		}
	}
	for _, id := range sortedKeys(exp.Lists) {
		_, got := e.providers[id].counters()
		if got != exp.Lists[id] {
			fail("provider %q listed %d time(s) so far, want %d", id, got, exp.Lists[id])
		}
	}
	for _, id := range sortedKeys(exp.Reads) {
		if d := diff(exp.Reads[id], e.providers[id].resourceReads()); d != "" {
			fail("provider %q resource reads so far (-want +got):\n%s", id, d)
		}
	}
}

func (e *env) checkLog(session string, want *logExpect, evs []sessionlog.Event, fail func(string, ...any)) {
	views := viewEvents(evs)
	if want.Events != nil && len(evs) != *want.Events {
		fail("session %q has %d event(s), want %d; its events (oldest first):\n%s", session, len(evs), *want.Events, summarizeEvents(views))
	}
	if want.DistinctIDs {
		if dup := duplicateIDs(evs); len(dup) > 0 {
			fail("session %q holds several messages under the id(s) %q; its events (oldest first):\n%s", session, dup, summarizeEvents(views))
		}
	}
	var tail []eventExpect
	switch {
	case want.Tail != nil:
		tail = *want.Tail
	case want.Last != nil:
		tail = []eventExpect{*want.Last}
	}
	if len(tail) == 0 {
		return
	}
	got := views
	if len(got) > len(tail) {
		got = got[len(got)-len(tail):]
	}
	if d := diffEvents(tail, got); d != "" {
		fail("session %q newest events (-want +got):\n%s", session, d)
	}
}

// RunFiles runs the scenarios of files in order and reports to w: one line
// per scenario ("PASS name", or "FAIL name (file)" followed by its failures
// indented), a file that cannot be parsed as "FAIL file" with the error
// (counted as failed), and finally "N passed, N failed". Scenarios whose
// name match rejects are skipped; a nil match runs all.
func (r *Runner) RunFiles(ctx context.Context, files []string, match func(name string) bool, w io.Writer) (passed, failed int) {
	for _, file := range files {
		s, err := LoadFile(file)
		if err != nil {
			failed++
			fmt.Fprintf(w, "FAIL %s\n%s", file, indent(err.Error()))
			continue
		}
		if match != nil && !match(s.Name) {
			continue
		}
		res := r.Run(ctx, s)
		if res.Passed() {
			passed++
			fmt.Fprintf(w, "PASS %s\n", res.Name)
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL %s (%s)\n", res.Name, res.File)
		for _, f := range res.Failures {
			fmt.Fprint(w, indent(f))
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return passed, failed
}

// indent prefixes every line of s with four spaces and ends it with a
// newline.
func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    ")
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// duplicateIDs returns the message ids that more than one message event of
// evs carries, in order of their second use.
func duplicateIDs(evs []sessionlog.Event) []string {
	seen := map[string]int{}
	var dup []string
	for _, ev := range evs {
		if ev.Type != sessionlog.TypeMessage || ev.Body == nil {
			continue
		}
		var body struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(ev.Body, &body) != nil || body.ID == "" {
			continue
		}
		seen[body.ID]++
		if seen[body.ID] == 2 {
			dup = append(dup, body.ID)
		}
	}
	return dup
}

// lockOptions are the registry options of a scenario's lock; nil without
// one.
func lockOptions(l *lockSpec) (*skills.RegistryOptions, error) {
	if l == nil {
		return nil, nil
	}
	entries := make([]skilllock.Entry, 0, len(l.Skills))
	for _, ls := range l.Skills {
		e := skilllock.Entry{Kind: skilllock.Kind(cmp.Or(ls.Kind, string(skilllock.KindLocal))), Origin: ls.Origin, Name: ls.Name, Digest: ls.Digest}
		switch {
		case (ls.Body == nil) == (ls.Digest == ""):
			return nil, fmt.Errorf("lock: skill %q: give its body or its digest, one of them", ls.Name)
		case ls.Body != nil:
			e.Digest = skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(*ls.Body)}})
		}
		entries = append(entries, e)
	}
	lock, err := skilllock.New(entries)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	ro := &skills.RegistryOptions{Lock: lock}
	switch l.Unlocked {
	case "", "leave-out":
	case "allow":
		ro.Unlocked = skills.UnlockedAllow
	default:
		return nil, fmt.Errorf("lock: unlocked %q is not leave-out or allow", l.Unlocked)
	}
	return ro, nil
}
