package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The types below mirror the field reference of
// testdata/conformance/README.md, section by section (named in each type's
// comment); the yaml tags are the field names and the README says what each
// means and defaults to. Pointers and slices that may be nil tell "left
// out" from a zero value. Every struct records where it was written (Pos),
// so load.go's rules and the runner can point at it.

// scenario is a whole file (Top level).
type scenario struct {
	File string `yaml:"-"` // the path it was read from

	Name        string         `yaml:"name"`
	Description string         `yaml:"description"`
	Plugin      pluginSpec     `yaml:"plugin"`
	Agents      []agentSpec    `yaml:"agents"`
	Skills      []skillSpec    `yaml:"skills"`
	Providers   []providerSpec `yaml:"providers"`
	Sites       []siteSpec     `yaml:"sites"`
	Project     *projectSpec   `yaml:"project"`
	Sessions    []sessionSpec  `yaml:"sessions"`
	Lock        *lockSpec      `yaml:"lock"`
	Steps       []stepSpec     `yaml:"steps"`
	Pos         position       `yaml:"-"`
}

// pluginSpec is the plugin section.
type pluginSpec struct {
	Scope       string     `yaml:"scope"`
	Config      string     `yaml:"config"`
	ConfigError *textMatch `yaml:"configError"`
	// ToolGrants is the host's hostsdk.Options.ToolGrants: "" (off),
	// "enforce" or "strict".
	ToolGrants string   `yaml:"toolGrants"`
	Pos        position `yaml:"-"`
}

// agentSpec is an item of agents: a scope id alone, or {scope, parent}.
type agentSpec struct {
	Scope  string   `yaml:"scope"`
	Parent string   `yaml:"parent"`
	Pos    position `yaml:"-"`
}

func (a *agentSpec) decodeNode(d *decoder, n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		*a = agentSpec{Scope: n.Value, Pos: position{n.Line, n.Column}}
		return nil
	}
	type plain agentSpec
	var p plain
	if err := d.decodeStruct(n, reflectValue(&p)); err != nil {
		return err
	}
	*a = agentSpec(p)
	return nil
}

// skillSpec is a skill: a runtime registration in Scope, or one offered by
// the scripted provider Provider, which alone uses Cwd, LoadError,
// Vanished and LoadPolicy, and Path when it has an origin.
type skillSpec struct {
	Name           string            `yaml:"name"`
	Description    string            `yaml:"description"`
	ModelInvocable *bool             `yaml:"modelInvocable"`
	UserInvocable  *bool             `yaml:"userInvocable"`
	Scope          string            `yaml:"scope"`
	Provider       string            `yaml:"provider"`
	Label          string            `yaml:"label"`
	ResourceBase   *resourceBaseSpec `yaml:"resourceBase"`
	Body           string            `yaml:"body"`
	Rank           int               `yaml:"rank"`
	Cwd            string            `yaml:"cwd"`
	LoadError      string            `yaml:"loadError"`
	Vanished       bool              `yaml:"vanished"`
	LoadPolicy     *policySpec       `yaml:"loadPolicy"`
	Path           string            `yaml:"path"`
	Resources      map[string]string `yaml:"resources"`
	Paths          []string          `yaml:"paths"`
	// WhenToUse is the skill's when_to_use; ArgumentNames, AllowedTools
	// and DisallowedTools (a runtime skill's only) are its `arguments`,
	// `allowed-tools` and `disallowed-tools`.
	WhenToUse       string   `yaml:"whenToUse"`
	ArgumentNames   []string `yaml:"argumentNames"`
	AllowedTools    []string `yaml:"allowedTools"`
	DisallowedTools []string `yaml:"disallowedTools"`
	Pos             position `yaml:"-"`
}

// policySpec is a skill's loadPolicy.
type policySpec struct {
	ModelInvocable bool     `yaml:"modelInvocable"`
	UserInvocable  bool     `yaml:"userInvocable"`
	Pos            position `yaml:"-"`
}

// resourceBaseSpec is a skill's resourceBase.
type resourceBaseSpec struct {
	Kind        string   `yaml:"kind"`
	Path        string   `yaml:"path"`
	URL         string   `yaml:"url"`
	Description string   `yaml:"description"`
	Pos         position `yaml:"-"`
}

// The states of a scripted provider.
const (
	stateComplete   = "complete"
	stateIncomplete = "incomplete"
	stateFailing    = "failing"
	stateHang       = "hang"
)

// The availabilities of a scripted provider; left out, the provider
// declares none, so the registry's default makes it strict.
const (
	availabilityStrict     = "strict"
	availabilityBestEffort = "best-effort"
)

