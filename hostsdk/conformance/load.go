package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Defaults applied to a scenario.
const (
	// defaultAgent is the agent scope created when a scenario declares none.
	defaultAgent = "agent:main"
	// defaultSession is the session used when a scenario declares none.
	defaultSession = "s1"
	// defaultCwd is the working directory of steps that give none.
	defaultCwd = "/work/project"
)

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

// Scenario is one scenario file, parsed and checked, ready to run.
type Scenario struct {
	// Name is the scenario's name: its name field, or the file's name
	// without extension.
	Name string
	// Description says what the scenario proves.
	Description string
	// File is the path it was read from.
	File string
	s    *scenario
}

// Parse decodes and checks one scenario. file names it in errors and is the
// source of its default name. Every error is a *ParseError.
func Parse(file string, data []byte) (*Scenario, error) {
	s, err := parse(file, data)
	if err != nil {
		return nil, err
	}
	return &Scenario{Name: s.Name, Description: s.Description, File: s.File, s: s}, nil
}

// LoadFile reads and parses one scenario file.
func LoadFile(path string) (*Scenario, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

func parse(file string, data []byte) (*scenario, error) {
	d := &decoder{file: file}
	root, err := d.parseYAML(data)
	if err != nil {
		return nil, err
	}
	s := &scenario{}
	if err := d.decodeStruct(root, reflectValue(s)); err != nil {
		return nil, err
	}
	s.File = file
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if err := (&checker{d: d, s: s}).check(); err != nil {
		return nil, err
	}
	return s, nil
}

// readFile reads a scenario file; its error is a *ParseError.
func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error() // the path is already named
		}
		return nil, &ParseError{File: path, Msg: msg}
	}
	return data, nil
}

// Files expands paths into scenario files: a directory stands for every
// .yaml and .yml file below it, in lexical order; a file stands for itself.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// checker enforces the format's rules after decoding and fills defaults.
type checker struct {
	d *decoder
	s *scenario

	scopes    map[string]bool
	providers map[string]bool
	origins   map[string]string // each provider's origin, "" for a local one
	sessions  map[string]bool
}

func (c *checker) errorf(p position, format string, args ...any) error {
	return &ParseError{File: c.d.file, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(format, args...)}
}

func (c *checker) check() error {
	s := c.s
	if err := c.agents(); err != nil {
		return err
	}
	if s.Plugin.Scope == "" {
		s.Plugin.Scope = tools.GlobalScope
	}
	switch s.Plugin.ToolGrants {
	case "", "enforce", "strict":
	default:
		return c.errorf(s.Plugin.Pos, "toolGrants %q is not \"enforce\" or \"strict\"", s.Plugin.ToolGrants)
	}
	if err := c.scope(s.Plugin.Pos, s.Plugin.Scope); err != nil {
		return err
	}
	c.providers = make(map[string]bool)
	c.origins = make(map[string]string)
	for i := range s.Providers {
		if err := c.providerSpec(&s.Providers[i]); err != nil {
			return err
		}
	}
	if err := c.sites(); err != nil {
		return err
	}
	if err := c.project(); err != nil {
		return err
	}
	for i := range s.Skills {
		if err := c.skill(&s.Skills[i]); err != nil {
			return err
		}
	}
	if err := c.seededSessions(); err != nil {
		return err
	}
	if s.Plugin.ConfigError == nil && len(s.Steps) == 0 {
		return c.errorf(s.Pos, "a scenario needs steps (or plugin.configError)")
	}
	for i := range s.Steps {
		if err := c.step(&s.Steps[i]); err != nil {
			return err
		}
	}
	return nil
}

// agents checks the agent scopes, each below a scope declared before it.
func (c *checker) agents() error {
	s := c.s
	c.scopes = map[string]bool{tools.GlobalScope: true}
	if len(s.Agents) == 0 {
		s.Agents = []agentSpec{{Scope: defaultAgent, Parent: tools.GlobalScope}}
	}
	for i := range s.Agents {
		a := &s.Agents[i]
		if a.Scope == "" {
			return c.errorf(a.Pos, "agent scope is empty")
		}
		if c.scopes[a.Scope] {
			return c.errorf(a.Pos, "scope %q is declared twice", a.Scope)
		}
		if a.Parent == "" {
			a.Parent = tools.GlobalScope
		}
		if !c.scopes[a.Parent] {
			return c.errorf(a.Pos, "parent scope %q of %q is not declared before it", a.Parent, a.Scope)
		}
		c.scopes[a.Scope] = true
	}
	return nil
}

