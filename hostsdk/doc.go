// Package hostsdk lets a Go agent runtime use the skill-catalog plugin
// without knowing gRPC or go-plugin: it imports neither.
//
// A runtime opens a [Host] over its skills and session store ([Open]),
// takes the [Session] of each conversation ([Host.Session]), and at every
// model call hands the session the history it is about to send
// ([Session.Sync]): the plugin decides whether the model needs a skill
// catalog, and the result says what to send, catalog included. The
// model's `skill` calls go back through the session ([Session.CallTool]),
// which offers the tools ([Session.Tools]). A complete program:
//
//	func main() {
//		ctx := context.Background()
//		host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{
//			SkillDirs:  []string{"skills"}, // one folder per skill, each with a SKILL.md
//			SessionDir: "sessions",         // the durable session logs
//		})
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer host.Close()
//		session := host.Session("session-1", &hostsdk.SessionOptions{Cwd: "/src/project"})
//		history := []hostsdk.Message{{Role: hostsdk.RoleUser,
//			Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Fill in the W-9.")}}}
//		res, err := session.Sync(ctx, history)
//		if err != nil {
//			log.Fatal(err)
//		}
//		for _, m := range res.View { // what to send the model, after its system prompt
//			fmt.Println(m.Message.Text())
//		}
//		// Offer session.Tools() to the model, and run its calls of them
//		// with session.CallTool.
//	}
//
// # Sessions
//
// A [*Session] is one handle holding a session's identity (id, working
// directory, agent scope), and the one door to everything done to the
// session: its steps ([Session.Sync], or [Session.Step] for a runtime that
// keeps its own transcript in the session log), tool calls
// ([Session.CallTool]), the messages added between steps
// ([Session.Append]), compactions ([Session.RecordCompaction]), skill
// selection ([Session.SelectSkills]), its transcript ([Session.Transcript])
// and its end ([Session.End]). The Host keeps what is not per session: the
// plugins it loaded and their mounts, listeners, directive handling, and
// the tools per agent scope ([Host.Tools]). Handles are cheap and share the
// session's state; steps of one session take turns within a Host,
// whichever handle runs them, so a slow step is never starved by steps
// that keep arriving.
//
// Agent frameworks (Eino, Genkit, langchaingo) own the conversation history
// and rebuild the model's input from it at every call, so a message added
// once is gone at the next run unless it is put back. [Session.Sync] is the
// step for them: given the messages the framework is about to send, it
// appends what is new to the log (message IDs are optional: stable ones
// are derived when absent), runs the step, and returns the list to send
// with every plugin message the log holds spliced back at its place. It is
// idempotent when a history is sent again, and correct across runs and
// restarts, since it reads everything it knows from the log. A history
// that lost messages from its front (a window of the last N messages) has
// those recorded as compacted and only its new messages appended, and the
// newest catalog stays before the window, where the model keeps seeing it;
// a history the framework summarised or edited is recorded as a compaction
// of what it no longer holds, so a catalog that went with it is published
// again. The plugin's messages are marked: [ViewMessage.Plugin],
// [TranscriptEntry.Plugin], [IsPluginMessage]. When the plugin fails and the
// host fails open, Session.Step and Sync still append the runtime's
// messages, so the log never falls behind what the model was sent.
//
// # A host of your own
//
// [Open] covers the common case in one call (skill directories with the
// usual layouts, a memory, file or any other session store, the plugin in
// process or as a binary, mounted in the global scope). A runtime that
// composes its own parts builds the Host with [New]. A Host owns the three
// things the plugin calls back into: a scope tree with tool definitions
// (package tools), a skill registry with pluggable providers (package
// skills) and a store of durable session logs (package sessionlog).
// [Host.Load] runs the plugin: a binary in a process of its own, started by
// the Launcher in [LoadOptions] (package pluginproc: the go-plugin
// handshake, AutoMTLS on, an optional SHA-256 checksum verified before the
// binary runs), or the engine itself in the host's process
// ([LoadOptions.InProcess]). Either way the host drives the protocol's
// [contract.Service] and serves its callbacks as a [contract.Host].
// [Plugin.Mount] configures the plugin in one scope (tools.GlobalScope, or
// one agent's composition) and registers its `skill` tool into that scope
// only, keeping the definition identity it minted.
//
// At every model step the session's Step (or Sync) runs the Host's
// downstream listeners ([Host.AddListener]), then the pre-step of the
// mount in effect for the session's agent (the mount in the nearest scope
// of the agent's chain), then appends the resulting messages of an
// entering decision to the session log, sources intact. A `skill` tool
// call goes through [Session.CallTool], which resolves the tool name for
// the agent's scope and forwards calls that resolve to a mount's
// definition to the plugin; so does a call of the resource-read tool
// `skill_resource` that a mount with the resourceTool option registers.
// The plugin reads a skill's files through the host, a window at a time
// ([skills.Registry.ReadResourceWindow]): a directory skill's below its
// directory, others through their provider's [skills.ResourceReader].
//
// # One round trip per step
//
// With every step the host sends what lets the plugin decide without
// calling back: the session log's head, the token of the snapshot the
// registry holds for the step's place, and the events appended since the
// head it sent at the session's previous step (within a bounded window;
// beyond it the plugin reads the log). So a step where nothing
// happened, or where the session only grew by the model's reply and a tool
// result, is one round trip. [StepResult.Callbacks] counts the callbacks the
// plugin did make for a step. A catalog the plugin published at the
// previous step goes back by its digest only (the plugin knows its own
// catalogs), so a change crosses the connection once.
//
// # The session log and the runtime's transcript
//
// The plugin decides from the session log alone, so the log is the
// runtime's durable transcript, or an adapter over it (implement
// [sessionlog.Store]). A message holds any content block (TextBlock,
// ToolUseBlock, ToolResultBlock, ImageBlock, and RawBlock for any other),
// kept byte for byte, and [Session.Transcript] reads a session's messages
// back. Every message the model sees belongs in it, in order: messages
// proposed for a step go in the decision passed to [Session.Step] and the
// step appends them with the plugin's additions; messages that arrive
// between steps go through [Session.Append]. The user's own message is proposed in the step
// that first carries it, marked with Message.UserInput: with the plugin's
// userInvocation option, a `/name` in it adds that skill's instructions to
// the step. StepResult.Decision.Messages is the step's final
// message list, already durable, for the runtime to put into the model's
// context. When the runtime compacts the model's context it records the
// hidden range with [Session.RecordCompaction], and the next step publishes the
// catalog again if the range held it; an unrecorded compaction is invisible
// to the plugin, which then adds nothing until the skills change. A forked
// session starts as a copy of its parent's records; a resumed one reopens
// its id. [Session.Recovery] says what opening a session's log repaired.
//
// # Per-session skill selection
//
// [Session.SelectSkills] narrows the skills one session may use: by name and by
// provider label, with inclusions and exclusions (see [Selection] for the
// precedence: exclusion wins; no inclusion means every skill). The
// selection is a skill-selection record in the session log
// ([sessionlog.TypeSkillSelection]: no source, a JSON body, the newest
// readable one in effect), so it lasts as long as the session: a resumed
// session (a new Host on the same store) and a forked one (whose log starts
// with a copy of its parent's records) keep it, and [Session.Selection]
// reads it back. The plugin never reads it: having no source it is not a
// catalog, and it hides nothing.
//
// The host applies the selection in its callbacks: the Snapshot it answers
// lists only the selected skills, and GetSkill answers an unselected skill
// as not found without asking its provider, so the catalog leaves it out
// and the `skill` tool answers it as unknown. Snapshot tokens are content
// addresses shared across sessions, so a selected snapshot carries a token
// derived from the registry's token and the selection; changing the
// selection changes the token, and the session's next step publishes a
// replacement if what the model sees changed.
//
// The host remembers each open session's selection with the log position it
// is known up to. A step reads the events appended since its previous step
// anyway, and finds a new selection record among them at no extra cost;
// after a gap (many events, or a session new to this host) it reads the
// events since the remembered position, and only a session it has never
// seen is read back to its newest selection record or its start, once. So a
// selection another host recorded in a shared store is honoured at this
// host's next step or tool call.
//
// Steps of one session may race (goroutines, retried requests, host
// replicas sharing a store). Within a Host they take turns, in the order
// they arrive. Across hosts, a step appends with [sessionlog.Log.AppendIf]
// on the head the plugin decided on; if the head moved only by messages
// that cannot change the decision (none of the plugin's, no compaction or
// selection), the step's messages go onto the new head, and otherwise the
// plugin decides again (at most 16 times): so each catalog change is
// published once per session, and a step is not starved by steps that keep
// arriving.
//
// # Skill directives
//
// A skill may ask the runtime for more than its text: to run in a
// sub-agent, on another model, with tools pre-approved or withheld, at an
// effort level, with a shell for its command blocks, with lifecycle hooks
// (skill.Directives, read from its `context`, `agent`, `model`,
// `allowed-tools`, `disallowed-tools`, `effort`, `shell` and `hooks`). They
// reach the runtime typed whenever the skill is loaded:
// ToolResult.Directives for the `skill` tool, StepResult.Invocations for a
// user's `/name`. Host.HandleDirectives sets the function that says, while
// a trusted skill is loaded, which kinds the runtime acts on
// (Session.HandleDirectives, one session's own in its place); the skill's
// text states every other kind it asks for as not acted on. Directives are
// trusted for the host's own skills, and requests for a remote server's,
// unless its provider is attached with
// skills.ProviderOptions.TrustDirectives.
//
// # Enforced tool grants
//
// With Options.ToolGrants (OpenOptions.ToolGrants), off by default, the
// SDK makes a trusted skill's tool lists binding while the skill is active
// in the session's turn. A skill becomes active when a `skill` tool call
// loads it, or when the user invokes it by name in a step (the last one
// loaded wins; one without tool lists makes none active). It stays active
// until the turn ends (the next step whose messages hold a user's own
// message, Message.UserInput, or Session.EndTurn), another skill becomes
// active, or a compaction is recorded (RecordCompaction, or what Sync
// finds hidden). Meanwhile Session.OfferedTools leaves out the tools its
// disallowed-tools name (ToolGrantsEnforce) and, with ToolGrantsStrict and
// allowed-tools, every tool it does not list; Session.CheckToolCall
// refuses a call of a withheld tool with a fixed text naming the skill
// (render.GrantRefusal). The plugin's own tools are never withheld. An
// entry names a tool as ToolPatternMatches says: its exact name, the tool
// of a pattern such as "Bash(git add *)" (the whole tool), or a prefix
// before a trailing "*". A sub-agent (a fork) takes its parent's grants
// with Session.InheritGrants. The kinds the SDK enforces count as honoured
// directives, so the skill's text does not say they are ignored. The Eino
// and Genkit adapters and hostsdk/modelapi (OfferedTools, Refusal) apply
// them to the model's tools and calls.
// The grants in force live in the Host's memory, not in the session log:
// a restarted host, or a replica, starts each session with none.
//
// # Why a step did what it did
//
// Every StepResult says why in [StepResult.Reasons], a list of [Reason]: a code
// from a closed, documented set ([ReasonCodes]) and a one-line
// detail for people. The plugin gives the reason for its outcome (the
// model already sees the current catalog, the downstream decision proposes
// it, nothing to list, the first catalog, a replacement because the skills
// changed or compaction hid the catalog, the tombstone, an incomplete
// snapshot, a rejected step), and what else applied: a `skill` tool
// restricted away or shadowed for the agent, what a catalog budget
// shortened or left out, skills the user invoked. The host adds its own:
// each provider that made a snapshot incomplete, by type and scope, with
// the error it returned ([skills.Snapshot.Incomplete]: the registry keeps it
// rather than reducing it to Complete=false), names that skills of several
// origins share, no mount for the agent, and, for a failed step, the
// failure (host error, plugin error, or the caller's cancellation).
//
// A step logs a session's reasons when they differ from its previous
// step's, not at every step: one line, "skill catalog: the step's reasons
// changed", with the attributes session, agent, outcome and reasons. It is
// a warning when a reason is troubling (an incomplete snapshot and the
// providers behind it, a shadowed `skill` tool, a host or plugin error),
// at INFO when the previous step's were and these are not (the session
// recovered), and at DEBUG otherwise. So a session stuck on a provider
// error logs it once, and its recovery once. The host keeps one fingerprint
// per session for this, forgotten with the session (Session.End, Host.Close).
//
// The working directory of a Step or a ToolCall is an absolute path, or
// empty: a relative one could only be resolved against the host process's
// own directory, never the session's. Steps and tool calls refuse it with
// a [*HostError] matching [ErrRelativeCwd] that names it, before any provider
// or the plugin is called (the step fails open as below).
//
// # Failure behaviour
//
// A failed step or tool call says whom to blame. The caller's own
// cancellation or deadline comes back as it is: errors.Is(err,
// context.Canceled) or errors.Is(err, context.DeadlineExceeded) holds. A
// host-side dependency that failed or was still working when the host's
// deadline passed (a skill provider, the session store) is a *HostError, and
// the plugin keeps running; so is a call whose context carries more gRPC
// metadata than the plugin accepts (64 KiB as gRPC counts a header list,
// gRPC's own headers included), which is not sent, with an error naming
// the bound. Anything else — the plugin process died, hung
// past [Options.PreStepTimeout], or answered with an error — is a [*PluginError],
// whose Stopped field says whether the host stopped the process (the next
// call starts a new one). A *Plugin or *Mount left nil by a failed Load or
// Mount answers every method with [ErrNotLoaded] (or its zero value).
//
// The verdict is one check: a failure the plugin reports as the host's
// (errors.Is(err, [contract.ErrHostFailed]): a callback failed, or was still
// running when the deadline passed) is a *HostError, besides the caller's
// own context and what the Launcher's instance says about itself (its
// process died, or does not answer a Ping after the failed call).
//
// By default the host fails open: the returned StepResult carries the
// downstream decision unchanged (Outcome [OutcomePluginError]), nothing the
// plugin would have added is appended, and the downstream messages proceed
// as the runtime decides (the SDK appends them only on success, so a failed
// step leaves the session log exactly as it was). That holds for a step
// whose session store failed too: opening the log or appending the step's
// messages (a full disk, a lost database connection, the step's deadline
// passing on a locked row) is a *HostError, and the stores promise that a
// failed append wrote nothing ([sessionlog.Log.Append]), short of an error
// wrapping [sessionlog.ErrOutcomeUnknown]. [Options.PreStepTimeout] bounds every
// store call of a step. With [Options.FailClosed] the step's decision is the
// error alone. A plugin process that died, or that ran past the deadline and
// then failed a Ping, is killed; the next call restarts it and replays every
// mount's configuration and tool bindings, and the definition identities
// stay the same, so the catalog logic resumes from the durable log without
// republishing. A call that failed because the host itself was slow or
// failing (a provider past the deadline, a storage error) leaves a plugin
// that still answers Ping running. Tool calls are bounded by
// [Options.ToolCallTimeout] the same way.
//
// A plugin never outlives its host: a plugin process whose host died without
// closing it (SIGKILL, an OOM kill, a panic that skipped Close) notices that
// it was re-parented and exits within about a second (see package
// pluginserver); it holds nothing durable, so nothing is lost.
//
// The file-backed session log acknowledges an append only after fsync, so a
// host killed mid-append loses no acknowledged event; a torn last line is
// dropped when the log is reopened.
//
// # Tracing and metrics
//
// [Options.TracerProvider] and [Options.MeterProvider] take OpenTelemetry
// providers; nil (the default) records nothing and adds no work. The SDK
// depends only on the OpenTelemetry API: the host chooses the SDK, the
// sampler and the exporters. Give [skills.RegistryOptions] the same
// providers for the registry's provider calls.
//
// Spans, each a child of the one before it, with their attributes:
//
//   - skillcatalog.PreStep, one per step (Session.Step, Session.Sync), a
//     child of the caller's span if its context has one: skillcatalog.session.id,
//     skillcatalog.agent.scope, skillcatalog.turn, skillcatalog.step,
//     skillcatalog.outcome, skillcatalog.appended (messages appended),
//     skillcatalog.callbacks (callbacks made); an error sets its status.
//     skillcatalog.CallTool is its counterpart for Session.CallTool
//     (skillcatalog.tool, skillcatalog.tool.error; a name that is not the
//     plugin's, left to the runtime, is skillcatalog.tool.forwarded false
//     and not a failure).
//   - skillcatalog.plugin.PreStep and skillcatalog.plugin.ExecuteSkillTool
//     (kind client): the plugin's work on the call, one per attempt. Its
//     context goes with the call: in the host's process directly, to a
//     plugin process as W3C trace context (traceparent, tracestate) in the
//     gRPC metadata. A plugin process records no spans; it reports its own
//     time on the call, set as skillcatalog.plugin.duration_ms, so the
//     span tells the plugin's time from the connection's.
//   - skillcatalog.callback.Snapshot, .ReadEvents, .GetSkill and
//     .ReadResource (kind server): each host callback the plugin makes for
//     the call. A plugin process sends the trace context it was called
//     with on its callbacks, so in both hosting modes they are children of
//     the plugin's span, in one trace.
//   - skillcatalog.provider.List, .Load, .ReadSkillResource and
//     .OpenSkillDirectory: the registry's calls of its providers, below the
//     callback that made them (see package skills).
//
// Metrics carry bounded attributes only (never a session id, a skill name
// outside the skill counters of "Skill activations"
// or a path; those are on the spans). Instrument, kind, unit, attributes:
//
//   - skillcatalog.steps, counter, {step}: skillcatalog.outcome, an Outcome
//     or "error" for a step that returned an error with no outcome (a
//     listener's, an unknown scope, any failure under FailClosed).
//   - skillcatalog.step.duration, histogram, s: skillcatalog.outcome.
//   - skillcatalog.publications, counter, {publication}: catalog messages
//     appended, by skillcatalog.kind: initial, replacement or tombstone.
//   - skillcatalog.callback.duration, histogram, s: skillcatalog.callback
//     (Snapshot, ReadEvents, GetSkill, ReadResource) and
//     skillcatalog.result (ok, error).
//   - skillcatalog.skill.loads, counter, {load}: the plugin's GetSkill
//     callbacks (the skill tool and user invocations), by
//     skillcatalog.result: ok, not_found, error (the provider failed).
//   - skillcatalog.resource.reads, counter, {read}: the plugin's
//     ReadResource callbacks, by skillcatalog.result: ok, binary,
//     not_found, refused (a path, size or policy the host refuses), error.
//   - skillcatalog.provider.duration and skillcatalog.provider.errors, from
//     package skills: by provider label and operation.
//
// Histograms advise bucket bounds from 100 µs to 30 s.
//
// # Skill activations
//
// Each skill whose instructions reach the model is an activation: one
// span event skillcatalog.skill.activation on the span of the step or tool
// call that activated it, with skillcatalog.skill (the name, or with
// [Options.MaskSkillNames] "skill-" and 16 hex digits of its hash, stable
// across hosts), skillcatalog.skill.origin (the remote source's label, or
// local), skillcatalog.skill.digest (events.ContentDigest of the
// instructions the message carries, from its load record),
// skillcatalog.trigger, skillcatalog.session.id and
// skillcatalog.agent.scope. The triggers ([TriggerModel] and the rest):
//
//   - model: a successful `skill` tool call (Session.CallTool, on the
//     skillcatalog.CallTool span);
//   - user: the user invoked the skill by name (StepResult.Invocations);
//   - fork: the same, for a skill whose directives run it in a sub-agent
//     (context: fork); the host sees the invocation, not the sub-agent,
//     and a fork the model's `skill` call leads the runtime to start is
//     recorded as model;
//   - preload: preloaded at the session's first step (StepResult.Preloaded);
//   - reattach: attached again after a compaction hid its instructions
//     (StepResult.Reattached); skills gone, unavailable or left out are
//     not activations.
//
// Two counters let listed and loaded be compared per skill (the skill
// names are those of the library, so bounded; no session id, no digest):
//
//   - skillcatalog.skill.activations, counter, {activation}:
//     skillcatalog.skill, skillcatalog.skill.origin, skillcatalog.trigger,
//     skillcatalog.agent.scope.
//   - skillcatalog.skill.listed, counter, {listing}: at each step that
//     published a catalog (initial or replacement), one for every skill
//     of the snapshot the catalog was built from (the session's selection
//     applied; a skill a catalog budget shortened or left out still
//     counts): skillcatalog.skill, skillcatalog.skill.origin,
//     skillcatalog.agent.scope. A skill listed but never activated has
//     listings and no activations.
package hostsdk
