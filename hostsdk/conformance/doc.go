// Package conformance runs declarative scenarios against a skill-catalog
// plugin binary, through the host SDK over go-plugin, and reports how the
// plugin's behaviour differs from what each scenario expects. It is how
// hosts and plugin releases prove they keep the contract of seed 002: the
// repository's scenarios live in testdata/conformance, and
// `skillcatalog conform --plugin PATH [FILE|DIR ...]` runs them.
//
// Every scenario runs in a fresh world: a new scope tree, skill registry,
// scripted providers, a file-backed session store in a temporary directory,
// a Host and its own plugin process, all closed afterwards. Steps run in
// order; the first step whose expectations fail is reported with a go-cmp
// diff (-want +got) labelled with its number, its action and the changes
// made since the previous checked step, for example
//
//	step 3 (preStep by agent:main in session s1; after: add skill beta to global): added messages (-want +got): ...
//
// and the steps after it are not run. Expected texts are written out in the
// scenario files, never computed with the plugin's own rendering code, so a
// plugin that renders wrongly fails.
//
// # Scenario format
//
// One scenario per YAML file. Decoding is strict: an unknown or repeated
// field, or a value of the wrong type, is an error that names the file, line
// and column (YAML syntax errors carry the line the YAML parser reports).
// Fields marked (default ...) may be left out.
//
// Top level:
//
//	name         scenario name (default: the file name without extension)
//	description  what the scenario proves (free text)
//	plugin       where and how the plugin is mounted (see Plugin)
//	agents       agent composition scopes (see Agents; default: one agent, agent:main)
//	skills       skills at the start (see Skill)
//	providers    scripted providers (see Provider)
//	sessions     session logs seeded with raw durable events (see Session)
//	steps        actions and expectations, run in order (see Step)
//
// Plugin:
//
//	scope        "global" or a declared agent scope (default global)
//	config       raw JSON object of plugin options, e.g. '{"catalogDescriptionMaxLength": 40}' (default: none)
//	configError  text (see Text): the mount must fail with this configuration
//	             error message (the plugin's message, without the SDK's prefix),
//	             and must leave no `skill` tool registered; steps, if any, then
//	             run without the plugin
//
// Agents: a list whose items are a scope id ("agent:a") or a mapping
// {scope, parent}; parent is "global" (the default) or an agent declared
// earlier. Steps that name no agent act as the first agent.
//
// Skill (in skills, providers[].skills and addSkill):
//
//	name, description  the skill's summary
//	modelInvocable     bool (default true)
//	userInvocable      bool (default true)
//	body               the instructions the tool returns
//	resourceBase       {kind, path | url | description}: kind directory (path),
//	                   url (url) or opaque (description); a scripted provider may
//	                   use any other kind to exercise an unknown one
//	scope              scope of a runtime registration (default global)
//	provider           id of the scripted provider that offers the skill instead
//	label              provider label of a runtime registration (default "runtime");
//	                   a provider's skills carry the provider's label
//	rank               same-name precedence within a scope (higher wins)
//	cwd                provider skills only: offered only to calls with this cwd
//	loadError          provider skills only: Load fails with this text
//	vanished           provider skills only: listed, but Load finds nothing
//	path               skills of a provider with an origin only: the skill's
//	                   path on its server, ending in its name (default: the
//	                   name); its qualified name is origin:path
//	loadPolicy         provider skills only: {modelInvocable, userInvocable} of the
//	                   loaded definition when it differs from the listing (both
//	                   false reads as "not given" in the host's registry)
//	resources          {path: text}: files of the skill's resources. A runtime
//	                   registration's are written below a fresh directory that
//	                   becomes its directory resource base (not with
//	                   resourceBase); a scripted provider serves its skills'
//	                   through its resource reader
//
// Provider:
//
//	id      referenced by steps and expectations
//	scope   where it is attached (default global)
//	label   provider label of its skills (default: the id)
//	origin  makes the provider stand for a remote (MCP) server the host labels
//	        so: its skills are remote skills of that origin
//	state   complete (default), incomplete (lists its skills but reports an
//	        incomplete observation), failing (listing fails with error) or hang
//	        (listing blocks until its context is cancelled, then records that it
//	        observed the cancellation)
//	error   the failing state's error text
//	rank    precedence against same-scope sources
//	skills  its skills (Skill)
//
// Scripted providers record every List call, every name they were asked
// to Load and every resource they were asked to read, in order.
//
// Session: {id, events}. Events are appended before the plugin starts.
// Steps that name no session use the first declared session (default s1).
//
// Event (in sessions[].events and appendEvents):
//
//	type    event type (default "message"; "compaction" when hide is given)
//	id      message id
//	role    user (default), assistant, system or tool
//	text    message text; the body is {"id","role","content":[{"type":"text","text"}]}
//	body    raw JSON body instead
//	source  raw source text, stored byte for byte: it may be invalid JSON, a
//	        foreign record or a malformed catalog (default: no source)
//	hide    {from, to}: a compaction record hiding events from..to
//
// A skill selection as the host records it is {type: skill-selection, body:
// '{"excludeNames":["beta"]}'} with no source.
//
// Step: exactly one action, an optional name (shown in reports) and, on
// preStep, toolCall and readResource, an optional expect.
//
//	preStep       {agent, cwd, session, turn, step, downstream, cancel}: runs
//	              Host.PreStep. cwd defaults to /work/project, turn to 1, step
//	              to the session's pre-step count. downstream is the proposed
//	              decision: {reject: reason} or {messages: [{id, role, text,
//	              source, userInput}]} with source raw text; userInput: true
//	              marks a direct user message (Message.UserInput), the only
//	              kind the userInvocation option scans for /name tokens.
//	              cancel: true cancels the
//	              pre-step's context as soon as a provider in the hang state
//	              has started listing.
//	toolCall      {agent, cwd, session, tool, skill | arguments}: runs
//	              Host.CallTool for tool (default "skill") with the arguments
//	              {"name": skill}, or the raw JSON arguments.
//	readResource  {agent, cwd, session, skill, path, offset | arguments}: calls
//	              the resource-read tool skill_resource with {"name": skill,
//	              "path": path, "offset": offset} (offset only when given), or
//	              the raw JSON arguments; a toolCall in every other respect.
//	addSkill      a Skill: registers (or replaces) it in its scope, or adds it
//	              to its provider
//	removeSkill   {name, scope | provider}
//	changeSkill   {name, scope | provider, description, body, modelInvocable,
//	              userInvocable, resourceBase, loadError, vanished}: changes the
//	              given fields only (a body-only edit, a policy change, ...)
//	setProvider   {id, state, error}
//	restrict      {scope, tool}: restricts tool (default "skill") away in scope
//	unrestrict    {scope, tool}
//	shadow        {scope, tool}: registers the runtime's own same-name tool in scope
//	unshadow      {scope, tool}: removes that shadow
//	compact       {session, from, to}: appends a compaction record hiding
//	              from..to (default: 1..the current head)
//	appendEvents  {session, events}: appends raw events (Event)
//	selectSkills  {session, includeNames, excludeNames, includeProviders,
//	              excludeProviders, error}: sets the session's skill
//	              selection (Host.SelectSkills; no lists clears it). error
//	              (Text): the selection must be refused with this error
//	restartHost   {}: closes the host (its plugin process stops) and starts a
//	              new one on the same session store, scopes and skills, with
//	              the plugin loaded and mounted again: a resumed runtime
//
// Expect on a preStep (unset fields are not checked):
//
//	outcome       no-plugin, reject-passthrough, unchanged, incomplete, initial,
//	              replacement, tombstone or plugin-error
//	reject        the final decision rejects with this reason
//	messages      the exact final message list (Message)
//	added         the final messages that are not proposed ones, i.e. added or
//	              replacing, in order (Message)
//	removed       ids of proposed messages missing from the final list
//	nothingAdded  true: the final messages are exactly the proposed ones
//	cancelled     provider ids that must observe the cancellation
//	diagnostics   [Text, ...]: the plugin's diagnostics for the step, in
//	              order (StepResult.Diagnostics); [] for none
//
// Expect on a toolCall or readResource:
//
//	isError   whether the result is an error result
//	text      the rendered result text (Text)
//	value     the canonical value as YAML, compared structurally with its
//	          JSON: {name, provider, resourceBase?, content, origin?} for skill,
//	          {name, path, offset, nextOffset?, totalBytes, content} for
//	          skill_resource; null: no value. An error result is expected to
//	          carry no value.
//	notFound  true: the tool name does not resolve to the plugin's tool for the
//	          agent (restricted, shadowed, not mounted), so the host does not
//	          forward the call
//
// Expect on either:
//
//	error  Text matched against the error the host call returned; without it
//	       an error fails the step (except outcome plugin-error or notFound)
//	log    {events, last, tail, distinctIds}: the session log after the step:
//	       its number of events, its newest event, or its newest events oldest
//	       first (Event expectation); distinctIds: true, no two of its message
//	       events carry the same message id
//	loads  {provider id: [names]}: every name the provider was asked to Load
//	       so far, in order ([] for none)
//	lists  {provider id: count}: the provider's List calls so far
//	reads  {provider id: ["name/path"]}: every resource the provider was
//	       asked to read so far, in order ([] for none)
//
// Message expectation: {id, role, text, source, sourceRaw}. text is a Text;
// source is the parsed JSON source written as YAML and compared
// structurally (null: no source); sourceRaw is the exact source text.
//
// Event expectation: {seq, type, visible, text, source, sourceRaw}, as for
// messages; visible is false for events a compaction hid.
//
// Text: a plain string is the exact text; a mapping {exact, prefix, suffix,
// contains: [...], excludes: [...]} combines conditions. Use the exact form
// where seed 002 fixes the text (the initial catalog, the tool's error
// strings) and substrings elsewhere.
package conformance