// providerSpec is a scripted provider (provider).
type providerSpec struct {
	ID           string      `yaml:"id"`
	Scope        string      `yaml:"scope"`
	Label        string      `yaml:"label"`
	Origin       string      `yaml:"origin"`
	State        string      `yaml:"state"`
	Error        string      `yaml:"error"`
	Rank         int         `yaml:"rank"`
	Availability string      `yaml:"availability"`
	Skills       []skillSpec `yaml:"skills"`
	Pos          position    `yaml:"-"`
}

// sessionSpec is a seeded session log (session).
type sessionSpec struct {
	ID     string      `yaml:"id"`
	Events []eventSpec `yaml:"events"`
	Pos    position    `yaml:"-"`
}

// eventSpec is one raw durable event (event).
type eventSpec struct {
	Type   string     `yaml:"type"`
	ID     string     `yaml:"id"`
	Role   string     `yaml:"role"`
	Text   string     `yaml:"text"`
	Source *string    `yaml:"source"`
	Body   *string    `yaml:"body"`
	Hide   *rangeSpec `yaml:"hide"`
	Pos    position   `yaml:"-"`
}

// rangeSpec is an inclusive range of sequence numbers {from, to}.
type rangeSpec struct {
	From uint64   `yaml:"from"`
	To   uint64   `yaml:"to"`
	Pos  position `yaml:"-"`
}

// stepSpec is one step: exactly one action, with an expect on preStep,
// toolCall and readResource (step).
type stepSpec struct {
	Name string `yaml:"name"`

	PreStep      *preStepAction      `yaml:"preStep"`
	ToolCall     *toolCallAction     `yaml:"toolCall"`
	AddSkill     *skillSpec          `yaml:"addSkill"`
	RemoveSkill  *skillRef           `yaml:"removeSkill"`
	ChangeSkill  *skillChange        `yaml:"changeSkill"`
	SetProvider  *providerChange     `yaml:"setProvider"`
	Restrict     *toolRef            `yaml:"restrict"`
	Unrestrict   *toolRef            `yaml:"unrestrict"`
	Shadow       *toolRef            `yaml:"shadow"`
	Unshadow     *toolRef            `yaml:"unshadow"`
	Compact      *compactAction      `yaml:"compact"`
	AppendEvents *appendAction       `yaml:"appendEvents"`
	ReadResource *readResourceAction `yaml:"readResource"`
	SelectSkills *selectAction       `yaml:"selectSkills"`
	RestartHost  *restartAction      `yaml:"restartHost"`
	Grants       *grantsAction       `yaml:"grants"`

	Expect *expectation `yaml:"expect"`
	Pos    position     `yaml:"-"`
}

// preStepAction is the preStep action.
type preStepAction struct {
	Agent      string          `yaml:"agent"`
	Cwd        string          `yaml:"cwd"`
	Session    string          `yaml:"session"`
	Turn       int             `yaml:"turn"`
	Step       int             `yaml:"step"`
	Downstream *downstreamSpec `yaml:"downstream"`
	Cancel     bool            `yaml:"cancel"`
	// Replica runs the step on the scenario's second host (env.replica).
	Replica bool `yaml:"replica"`
	// Touched are the step's touched paths (hostsdk.Step.TouchedPaths).
	Touched []string `yaml:"touched"`
	// Preload names skills preloaded for the session (Step.PreloadSkills).
	Preload []string `yaml:"preload"`
	Pos     position `yaml:"-"`
}

// downstreamSpec is a preStep's downstream decision.
type downstreamSpec struct {
	Reject   *string       `yaml:"reject"`
	Messages []messageSpec `yaml:"messages"`
	Pos      position      `yaml:"-"`
}

// messageSpec is a proposed downstream message.
type messageSpec struct {
	ID        string   `yaml:"id"`
	Role      string   `yaml:"role"`
	Text      string   `yaml:"text"`
	Source    *string  `yaml:"source"`
	UserInput bool     `yaml:"userInput"`
	Pos       position `yaml:"-"`
}

// toolCallAction is the toolCall action; a readResource becomes one.
type toolCallAction struct {
	Agent     string  `yaml:"agent"`
	Cwd       string  `yaml:"cwd"`
	Session   string  `yaml:"session"`
	Tool      string  `yaml:"tool"`
	Skill     *string `yaml:"skill"`
	Arguments *string `yaml:"arguments"`
	// Record appends the result to the session log as a host does: a
	// tool-role message holding it, with the result's source (the load
	// record of a `skill` call).
	Record bool     `yaml:"record"`
	Pos    position `yaml:"-"`
}

// grantsAction is the grants action: it asks the session which of All
// it may offer the model (hostsdk.Session.OfferedTools), and checks a call
// of each tool of All (Session.CheckToolCall); Offered is what it must
// offer, Refused the refusal of each tool it must refuse (every other tool
// of All is allowed).
type grantsAction struct {
	Session string            `yaml:"session"`
	All     []string          `yaml:"all"`
	Offered []string          `yaml:"offered"`
	Refused map[string]string `yaml:"refused"`
	Pos     position          `yaml:"-"`
}

