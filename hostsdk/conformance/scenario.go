package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Scenario is one scenario file: the world a plugin is mounted into, and the
// steps to run against it with what each must produce. See the package
// documentation for every field.
type Scenario struct {
	// File is the path the scenario was read from.
	File string `yaml:"-"`

	Name        string         `yaml:"name"`
	Description string         `yaml:"description"`
	Plugin      PluginSpec     `yaml:"plugin"`
	Agents      []AgentSpec    `yaml:"agents"`
	Skills      []SkillSpec    `yaml:"skills"`
	Providers   []ProviderSpec `yaml:"providers"`
	Sessions    []SessionSpec  `yaml:"sessions"`
	Steps       []Step         `yaml:"steps"`
	Pos         Pos            `yaml:"-"`
}

// PluginSpec says where the plugin is mounted and with which configuration.
type PluginSpec struct {
	// Scope is "global" (the default) or a declared agent scope.
	Scope string `yaml:"scope"`
	// Config is the raw JSON object of plugin options; "" means defaults.
	Config string `yaml:"config"`
	// ConfigError, when set, is the configuration error the mount must
	// fail with (the plugin's message, without the SDK's prefix).
	ConfigError *TextMatch `yaml:"configError"`
	Pos         Pos        `yaml:"-"`
}

// AgentSpec declares an agent composition scope. In YAML it is either the
// scope id alone or a mapping {scope, parent}.
type AgentSpec struct {
	Scope string `yaml:"scope"`
	// Parent is the scope the agent hangs below; "global" by default.
	Parent string `yaml:"parent"`
	Pos    Pos    `yaml:"-"`
}

func (a *AgentSpec) decodeNode(d *decoder, n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		*a = AgentSpec{Scope: n.Value, Pos: Pos{n.Line, n.Column}}
		return nil
	}
	type plain AgentSpec
	var p plain
	if err := d.decodeStruct(n, reflectValue(&p)); err != nil {
		return err
	}
	*a = AgentSpec(p)
	return nil
}

// SkillSpec is a skill: a runtime registration in Scope, or, when Provider
// is set, a skill offered by that scripted provider.
type SkillSpec struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// ModelInvocable and UserInvocable default to true.
	ModelInvocable *bool `yaml:"modelInvocable"`
	UserInvocable  *bool `yaml:"userInvocable"`
	// Scope of a runtime registration; "global" by default.
	Scope string `yaml:"scope"`
	// Provider is the id of the scripted provider that offers the skill.
	Provider string `yaml:"provider"`
	// Label is the provider label of a runtime registration ("runtime"
	// when empty). A scripted provider's skills carry the provider's label.
	Label        string            `yaml:"label"`
	ResourceBase *ResourceBaseSpec `yaml:"resourceBase"`
	Body         string            `yaml:"body"`
	Rank         int               `yaml:"rank"`

	// Scripted-provider behaviour.

	// Cwd, when set, offers the skill only to calls with that cwd.
	Cwd string `yaml:"cwd"`
	// LoadError makes Load fail with this text.
	LoadError string `yaml:"loadError"`
	// Vanished lists the skill but makes Load report it missing, as if it
	// disappeared between the snapshot and the load.
	Vanished bool `yaml:"vanished"`
	// LoadPolicy is the invocation policy of the loaded definition when it
	// differs from the listed one.
	LoadPolicy *PolicySpec `yaml:"loadPolicy"`
	// Path is, for a skill of a provider with an Origin, the skill's path
	// on its server (its name by default): the skill's qualified name is
	// origin:path.
	Path string `yaml:"path"`

	// Resources are files of the skill's resources, by slash-separated path
	// relative to its resource base. A runtime registration's are written
	// below a fresh directory, which becomes its directory resource base; a
	// scripted provider serves its skills' through its resource reader.
	Resources map[string]string `yaml:"resources"`
	Pos       Pos               `yaml:"-"`
}

// PolicySpec is an invocation policy.
type PolicySpec struct {
	ModelInvocable bool `yaml:"modelInvocable"`
	UserInvocable  bool `yaml:"userInvocable"`
	Pos            Pos  `yaml:"-"`
}

// ResourceBaseSpec is a skill's resource base. Kind is "directory" (Path),
// "url" (URL), "opaque" (Description) or, for a scripted provider's
// definition, anything else to exercise an unknown kind.
type ResourceBaseSpec struct {
	Kind        string `yaml:"kind"`
	Path        string `yaml:"path"`
	URL         string `yaml:"url"`
	Description string `yaml:"description"`
	Pos         Pos    `yaml:"-"`
}

// Provider states.
const (
	StateComplete   = "complete"
	StateIncomplete = "incomplete"
	StateFailing    = "failing"
	StateHang       = "hang"
)