// providerSpec checks a scripted provider and its skills.
func (c *checker) providerSpec(p *providerSpec) error {
	if p.ID == "" {
		return c.errorf(p.Pos, "provider id is empty")
	}
	if c.providers[p.ID] {
		return c.errorf(p.Pos, "provider %q is declared twice", p.ID)
	}
	c.providers[p.ID] = true
	if p.Scope == "" {
		p.Scope = tools.GlobalScope
	}
	if err := c.scope(p.Pos, p.Scope); err != nil {
		return err
	}
	if p.Label == "" {
		p.Label = p.ID
	}
	if p.Origin != "" && !skill.ValidLabel(p.Origin) {
		return c.errorf(p.Pos, "provider %q: origin %q is not a label (%s, at most %d bytes)", p.ID, p.Origin, skill.NamePattern, skill.MaxNameLength)
	}
	c.origins[p.ID] = p.Origin
	if p.State == "" {
		p.State = stateComplete
	}
	if err := c.state(p.Pos, p.State); err != nil {
		return err
	}
	switch p.Availability {
	case "", availabilityStrict, availabilityBestEffort:
	default:
		return c.errorf(p.Pos, "provider %q: availability %q is not one of %s, %s", p.ID, p.Availability, availabilityStrict, availabilityBestEffort)
	}
	for j := range p.Skills {
		sk := &p.Skills[j]
		if sk.Provider != "" && sk.Provider != p.ID {
			return c.errorf(sk.Pos, "skill %q under provider %q names provider %q", sk.Name, p.ID, sk.Provider)
		}
		sk.Provider = p.ID
		if err := c.skill(sk); err != nil {
			return err
		}
	}
	return nil
}