// readResourceAction is the readResource action.
type readResourceAction struct {
	Agent     string   `yaml:"agent"`
	Cwd       string   `yaml:"cwd"`
	Session   string   `yaml:"session"`
	Skill     string   `yaml:"skill"`
	Path      *string  `yaml:"path"`
	Offset    *int64   `yaml:"offset"`
	Arguments *string  `yaml:"arguments"`
	Pos       position `yaml:"-"`
}

// skillRef is the removeSkill action.
type skillRef struct {
	Name     string   `yaml:"name"`
	Scope    string   `yaml:"scope"`
	Provider string   `yaml:"provider"`
	Pos      position `yaml:"-"`
}

// skillChange is the changeSkill action; fields left out stay.
type skillChange struct {
	Name           string            `yaml:"name"`
	Scope          string            `yaml:"scope"`
	Provider       string            `yaml:"provider"`
	Description    *string           `yaml:"description"`
	Body           *string           `yaml:"body"`
	ModelInvocable *bool             `yaml:"modelInvocable"`
	UserInvocable  *bool             `yaml:"userInvocable"`
	ResourceBase   *resourceBaseSpec `yaml:"resourceBase"`
	LoadError      *string           `yaml:"loadError"`
	Vanished       *bool             `yaml:"vanished"`
	Pos            position          `yaml:"-"`
}

// providerChange is the setProvider action.
type providerChange struct {
	ID    string   `yaml:"id"`
	State string   `yaml:"state"`
	Error *string  `yaml:"error"`
	Pos   position `yaml:"-"`
}

// toolRef is the restrict, unrestrict, shadow and unshadow actions.
type toolRef struct {
	Scope string   `yaml:"scope"`
	Tool  string   `yaml:"tool"`
	Pos   position `yaml:"-"`
}

// compactAction is the compact action.
type compactAction struct {
	Session string   `yaml:"session"`
	From    uint64   `yaml:"from"`
	To      uint64   `yaml:"to"`
	Pos     position `yaml:"-"`
}

// appendAction is the appendEvents action.
type appendAction struct {
	Session string      `yaml:"session"`
	Events  []eventSpec `yaml:"events"`
	Pos     position    `yaml:"-"`
}

// selectAction is the selectSkills action.
type selectAction struct {
	Session          string     `yaml:"session"`
	IncludeNames     []string   `yaml:"includeNames"`
	ExcludeNames     []string   `yaml:"excludeNames"`
	IncludeProviders []string   `yaml:"includeProviders"`
	ExcludeProviders []string   `yaml:"excludeProviders"`
	Error            *textMatch `yaml:"error"`
	Pos              position   `yaml:"-"`
}

// restartAction is the restartHost action.
type restartAction struct {
	Pos position `yaml:"-"`
}

// expectation is a step's expect: the pre-step fields, the tool-call
// fields and those of either, in the README's order.
type expectation struct {
	Outcome      string           `yaml:"outcome"`
	Reject       *string          `yaml:"reject"`
	Messages     *[]messageExpect `yaml:"messages"`
	Added        *[]messageExpect `yaml:"added"`
	Removed      *[]string        `yaml:"removed"`
	NothingAdded bool             `yaml:"nothingAdded"`
	Cancelled    []string         `yaml:"cancelled"`
	Diagnostics  *[]textMatch     `yaml:"diagnostics"`
	Reasons      *[]reasonExpect  `yaml:"reasons"`

	IsError  *bool      `yaml:"isError"`
	Text     *textMatch `yaml:"text"`
	Value    jsonValue  `yaml:"value"`
	NotFound bool       `yaml:"notFound"`

	Error *textMatch          `yaml:"error"`
	Log   *logExpect          `yaml:"log"`
	Loads map[string][]string `yaml:"loads"`
	Lists map[string]int      `yaml:"lists"`
	Reads map[string][]string `yaml:"reads"`
	Pos   position            `yaml:"-"`
}

// messageExpect is a message expectation; fields left out are not
// compared.
type messageExpect struct {
	ID        *string    `yaml:"id"`
	Role      string     `yaml:"role"`
	Text      *textMatch `yaml:"text"`
	Source    jsonValue  `yaml:"source"`
	SourceRaw *string    `yaml:"sourceRaw"`
	Pos       position   `yaml:"-"`
}

// reasonExpect is a reason expectation: its code, and its detail when
// given.
type reasonExpect struct {
	Code   string     `yaml:"code"`
	Detail *textMatch `yaml:"detail"`
	Pos    position   `yaml:"-"`
}

// logExpect is an expectation's log.
type logExpect struct {
	Events      *int           `yaml:"events"`
	Last        *eventExpect   `yaml:"last"`
	Tail        *[]eventExpect `yaml:"tail"`
	DistinctIDs bool           `yaml:"distinctIds"`
	Pos         position       `yaml:"-"`
}