// ProviderSpec is a scripted provider attached to a scope.
type ProviderSpec struct {
	ID string `yaml:"id"`
	// Scope is where the provider is attached; "global" by default.
	Scope string `yaml:"scope"`
	// Label is the provider label of its skills; the id by default.
	Label string `yaml:"label"`
	// Origin makes the provider stand for a remote (MCP) server the host
	// labels so: its skills are remote skills of that origin.
	Origin string `yaml:"origin"`
	// State is complete (the default), incomplete, failing or hang.
	State string `yaml:"state"`
	// Error is the text of a failing provider's listing error.
	Error  string      `yaml:"error"`
	Rank   int         `yaml:"rank"`
	Skills []SkillSpec `yaml:"skills"`
	Pos    Pos         `yaml:"-"`
}

// SessionSpec seeds a durable session log before the plugin starts.
type SessionSpec struct {
	ID     string      `yaml:"id"`
	Events []EventSpec `yaml:"events"`
	Pos    Pos         `yaml:"-"`
}

// EventSpec is one raw durable event. A message event's body is built from
// ID, Role and Text unless Body gives it raw; Source is stored byte for
// byte (it may be invalid JSON). An event with Hide is a compaction record.
type EventSpec struct {
	// Type is "message" by default, "compaction" when Hide is set.
	Type   string     `yaml:"type"`
	ID     string     `yaml:"id"`
	Role   string     `yaml:"role"`
	Text   string     `yaml:"text"`
	Source *string    `yaml:"source"`
	Body   *string    `yaml:"body"`
	Hide   *RangeSpec `yaml:"hide"`
	Pos    Pos        `yaml:"-"`
}

// RangeSpec is an inclusive range of event sequence numbers.
type RangeSpec struct {
	From uint64 `yaml:"from"`
	To   uint64 `yaml:"to"`
	Pos  Pos    `yaml:"-"`
}

// Step is one action, with what it must produce. Exactly one action field
// is set; Expect is allowed on preStep and toolCall.
type Step struct {
	// Name labels the step in failure reports.
	Name string `yaml:"name"`

	PreStep      *PreStepAction      `yaml:"preStep"`
	ToolCall     *ToolCallAction     `yaml:"toolCall"`
	AddSkill     *SkillSpec          `yaml:"addSkill"`
	RemoveSkill  *SkillRef           `yaml:"removeSkill"`
	ChangeSkill  *SkillChange        `yaml:"changeSkill"`
	SetProvider  *ProviderChange     `yaml:"setProvider"`
	Restrict     *ToolRef            `yaml:"restrict"`
	Unrestrict   *ToolRef            `yaml:"unrestrict"`
	Shadow       *ToolRef            `yaml:"shadow"`
	Unshadow     *ToolRef            `yaml:"unshadow"`
	Compact      *CompactAction      `yaml:"compact"`
	AppendEvents *AppendAction       `yaml:"appendEvents"`
	ReadResource *ReadResourceAction `yaml:"readResource"`
	SelectSkills *SelectAction       `yaml:"selectSkills"`
	RestartHost  *RestartAction      `yaml:"restartHost"`

	Expect *Expect `yaml:"expect"`
	Pos    Pos     `yaml:"-"`
}

// PreStepAction runs Host.PreStep.
type PreStepAction struct {
	Agent   string `yaml:"agent"`
	Cwd     string `yaml:"cwd"`
	Session string `yaml:"session"`
	// Turn is 1 and Step counts the session's pre-steps unless given.
	Turn       int             `yaml:"turn"`
	Step       int             `yaml:"step"`
	Downstream *DownstreamSpec `yaml:"downstream"`
	// Cancel cancels the pre-step's context as soon as a provider in the
	// hang state has started listing.
	Cancel bool `yaml:"cancel"`
	Pos    Pos  `yaml:"-"`
}

// DownstreamSpec is the decision proposed to the plugin: reject, or enter
// with messages.
type DownstreamSpec struct {
	Reject   *string       `yaml:"reject"`
	Messages []MessageSpec `yaml:"messages"`
	Pos      Pos           `yaml:"-"`
}

// MessageSpec is a proposed message. Source is raw text (any bytes).
type MessageSpec struct {
	ID     string  `yaml:"id"`
	Role   string  `yaml:"role"`
	Text   string  `yaml:"text"`
	Source *string `yaml:"source"`
	// UserInput marks the message as direct user input (Message.UserInput).
	UserInput bool `yaml:"userInput"`
	Pos       Pos  `yaml:"-"`
}

// ToolCallAction runs Host.CallTool.
type ToolCallAction struct {
	Agent   string `yaml:"agent"`
	Cwd     string `yaml:"cwd"`
	Session string `yaml:"session"`
	// Tool is the called tool name; "skill" by default.
	Tool string `yaml:"tool"`
	// Skill is shorthand for the arguments {"name": Skill}.
	Skill *string `yaml:"skill"`
	// Arguments is the raw JSON argument text.
	Arguments *string `yaml:"arguments"`
	Pos       Pos     `yaml:"-"`
}

