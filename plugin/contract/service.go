package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Service is the plugin as a host calls it: one implementation per end
// (the engine in package plugin; the gRPC client of a plugin process), each
// call answering as documented here. Implementations are safe for
// concurrent use and honour ctx. A failure caused by the host's side
// matches ErrHostFailed (see the package documentation).
type Service interface {
	// Configure validates a mount's configuration and returns the tools
	// the host must register into the mount's scope. host is how the
	// mount calls the host back (required). A refused configuration is a
	// *ConfigError.
	Configure(ctx context.Context, host Host, req ConfigureRequest) (ConfigureResponse, error)
	// BindTools records the identities the host minted for a mount's
	// tools. An unknown mount is ErrUnknownMount.
	BindTools(ctx context.Context, mountID string, bindings []ToolBinding) error
	// Unmount forgets a mount; unmounting an unknown mount does nothing.
	Unmount(ctx context.Context, mountID string) error
	// PreStep applies the catalog rules for one model step of
	// req.MountID. A mount whose `skill` tool was never bound is
	// ErrUnbound; an unknown mount ErrUnknownMount.
	PreStep(ctx context.Context, req StepRequest) (StepResponse, error)
	// ExecuteSkillTool runs one call of one of a mount's tools. What the
	// model should see, failures included, is the result; an error means
	// the call could not be answered.
	ExecuteSkillTool(ctx context.Context, call ToolCall) (ToolResult, error)
	// EndSession drops what the service keeps for a session.
	EndSession(ctx context.Context, sessionID string) error
	// Ping makes one empty round trip.
	Ping(ctx context.Context) error
}

// Role says whom a message speaks for in the model conversation.
type Role string

// Message roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleTool      Role = "tool"
)

// ContentBlock is one block of a message's content: text, a tool call, a
// tool result, an image, or any other block a model API defines (see
// blocks.go for the typed constructors and readers). A block other than
// plain text keeps its JSON byte for byte in Raw, so the session log holds
// what the model API sent and gives it back unchanged; the plugin reads
// only Type and Text.
type ContentBlock struct {
	// Type is the block type: "text" for text blocks.
	Type string `json:"type"`
	// Text is a text block's text ("" for other blocks).
	Text string `json:"text,omitempty"`
	// Raw, when set, is the block's complete JSON object, and Type and Text
	// are read from it: the block encodes as Raw, whatever Type and Text
	// say. It is set for every block that is more than a type and a text.
	// Change such a block by building a new one.
	Raw json.RawMessage `json:"-"`
}

// Message is a durable message a step proposes or adds.
type Message struct {
	ID      string         `json:"id"`
	Role    Role           `json:"role"`
	Content []ContentBlock `json:"content"`
	// Source is the message's raw durable source JSON, kept byte for byte;
	// nil when it has none. Catalog messages carry their catalog record
	// here.
	Source json.RawMessage `json:"-"`
	// UserInput marks a direct user message: text the user wrote for this
	// step, not a tool result, injected context or assistant text. A host
	// sets it on the user's messages it proposes in the downstream decision
	// of the step that first carries them; with the userInvocation option,
	// only these are scanned for `/name` tokens.
	UserInput bool `json:"userInput,omitempty"`
}

// Text returns the concatenated text of the message's text blocks.
func (m Message) Text() string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// CheckUTF8 reports the first text of the message that is not valid UTF-8
// (its id, its role, a content block's type or text) as an error naming
// the message and the field that matches skill.ErrInvalidUTF8; nil when all
// are valid. The protocol's strings are UTF-8: a host refuses such a
// message where it takes it, rather than let the step fail in transit. A
// block's Raw JSON is not checked here: it crosses as bytes.
func (m Message) CheckUTF8() error {
	if err := skill.CheckUTF8("id", m.ID); err != nil {
		return fmt.Errorf("message %q: %w", m.ID, err)
	}
	if err := skill.CheckUTF8("role", string(m.Role)); err != nil {
		return fmt.Errorf("message %q: %w", m.ID, err)
	}
	for i, c := range m.Content {
		if utf8.ValidString(c.Type) && utf8.ValidString(c.Text) {
			continue
		}
		err := skill.CheckUTF8(fmt.Sprintf("content block %d's type", i), c.Type)
		if err == nil {
			err = skill.CheckUTF8(fmt.Sprintf("content block %d's text", i), c.Text)
		}
		return fmt.Errorf("message %q: %w", m.ID, err)
	}
	return nil
}