// eventExpect is an event expectation; fields left out are not compared.
type eventExpect struct {
	Seq       *uint64    `yaml:"seq"`
	Type      string     `yaml:"type"`
	Visible   *bool      `yaml:"visible"`
	Text      *textMatch `yaml:"text"`
	Source    jsonValue  `yaml:"source"`
	SourceRaw *string    `yaml:"sourceRaw"`
	Pos       position   `yaml:"-"`
}

// textMatch is a text: a plain string is the exact text, a mapping
// combines conditions.
type textMatch struct {
	Exact    *string  `yaml:"exact"`
	Prefix   string   `yaml:"prefix"`
	Suffix   string   `yaml:"suffix"`
	Contains []string `yaml:"contains"`
	Excludes []string `yaml:"excludes"`
	Pos      position `yaml:"-"`
}

func (m *textMatch) decodeNode(d *decoder, n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.ShortTag() != "!!str" {
			return d.errorf(n, "expected a text (a string, or a mapping of exact/prefix/suffix/contains/excludes), got %s", describe(n))
		}
		s := n.Value
		*m = textMatch{Exact: &s, Pos: position{n.Line, n.Column}}
		return nil
	}
	type plain textMatch
	var p plain
	if err := d.decodeStruct(n, reflectValue(&p)); err != nil {
		return err
	}
	*m = textMatch(p)
	if m.Exact == nil && m.Prefix == "" && m.Suffix == "" && len(m.Contains) == 0 && len(m.Excludes) == 0 {
		return d.errorf(n, "a text match needs at least one of exact, prefix, suffix, contains, excludes")
	}
	return nil
}

// failure describes how s fails the match, or "" when it matches.
func (m *textMatch) failure(s string) string {
	var why []string
	if m.Exact != nil && s != *m.Exact {
		why = append(why, "is not the exact expected text")
	}
	if m.Prefix != "" && !strings.HasPrefix(s, m.Prefix) {
		why = append(why, fmt.Sprintf("does not start with %q", m.Prefix))
	}
	if m.Suffix != "" && !strings.HasSuffix(s, m.Suffix) {
		why = append(why, fmt.Sprintf("does not end with %q", m.Suffix))
	}
	for _, c := range m.Contains {
		if !strings.Contains(s, c) {
			why = append(why, fmt.Sprintf("does not contain %q", c))
		}
	}
	for _, c := range m.Excludes {
		if strings.Contains(s, c) {
			why = append(why, fmt.Sprintf("contains forbidden %q", c))
		}
	}
	return strings.Join(why, "; ")
}

// want returns what the diff shows as the expected text for got: the exact
// text when one is given, got itself when every condition holds, and a
// description of the failed conditions otherwise.
func (m *textMatch) want(got string) string {
	why := m.failure(got)
	switch {
	case why == "":
		return got
	case m.Exact != nil:
		return *m.Exact
	}
	return "<text that " + why + ">"
}

// jsonValue is a YAML value standing for a JSON value, compared
// structurally. Set records that the field was present (null included).
type jsonValue struct {
	Set   bool
	Value any
	Pos   position
}

func (j *jsonValue) decodeNode(d *decoder, n *yaml.Node) error {
	var v any
	if err := n.Decode(&v); err != nil {
		return d.errorf(n, "invalid value: %v", err)
	}
	norm, err := normalizeJSON(v)
	if err != nil {
		return d.errorf(n, "not representable as JSON: %v", err)
	}
	*j = jsonValue{Set: true, Value: norm, Pos: position{n.Line, n.Column}}
	return nil
}

// normalizeJSON round-trips v through encoding/json so it compares equal to
// what json.Unmarshal produces from the same JSON text.
func normalizeJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// lockSpec pins the scenario's skills to a skill lock
// (skills.RegistryOptions.Lock), every host of the scenario alike.
type lockSpec struct {
	Skills []lockedSkill `yaml:"skills"`
	// Unlocked is leave-out (the default) or allow
	// (skills.RegistryOptions.Unlocked).
	Unlocked string   `yaml:"unlocked"`
	Pos      position `yaml:"-"`
}

// lockedSkill is one skill of a lock: locked to the version whose
// instructions are Body (skilllock.FilesDigest of one file SKILL.md
// holding them, the digest a registry takes of a runtime skill or of a
// provider's skill it loads), or to the literal Digest.
type lockedSkill struct {
	Name string `yaml:"name"`
	// Kind is local (the default), mcp or website; Origin the remote
	// source's label.
	Kind   string   `yaml:"kind"`
	Origin string   `yaml:"origin"`
	Body   *string  `yaml:"body"`
	Digest string   `yaml:"digest"`
	Pos    position `yaml:"-"`
}