// ResourceToolName is the resource-read tool's name, which readResource
// calls.
const ResourceToolName = "skill_resource"

// ReadResourceAction calls the resource-read tool: with the arguments
// {"name": Skill, "path": Path, "offset": Offset} (offset only when given),
// or with the raw JSON Arguments instead.
type ReadResourceAction struct {
	Agent     string  `yaml:"agent"`
	Cwd       string  `yaml:"cwd"`
	Session   string  `yaml:"session"`
	Skill     string  `yaml:"skill"`
	Path      *string `yaml:"path"`
	Offset    *int64  `yaml:"offset"`
	Arguments *string `yaml:"arguments"`
	Pos       Pos     `yaml:"-"`
}

// SkillRef names a runtime registration (Scope) or a provider's skill
// (Provider).
type SkillRef struct {
	Name     string `yaml:"name"`
	Scope    string `yaml:"scope"`
	Provider string `yaml:"provider"`
	Pos      Pos    `yaml:"-"`
}

// SkillChange edits fields of an existing skill; unset fields stay.
type SkillChange struct {
	Name           string            `yaml:"name"`
	Scope          string            `yaml:"scope"`
	Provider       string            `yaml:"provider"`
	Description    *string           `yaml:"description"`
	Body           *string           `yaml:"body"`
	ModelInvocable *bool             `yaml:"modelInvocable"`
	UserInvocable  *bool             `yaml:"userInvocable"`
	ResourceBase   *ResourceBaseSpec `yaml:"resourceBase"`
	LoadError      *string           `yaml:"loadError"`
	Vanished       *bool             `yaml:"vanished"`
	Pos            Pos               `yaml:"-"`
}

// ProviderChange changes a scripted provider's state.
type ProviderChange struct {
	ID    string  `yaml:"id"`
	State string  `yaml:"state"`
	Error *string `yaml:"error"`
	Pos   Pos     `yaml:"-"`
}

// ToolRef names a tool in a scope, for restriction and shadowing.
type ToolRef struct {
	Scope string `yaml:"scope"`
	// Tool is "skill" by default.
	Tool string `yaml:"tool"`
	Pos  Pos    `yaml:"-"`
}

// CompactAction appends a compaction record hiding From..To.
type CompactAction struct {
	Session string `yaml:"session"`
	// From is 1 and To the current head when zero.
	From uint64 `yaml:"from"`
	To   uint64 `yaml:"to"`
	Pos  Pos    `yaml:"-"`
}

// AppendAction appends raw events to a session log between steps.
type AppendAction struct {
	Session string      `yaml:"session"`
	Events  []EventSpec `yaml:"events"`
	Pos     Pos         `yaml:"-"`
}

// SelectAction sets a session's skill selection with Host.SelectSkills; no
// lists clears it.
type SelectAction struct {
	Session          string   `yaml:"session"`
	IncludeNames     []string `yaml:"includeNames"`
	ExcludeNames     []string `yaml:"excludeNames"`
	IncludeProviders []string `yaml:"includeProviders"`
	ExcludeProviders []string `yaml:"excludeProviders"`
	// Error, when set, is the error SelectSkills must refuse the selection
	// with; the step fails if it is accepted.
	Error *TextMatch `yaml:"error"`
	Pos   Pos        `yaml:"-"`
}

// RestartAction restarts the runtime: the Host is closed (its plugin
// process stops) and a new Host on the same session store, scopes and
// skills loads and mounts the plugin again, as a resumed runtime would.
type RestartAction struct {
	Pos Pos `yaml:"-"`
}