// Decision is a pre-step decision: reject the step, or enter it with extra
// messages.
type Decision struct {
	// Reject, when non-nil, rejects the step; Messages are then ignored.
	Reject *Reject
	// Messages are added to the step when it enters.
	Messages []Message
}

// Reject says why a step was rejected.
type Reject struct {
	Reason string
}

// SessionHead identifies the state of a session's durable log: the sequence
// number of its newest event and a revision that changes whenever events
// already written change visibility (compaction) or the log is rewritten.
type SessionHead struct {
	Seq             uint64
	SurfaceRevision uint64
}

// StepRequest is the input of one pre-step.
type StepRequest struct {
	// MountID is the mount the step runs under.
	MountID    string
	SessionID  string
	Cwd        string
	AgentScope string
	Turn       uint32
	Step       uint32
	// Downstream is the decision of the host's listeners.
	Downstream Decision
	// SkillToolIdentity is the definition identity that the tool name
	// `skill` resolves to for the calling agent; empty when none.
	SkillToolIdentity string
	// SnapshotToken is the token of the host's cached complete snapshot
	// for (Cwd, AgentScope), if it holds one: a hint that lets the plugin
	// skip the Snapshot callback.
	SnapshotToken string
	// Head is the session log's current head, or nil when the host could
	// not read it: a hint that lets the plugin skip or shorten the
	// ReadEvents callback.
	Head *SessionHead
	// Recent, when set, holds the events appended since an earlier head,
	// so a step whose session only grew needs no ReadEvents callback.
	Recent *RecentEvents
	// Snapshot, when set (only to a service that AcceptsStepSnapshots), is
	// the host's answer, computed ahead, to the Snapshot callback the
	// service would make for (SessionID, Cwd, AgentScope): either a delta
	// of a complete snapshot (DeltaBase set: what Snapshot answers a
	// request with IfNoneMatch = DeltaBase and AcceptDelta, where DeltaBase
	// is a token the host answered the session's Snapshot with for the
	// same Cwd and AgentScope) whose Token is SnapshotToken, or an
	// incomplete snapshot (Complete false, no Skills). A service that does
	// not hold DeltaBase's snapshot calls Snapshot as it would without it.
	Snapshot *Snapshot
	// TouchedPaths are the files the session worked with since its
	// previous step (paths from its tool calls: read, written, edited),
	// absolute or relative to Cwd, slash-separated. A skill scoped by
	// `paths` (skill.Summary.Paths) enters the catalog at the first step
	// whose touched paths its patterns match, relative to Cwd, and stays
	// for the rest of the session (the catalog record names it). At most
	// MaxTouchedPaths are read.
	TouchedPaths []string
	// PreloadSkills are the skills the host preloads for the session (its
	// own and its agent scope's, see hostsdk): at the session's first step
	// their instructions are appended, once, in one message, and treated
	// from then on as loaded. A name the agent cannot load is left out
	// with a reason; the step goes on.
	PreloadSkills []string
}

// MaxTouchedPaths bounds the touched paths one step's request carries; a
// host sends the most recent ones.
const MaxTouchedPaths = 256

// RecentEvents are the newest events of a session, sent with a step. They
// are every event with AfterSeq < Seq <= Head.Seq, newest first, as
// ReadEvents would return them at Head; the plugin uses them only when
// AfterSeq is the head it last read up to on the same surface revision.
type RecentEvents struct {
	AfterSeq uint64
	Events   []SessionEvent
}

// Outcome says what the plugin did with the catalog in a pre-step. With the
// userInvocation option, skills the user invoked may be appended under any
// outcome but OutcomeRejectPassthrough.
type Outcome string