// seededSessions checks the sessions seeded before the plugin starts.
func (c *checker) seededSessions() error {
	c.sessions = make(map[string]bool)
	for i := range c.s.Sessions {
		ss := &c.s.Sessions[i]
		if ss.ID == "" {
			return c.errorf(ss.Pos, "session id is empty")
		}
		if c.sessions[ss.ID] {
			return c.errorf(ss.Pos, "session %q is declared twice", ss.ID)
		}
		c.sessions[ss.ID] = true
		for j := range ss.Events {
			if err := c.event(&ss.Events[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *checker) scope(p position, scope string) error {
	if !c.scopes[scope] {
		return c.errorf(p, "scope %q is neither %q nor a declared agent", scope, tools.GlobalScope)
	}
	return nil
}

func (c *checker) provider(p position, id string) error {
	if !c.providers[id] {
		return c.errorf(p, "provider %q is not declared", id)
	}
	return nil
}

func (c *checker) state(p position, state string) error {
	switch state {
	case stateComplete, stateIncomplete, stateFailing, stateHang:
		return nil
	}
	return c.errorf(p, "provider state %q is not one of complete, incomplete, failing, hang", state)
}

// skill checks a skill's target; the registry judges names and descriptions
// when the scenario runs, as it would for any host.
func (c *checker) skill(sk *skillSpec) error {
	if sk.Name == "" {
		return c.errorf(sk.Pos, "skill name is empty")
	}
	for path := range sk.Resources {
		if !filepath.IsLocal(filepath.FromSlash(path)) || strings.Contains(path, `\`) {
			return c.errorf(sk.Pos, "skill %q: resource path %q is not a local slash-separated path", sk.Name, path)
		}
	}
	if sk.Provider == "" && len(sk.Resources) > 0 && sk.ResourceBase != nil {
		return c.errorf(sk.Pos, "skill %q: a runtime registration's resources are written to a directory that becomes its resource base; give resources or resourceBase, not both", sk.Name)
	}
	if sk.Path != "" {
		origin := c.origins[sk.Provider]
		if origin == "" || !skill.ValidQualifiedName(skill.QualifiedName(origin, sk.Path)) || path.Base(sk.Path) != sk.Name {
			return c.errorf(sk.Pos, "skill %q: path %q is for a skill of a provider with an origin, and must end in the skill's name (segments/%s)", sk.Name, sk.Path, sk.Name)
		}
	}
	if sk.Provider != "" {
		if sk.Scope != "" {
			return c.errorf(sk.Pos, "skill %q: give scope (a runtime registration) or provider, not both", sk.Name)
		}
		if sk.Label != "" {
			return c.errorf(sk.Pos, "skill %q: a provider's skills carry the provider's label", sk.Name)
		}
		return c.provider(sk.Pos, sk.Provider)
	}
	if sk.Cwd != "" || sk.LoadError != "" || sk.Vanished || sk.LoadPolicy != nil {
		return c.errorf(sk.Pos, "skill %q: cwd, loadError, vanished and loadPolicy apply to a scripted provider's skills only", sk.Name)
	}
	if sk.Scope == "" {
		sk.Scope = tools.GlobalScope
	}
	return c.scope(sk.Pos, sk.Scope)
}

func (c *checker) skillTarget(p position, name, scope, provider *string) error {
	if *name == "" {
		return c.errorf(p, "skill name is empty")
	}
	if *provider != "" {
		if *scope != "" {
			return c.errorf(p, "skill %q: give scope or provider, not both", *name)
		}
		return c.provider(p, *provider)
	}
	if *scope == "" {
		*scope = tools.GlobalScope
	}
	return c.scope(p, *scope)
}

func (c *checker) event(e *eventSpec) error {
	if e.Hide != nil {
		if e.Type == "" {
			e.Type = "compaction"
		}
		if e.Hide.From == 0 || e.Hide.To < e.Hide.From {
			return c.errorf(e.Hide.Pos, "hide range %d..%d: from must be >= 1 and to >= from", e.Hide.From, e.Hide.To)
		}
		return nil
	}
	if e.Type == "" {
		e.Type = sessionlog.TypeMessage
	}
	if e.Role != "" {
		if err := c.role(e.Pos, e.Role); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) role(p position, role string) error {
	switch hostsdk.Role(role) {
	case hostsdk.RoleUser, hostsdk.RoleAssistant, hostsdk.RoleSystem, hostsdk.RoleTool:
		return nil
	}
	return c.errorf(p, "role %q is not one of user, assistant, system, tool", role)
}

func (c *checker) session(id *string) {
	if *id == "" {
		*id = c.defaultSession()
	}
}

func (c *checker) defaultSession() string {
	if len(c.s.Sessions) > 0 {
		return c.s.Sessions[0].ID
	}
	return defaultSession
}

func (c *checker) agent(p position, agent *string) error {
	if *agent == "" {
		*agent = c.s.Agents[0].Scope
	}
	return c.scope(p, *agent)
}

var outcomes = []string{
	string(hostsdk.OutcomeNoPlugin), string(hostsdk.OutcomeRejectPassthrough), string(hostsdk.OutcomeUnchanged),
	string(hostsdk.OutcomeIncomplete), string(hostsdk.OutcomeInitial), string(hostsdk.OutcomeReplacement),
	string(hostsdk.OutcomeTombstone), string(hostsdk.OutcomePluginError),
}

func (c *checker) step(st *stepSpec) error {
	if err := c.oneAction(st); err != nil {
		return err
	}
	if st.ReadResource != nil {
		// A resource read is a call of the resource-read tool.
		call, err := c.readResource(st.ReadResource)
		if err != nil {
			return err
		}
		st.ToolCall = call
	}
	switch {
	case st.Grants != nil:
		if st.Grants.Session == "" || len(st.Grants.All) == 0 {
			return c.errorf(st.Grants.Pos, "grants needs a session and the tools it checks (all)")
		}
		return nil
	case st.PreStep != nil:
		return c.checkPreStep(st.PreStep, st.Expect)
	case st.ToolCall != nil:
		return c.checkToolCall(st.ToolCall, st.Expect)
	case st.AddSkill != nil:
		return c.skill(st.AddSkill)
	case st.RemoveSkill != nil:
		r := st.RemoveSkill
		return c.skillTarget(r.Pos, &r.Name, &r.Scope, &r.Provider)
	case st.ChangeSkill != nil:
		return c.checkChangeSkill(st.ChangeSkill)
	case st.SetProvider != nil:
		p := st.SetProvider
		if err := c.provider(p.Pos, p.ID); err != nil || p.State == "" {
			return err
		}
		return c.state(p.Pos, p.State)
	case st.Restrict != nil, st.Unrestrict != nil, st.Shadow != nil, st.Unshadow != nil:
		return c.checkToolRef(firstNonNil(st.Restrict, st.Unrestrict, st.Shadow, st.Unshadow))
	case st.Compact != nil:
		a := st.Compact
		if a.To != 0 && a.To < a.From {
			return c.errorf(a.Pos, "compact range %d..%d: to must be >= from", a.From, a.To)
		}
		c.session(&a.Session)
	case st.AppendEvents != nil:
		return c.checkAppend(st.AppendEvents)
	case st.SelectSkills != nil:
		c.session(&st.SelectSkills.Session)
	}
	return nil
}

// oneAction checks that a step has exactly one action, and an expect only
// on an action that allows one.
func (c *checker) oneAction(st *stepSpec) error {
	// A readResource step checked before carries the tool call it made.
	made := st.ToolCall != nil && st.ReadResource != nil && st.ReadResource.Arguments != nil && st.ToolCall.Arguments == st.ReadResource.Arguments
	var actions []string
	for _, a := range []struct {
		name    string
		present bool
	}{
		{"preStep", st.PreStep != nil}, {"toolCall", st.ToolCall != nil && !made},
		{"addSkill", st.AddSkill != nil}, {"removeSkill", st.RemoveSkill != nil},
		{"changeSkill", st.ChangeSkill != nil}, {"setProvider", st.SetProvider != nil},
		{"restrict", st.Restrict != nil}, {"unrestrict", st.Unrestrict != nil},
		{"shadow", st.Shadow != nil}, {"unshadow", st.Unshadow != nil},
		{"compact", st.Compact != nil}, {"appendEvents", st.AppendEvents != nil},
		{"selectSkills", st.SelectSkills != nil}, {"restartHost", st.RestartHost != nil},
		{"readResource", st.ReadResource != nil}, {"grants", st.Grants != nil},
	} {
		if a.present {
			actions = append(actions, a.name)
		}
	}
	switch len(actions) {
	case 0:
		return c.errorf(st.Pos, "step has no action (one of preStep, toolCall, readResource, addSkill, removeSkill, changeSkill, setProvider, restrict, unrestrict, shadow, unshadow, compact, appendEvents, selectSkills, restartHost)")
	case 1:
	default:
		return c.errorf(st.Pos, "step has %d actions (%s); give one per step", len(actions), strings.Join(actions, ", "))
	}
	if st.Expect != nil && st.PreStep == nil && st.ToolCall == nil && st.ReadResource == nil {
		return c.errorf(st.Expect.Pos, "expect is allowed on preStep, toolCall and readResource steps only")
	}
	return nil
}

func (c *checker) checkPreStep(a *preStepAction, exp *expectation) error {
	if err := c.agent(a.Pos, &a.Agent); err != nil {
		return err
	}
	c.session(&a.Session)
	if a.Cwd == "" {
		a.Cwd = defaultCwd
	}
	if ds := a.Downstream; ds != nil {
		if ds.Reject != nil && len(ds.Messages) > 0 {
			return c.errorf(ds.Pos, "a downstream decision rejects or enters with messages, not both")
		}
		for _, m := range ds.Messages {
			if err := c.role(m.Pos, m.Role); err != nil {
				return err
			}
		}
	}
	if exp != nil {
		return c.preStepExpect(exp)
	}
	return nil
}

func (c *checker) checkToolCall(a *toolCallAction, exp *expectation) error {
	if err := c.agent(a.Pos, &a.Agent); err != nil {
		return err
	}
	c.session(&a.Session)
	if a.Cwd == "" {
		a.Cwd = defaultCwd
	}
	if a.Tool == "" {
		a.Tool = contract.SkillToolName
	}
	if (a.Skill == nil) == (a.Arguments == nil) {
		return c.errorf(a.Pos, "a tool call gives skill or arguments (exactly one)")
	}
	if exp != nil {
		return c.toolExpect(exp)
	}
	return nil
}

func (c *checker) checkChangeSkill(ch *skillChange) error {
	if err := c.skillTarget(ch.Pos, &ch.Name, &ch.Scope, &ch.Provider); err != nil {
		return err
	}
	if ch.Provider == "" && (ch.LoadError != nil || ch.Vanished != nil) {
		return c.errorf(ch.Pos, "loadError and vanished apply to a scripted provider's skills only")
	}
	return nil
}

func (c *checker) checkToolRef(r *toolRef) error {
	if r.Scope == "" {
		return c.errorf(r.Pos, "scope is required")
	}
	if r.Tool == "" {
		r.Tool = contract.SkillToolName
	}
	return c.scope(r.Pos, r.Scope)
}

func (c *checker) checkAppend(a *appendAction) error {
	c.session(&a.Session)
	if len(a.Events) == 0 {
		return c.errorf(a.Pos, "appendEvents needs events")
	}
	for i := range a.Events {
		if err := c.event(&a.Events[i]); err != nil {
			return err
		}
	}
	return nil
}

// readResource checks a resource read and returns the tool call it makes.
func (c *checker) readResource(a *readResourceAction) (*toolCallAction, error) {
	if a.Arguments != nil {
		if a.Skill != "" || a.Path != nil || a.Offset != nil {
			return nil, c.errorf(a.Pos, "a resource read gives skill, path and offset, or arguments, not both")
		}
	} else {
		if a.Skill == "" || a.Path == nil {
			return nil, c.errorf(a.Pos, "a resource read needs skill and path (or raw arguments)")
		}
		args := map[string]any{"name": a.Skill, "path": *a.Path}
		if a.Offset != nil {
			args["offset"] = *a.Offset
		}
		b, err := json.Marshal(args)
		if err != nil {
			return nil, c.errorf(a.Pos, "resource read arguments: %v", err)
		}
		raw := string(b)
		a.Arguments = &raw
	}
	return &toolCallAction{Agent: a.Agent, Cwd: a.Cwd, Session: a.Session, Tool: contract.ResourceToolName, Arguments: a.Arguments, Pos: a.Pos}, nil
}

func firstNonNil(refs ...*toolRef) *toolRef {
	for _, r := range refs {
		if r != nil {
			return r
		}
	}
	return nil
}

func (c *checker) common(e *expectation) error {
	for id := range e.Loads {
		if err := c.provider(e.Pos, id); err != nil {
			return err
		}
	}
	for id := range e.Lists {
		if err := c.provider(e.Pos, id); err != nil {
			return err
		}
	}
	for id := range e.Reads {
		if err := c.provider(e.Pos, id); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) preStepExpect(e *expectation) error {
	if e.IsError != nil || e.Text != nil || e.Value.Set || e.NotFound {
		return c.errorf(e.Pos, "isError, text, value and notFound are tool-call expectations")
	}
	if e.Outcome != "" {
		known := false
		for _, o := range outcomes {
			known = known || o == e.Outcome
		}
		if !known {
			return c.errorf(e.Pos, "outcome %q is not one of %s", e.Outcome, strings.Join(outcomes, ", "))
		}
	}
	for _, id := range e.Cancelled {
		if err := c.provider(e.Pos, id); err != nil {
			return err
		}
	}
	if e.Reasons != nil {
		for _, r := range *e.Reasons {
			if !contract.ReasonCode(r.Code).Known() {
				return c.errorf(r.Pos, "reason code %q is not one of contract.ReasonCodes", r.Code)
			}
		}
	}
	return c.common(e)
}

func (c *checker) toolExpect(e *expectation) error {
	if e.Outcome != "" || e.Reject != nil || e.Messages != nil || e.Added != nil || e.Removed != nil || e.NothingAdded || len(e.Cancelled) > 0 || e.Diagnostics != nil || e.Reasons != nil {
		return c.errorf(e.Pos, "outcome, reject, messages, added, removed, nothingAdded, cancelled, diagnostics and reasons are pre-step expectations")
	}
	return c.common(e)
}