// Expect is what a preStep or toolCall must produce. Unset fields are not
// checked.
type Expect struct {
	// Pre-step expectations.

	Outcome string `yaml:"outcome"`
	// Reject is the reason of the final decision, which must reject.
	Reject *string `yaml:"reject"`
	// Messages is the exact final message list of the decision.
	Messages *[]MessageExpect `yaml:"messages"`
	// Added are the final messages that are not proposed downstream
	// messages (added or replacing), in order.
	Added *[]MessageExpect `yaml:"added"`
	// Removed are the ids of proposed messages missing from the final list.
	Removed *[]string `yaml:"removed"`
	// NothingAdded: the final messages are exactly the proposed ones.
	NothingAdded bool `yaml:"nothingAdded"`
	// Cancelled lists providers that must observe the cancellation.
	Cancelled []string `yaml:"cancelled"`
	// Diagnostics are the plugin's diagnostics for the step, in order
	// (StepResult.Diagnostics); [] for none.
	Diagnostics *[]TextMatch `yaml:"diagnostics"`

	// Tool-call expectations.

	IsError *bool      `yaml:"isError"`
	Text    *TextMatch `yaml:"text"`
	// Value is the canonical result value as JSON (null: no value).
	Value JSONValue `yaml:"value"`
	// NotFound: the name does not resolve to the plugin's tool for the
	// agent, so the host does not forward the call.
	NotFound bool `yaml:"notFound"`

	// Either.

	// Error matches the error the host call returned (none when unset,
	// except where NotFound says otherwise).
	Error *TextMatch `yaml:"error"`
	// Log checks the session log after the step.
	Log *LogExpect `yaml:"log"`
	// Loads are the names each provider was asked to Load so far, in order.
	Loads map[string][]string `yaml:"loads"`
	// Lists counts each provider's List calls so far.
	Lists map[string]int `yaml:"lists"`
	// Reads are the resources ("name/path") each scripted provider was
	// asked to read so far, in order.
	Reads map[string][]string `yaml:"reads"`
	Pos   Pos                 `yaml:"-"`
}

// MessageExpect is one expected message; unset fields are not compared.
type MessageExpect struct {
	ID   *string    `yaml:"id"`
	Role string     `yaml:"role"`
	Text *TextMatch `yaml:"text"`
	// Source is the parsed JSON source, compared structurally (null: the
	// message has no source).
	Source JSONValue `yaml:"source"`
	// SourceRaw is the exact source text.
	SourceRaw *string `yaml:"sourceRaw"`
	Pos       Pos     `yaml:"-"`
}

// LogExpect checks a session log.
type LogExpect struct {
	// Events is the number of events in the log.
	Events *int `yaml:"events"`
	// Last is the newest event.
	Last *EventExpect `yaml:"last"`
	// Tail are the newest events, oldest first.
	Tail *[]EventExpect `yaml:"tail"`
	// DistinctIDs: no two message events of the log carry the same
	// message id.
	DistinctIDs bool `yaml:"distinctIds"`
	Pos         Pos  `yaml:"-"`
}

// EventExpect is one expected event; unset fields are not compared.
type EventExpect struct {
	Seq       *uint64    `yaml:"seq"`
	Type      string     `yaml:"type"`
	Visible   *bool      `yaml:"visible"`
	Text      *TextMatch `yaml:"text"`
	Source    JSONValue  `yaml:"source"`
	SourceRaw *string    `yaml:"sourceRaw"`
	Pos       Pos        `yaml:"-"`
}

// TextMatch matches a text. In YAML a plain string is the exact text; a
// mapping {exact, prefix, suffix, contains, excludes} combines conditions.
type TextMatch struct {
	Exact    *string  `yaml:"exact"`
	Prefix   string   `yaml:"prefix"`
	Suffix   string   `yaml:"suffix"`
	Contains []string `yaml:"contains"`
	Excludes []string `yaml:"excludes"`
	Pos      Pos      `yaml:"-"`
}

func (m *TextMatch) decodeNode(d *decoder, n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.ShortTag() != "!!str" {
			return d.errorf(n, "expected a text (a string, or a mapping of exact/prefix/suffix/contains/excludes), got %s", describe(n))
		}
		s := n.Value
		*m = TextMatch{Exact: &s, Pos: Pos{n.Line, n.Column}}
		return nil
	}
	type plain TextMatch
	var p plain
	if err := d.decodeStruct(n, reflectValue(&p)); err != nil {
		return err
	}
	*m = TextMatch(p)
	if m.Exact == nil && m.Prefix == "" && m.Suffix == "" && len(m.Contains) == 0 && len(m.Excludes) == 0 {
		return d.errorf(n, "a text match needs at least one of exact, prefix, suffix, contains, excludes")
	}
	return nil
}

// failure describes how s fails the match, or "" when it matches.
func (m *TextMatch) failure(s string) string {
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
func (m *TextMatch) want(got string) string {
	why := m.failure(got)
	switch {
	case why == "":
		return got
	case m.Exact != nil:
		return *m.Exact
	}
	return "<text that " + why + ">"
}

// JSONValue is a YAML value standing for a JSON value, compared
// structurally. Set records that the field was present (null included).
type JSONValue struct {
	Set   bool
	Value any
	Pos   Pos
}

func (j *JSONValue) decodeNode(d *decoder, n *yaml.Node) error {
	var v any
	if err := n.Decode(&v); err != nil {
		return d.errorf(n, "invalid value: %v", err)
	}
	norm, err := normalizeJSON(v)
	if err != nil {
		return d.errorf(n, "not representable as JSON: %v", err)
	}
	*j = JSONValue{Set: true, Value: norm, Pos: Pos{n.Line, n.Column}}
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