// Outcomes of a pre-step.
const (
	// OutcomeRejectPassthrough: the downstream decision rejected the step
	// and passed through untouched.
	OutcomeRejectPassthrough Outcome = "reject-passthrough"
	// OutcomeUnchanged: the model's view is current and the plugin added
	// no catalog of its own (it may have removed proposed catalogs).
	OutcomeUnchanged Outcome = "unchanged"
	// OutcomeIncomplete: the skill snapshot was incomplete; nothing changed.
	OutcomeIncomplete Outcome = "incomplete"
	// OutcomeInitial: the session's first catalog was published.
	OutcomeInitial Outcome = "initial"
	// OutcomeReplacement: a complete replacement catalog was published.
	OutcomeReplacement Outcome = "replacement"
	// OutcomeTombstone: an empty replacement retired every earlier name.
	OutcomeTombstone Outcome = "tombstone"
)

// EditOp is the kind of an Edit.
type EditOp uint8

// Edit operations.
const (
	// EditRemove removes the proposed message at Index.
	EditRemove EditOp = iota + 1
	// EditReplace replaces the proposed message at Index with Message.
	EditReplace
	// EditAppend appends Message after every proposed message.
	EditAppend
)

// Edit is one edit to the downstream decision's messages. Indexes refer to
// the messages as proposed: removals and replacements apply by index, then
// appends in order; a message that any edit removes is removed even if
// another edit replaces it.
type Edit struct {
	Op      EditOp
	Index   int
	Message Message
}

// StepResponse is what a pre-step decided: its outcome, why, and the edits
// to the downstream decision.
type StepResponse struct {
	Outcome Outcome
	Edits   []Edit
	// Diagnostics tell the host, not the model, what the plugin changed
	// to publish a catalog, such as descriptions a catalog budget
	// shortened and skills it left out. Set only on a step that publishes.
	Diagnostics []string
	// Reasons say why the step published a catalog or did not, for the
	// host's operators: at least one, the one that explains the outcome
	// among them (ReasonCurrent, ReasonProposed or ReasonEmpty for
	// OutcomeUnchanged; the outcome's own code for the others), then what
	// else applies (a hidden `skill` tool, budget diagnostics, skills the
	// user invoked).
	Reasons []Reason
	// Invocations are the skills the user invoked by name whose
	// instructions the step appends, in the order of their messages.
	Invocations []Invocation
	// Reattached are the skills whose instructions a compaction hid that
	// the step's re-attachment message names, most recently used first,
	// with what became of each; empty when the step adds none.
	Reattached []AttachedSkill
	// Preloaded are the skills the host preloads, as the session's first
	// step added them or left them out; empty at every other step.
	Preloaded []AttachedSkill
}

// AttachedSkill is a skill whose instructions a pre-step appended outside
// the `skill` tool (re-attached after a compaction, or preloaded), or
// could not.
type AttachedSkill struct {
	// Name is the skill's name.
	Name string
	// State is "" when its instructions were attached as loaded, or one of
	// "changed" (attached: they changed since they were loaded), "gone"
	// (the agent no longer has the skill), "unavailable" (the provider
	// failed to load it) and "left-out" (no room within the bound).
	State string
	// MessageID is the id of the appended message that carries or names
	// it.
	MessageID string
	// Kept and Total are the characters of its instructions the message
	// holds and they have (Kept < Total: cut to the bound); 0 when nothing
	// is attached.
	Kept, Total int
}

// ToolDefinition is a model-facing tool the plugin implements.
type ToolDefinition struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of the tool's arguments.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the tool's structured result.
	OutputSchema json.RawMessage
}

// ToolBinding pairs a tool name with the opaque identity the host minted
// when it registered that definition.
type ToolBinding struct {
	ToolName           string
	DefinitionIdentity string
}

// ToolCall is one call of one of the plugin's tools.
type ToolCall struct {
	// MountID is the mount whose tool was called.
	MountID string
	// ToolName is the tool called; empty means the `skill` tool.
	ToolName   string
	SessionID  string
	Cwd        string
	AgentScope string
	CallID     string
	// Arguments is the raw JSON of the call's arguments.
	Arguments json.RawMessage
	// SkillToolIdentity is the definition identity the name `skill`
	// resolves to for the calling agent, empty when nothing resolves. The
	// resource-read and skill-search tools answer only when it is the
	// mount's own.
	SkillToolIdentity string
	// SnapshotToken is the revision token of the host's cached skill
	// snapshot for (Cwd, AgentScope), as in StepRequest, when the host
	// holds a complete one: it lets the plugin answer from its caches
	// without calling Snapshot.
	SnapshotToken string
}

// ToolResult is a tool call's result: the text the model sees and, on
// success, the canonical value.
type ToolResult struct {
	// Value is set on a successful `skill` call.
	Value *skill.ToolValue
	// Resource is set on a successful resource-read call.
	Resource *skill.ResourcePage
	// Search is set on a successful skill-search call.
	Search *skill.SearchResult
	// Directives, on a successful `skill` call, are what the loaded skill
	// asks of the runtime, with the kinds the host said it acts on
	// (skill.Directives.Honoured); nil when it asks for nothing. Text ends
	// with the notice of what is not acted on (render.DirectivesNotice).
	Directives *skill.Directives
	// Text is the wrapped instructions or resource page on success, or the
	// error text.
	Text    string
	IsError bool
	// Source, on a successful `skill` call, is the durable source the host
	// stores with the message that carries the result (the record of the
	// load, {"kind":"skill-load",...}), so that a later step knows which
	// skills' instructions the model saw and can attach them again after a
	// compaction hides them; nil otherwise.
	Source json.RawMessage
}

// GlobalScope is the scope at the root of a host's scopes: a plugin
// mounted there, and skills attached there, serve every agent.
const GlobalScope = "global"

// ConfigureRequest configures one mount.
type ConfigureRequest struct {
	// Config is a JSON object of plugin options; empty means all defaults.
	Config string
	// Scope is the scope the plugin is mounted in; informational.
	Scope string
	// Discovery, when set, is the JSON form of a Discovery: the service
	// discovers the mount's skills itself and calls only the host's
	// ReadEvents for it. Empty: the host's callbacks answer everything.
	Discovery string
}

// ConfigureResponse describes a new mount.
type ConfigureResponse struct {
	// MountID is passed back on every later call for the mount.
	MountID string
	// Tools must be registered into the mount's scope.
	Tools []ToolDefinition
	// AcceptsSourceDigests says the service resolves a recent event sent
	// with SessionEvent.SourceDigest instead of its source, for sources it
	// produced itself (see RecentEvents). A host sends digests only to a
	// service that says so.
	AcceptsSourceDigests bool
	// AcceptsStepSnapshots says the service takes the snapshot a host
	// computed ahead of a step (StepRequest.Snapshot). A host sends one
	// only to a service that says so.
	AcceptsStepSnapshots bool
	// DiscoversSkills says the service discovers the mount's skills itself
	// (ConfigureRequest.Discovery): it makes no Snapshot, GetSkill or
	// ReadResource callback for the mount and ignores the SnapshotToken
	// and Snapshot of its steps.
	DiscoversSkills bool
}

// Apply applies a pre-step's edits to the decision they were computed for
// and returns the final decision. It fails, leaving d as it was, when an
// edit touches a rejected decision, names an index outside the proposed
// messages, or has no known operation.
func (d Decision) Apply(edits []Edit) (Decision, error) {
	if d.Reject != nil {
		if len(edits) > 0 {
			return d, errors.New("edits to a rejected decision")
		}
		return d, nil
	}
	msgs := slices.Clone(d.Messages)
	removed := make([]bool, len(msgs))
	var appended []Message
	for _, e := range edits {
		switch e.Op {
		case EditRemove, EditReplace:
			if e.Index < 0 || e.Index >= len(msgs) {
				return d, fmt.Errorf("edit of message %d of %d", e.Index, len(msgs))
			}
			if e.Op == EditRemove {
				removed[e.Index] = true
			} else {
				msgs[e.Index] = e.Message
			}
		case EditAppend:
			appended = append(appended, e.Message)
		default:
			return d, fmt.Errorf("edit with unknown operation %d", e.Op)
		}
	}
	out := Decision{Messages: make([]Message, 0, len(msgs)+len(appended))}
	for i, m := range msgs {
		if !removed[i] {
			out.Messages = append(out.Messages, m)
		}
	}
	out.Messages = append(out.Messages, appended...)
	return out, nil
}
