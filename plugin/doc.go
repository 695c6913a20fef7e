// Package plugin is the skill-catalog plugin's engine: the catalog rules
// and the `skill` tool, with no transport. Core implements the protocol's
// service (contract.Service: one implementation of each of its seven
// calls): it holds the mounts (their configuration and the tool identities
// the host minted) and calls the host back through the contract.Host each
// mount was configured with. It composes the pure packages digest, events
// and render.
//
// The protocol's types and interfaces live in package contract, so the
// rules and the protocol change independently. A host runs the engine out
// of process (package pluginserver serves it over HashiCorp go-plugin and
// gRPC, protocol skillcatalog.v1, through the adapters of internal/wire) or
// in its own process, where the engine itself is the service.
//
// A failure of the host's side (a callback's error, an answer the contract
// does not allow, a provider that cannot load a skill the user invoked)
// matches contract.ErrHostFailed; the engine's own refusals are
// contract.ErrUnknownMount, contract.ErrUnbound and *contract.ConfigError.
//
// At every model step the host calls PreStep. The plugin checks that the
// tool name `skill` still resolves, for the calling agent, to the definition
// identity the host minted for this mount; asks the host for the agent's
// skill snapshot (unless the host's revision token says it already holds
// it); reads the session's durable events backwards, newest first, until the
// newest visible catalog it can read (incrementally: only events newer than
// the last step are read); compares digests over the published
// (name, description) entries; and answers with edits to the downstream
// decision: nothing, the initial catalog, a complete replacement, or an empty
// tombstone.
//
// The rules, in order:
//
//  1. A downstream reject passes through untouched.
//  2. If `skill` does not resolve to this mount's identity (restricted away
//     or shadowed), the view is complete and empty; the snapshot is not
//     requested.
//  3. An incomplete snapshot emits nothing and changes nothing.
//  4. Entries are the model-invocable skills with addressable names, sorted
//     by name, descriptions normalized and capped. With a catalog budget
//     (catalogBudget) they are then fitted to it (render.FitCatalog):
//     descriptions shortened evenly, and only when the names alone do not
//     fit, the last skills in name order left out of the catalog (not of
//     the `skill` tool); the record carries how many, and the digest covers
//     that count. The step that publishes a fitted catalog reports what was
//     shortened or left out as diagnostics.
//  5. The digest equals the newest visible readable catalog's: nothing new;
//     proposed catalogs in the downstream decision are removed.
//  6. The downstream decision already proposes a readable catalog with the
//     current digest: it is kept as is.
//  7. Never published and the view is empty: nothing; stale proposed
//     catalogs are removed, proposed messages the plugin cannot read are kept.
//  8. Otherwise publish a replacement (update) if any readable catalog was
//     ever published, even one compaction hid, else the initial catalog; a
//     proposed catalog is replaced in place (the publication keeps its own
//     message id: the proposal may be a message the log already holds),
//     otherwise the message is appended.
//  9. Skill bodies never enter the digest.
//
// Every answer says why (contract.StepResponse.Reasons): the reason of the
// rule that decided it (rule 1, 3, 5, 6 or 7, or what rule 8 published and
// whether the skills changed or compaction hid the catalog), after the
// reason rule 2 applied when it did, and then what a catalog budget changed
// and which skills the user invoked. The texts of the steps that publish
// nothing are constant, so a steady step formats none.
//
// With the userInvocation option, a step also adds the skills the user
// invoked: every whitespace-delimited `/name` token (skill.Invocations) in
// the step's direct user messages (contract.Message.UserInput, role user) names a
// skill, loaded from the host with contract.SkillRequest.UserInvocation; each one
// whose loaded definition is user-invocable is appended, once, in order of
// first appearance and after every other message of the step, as the
// `skill` tool's rendering of it. With the resource-read tool mounted, only
// a skill the model may invoke has its guidance name that tool, as in the
// `skill` tool's answer: the tool reads nothing of a skill the model may
// not invoke, so a user-only skill's block leaves it out. It follows the tool, not the catalog: a
// step where `skill` does not resolve to the mount's tool (rule 2) loads
// nothing, while an incomplete snapshot (rule 3) still lets the user invoke
// skills. Names a complete snapshot does not list are not loaded, and at
// most 16 are. A rejected step loads nothing; a provider error fails the
// step with an error matching contract.ErrHostFailed, so it adds nothing. The catalog texts then end with
// render.UserInvocationNote; the entries and the digest stay the same.
//
// Skill search. A mount with the searchTool option registers the
// skill-search tool (contract.SearchToolName), which searches the catalog
// entries of the agent's complete snapshot (those a budget left out of the
// catalog included, nothing the catalog would not list) and answers with
// their full descriptions, best first; it serves only an agent whose `skill`
// is the mount's own, as the resource-read tool does. Unless the
// relevantSkills option is off, a step whose newest message is direct user
// input may also append one message naming the skills that best match the
// request (the relevant-skills message, recorded with an events.Relevant
// source): by default only while the catalog is over its budget, never for
// a skill the catalog shows in full or an earlier such message since the
// newest catalog described, once per user message. Both rank with the
// search index a searching mount's views carry (package
// plugin/internal/search), built from each snapshot on the previous one;
// a host's embeddings (contract.Embedder), when it has them, are fused
// with the lexical ranking.
//
// Skills scoped by `paths`. A listed skill with patterns
// (skill.Summary.Paths) is left out of the catalog, the skill search and
// the relevant-skills message until a step's touched paths
// (contract.StepRequest.TouchedPaths) match them relative to the step's
// working directory (skill.TouchedRelative, skill.MatchPaths); it then
// enters by the usual replacement (reason contract.ReasonPathsActivated)
// and stays. The skills activated so far are named in every catalog record
// the plugin publishes (events.Catalog.Activated) and covered by its
// digest (digest.WithActivated), so activating one always publishes and
// the newest record, visible or hidden, tells a resumed session, a
// replica, or the step after a compaction which are. The `skill` tool and
// `/name` load a scoped skill before that, as they load one a budget left
// out.
//
// Skills through compaction. A successful `skill` call's result carries
// its load record (contract.ToolResult.Source, events.LoadKind), which the
// host stores as the tool result's source. At the first step after a
// compaction, the plugin reads the log (events.LoadScanner) and appends one
// message attaching again the skills whose instructions only hidden
// messages carried (loaded, invoked by the user, preloaded, attached
// again before): most recently used first, each cut to the
// reattachSkillMaxLength option and all within reattachBudget, a skill
// changed or gone since said so (render.ReattachedSkills, recorded with an
// events.ReattachKind source). The skills a host preloads
// (contract.StepRequest.PreloadSkills) are appended at the session's first
// step (render.PreloadedSkills, events.PreloadKind).
//
// Directives. A loaded definition's skill.Directives (what the skill asks
// of the runtime: a fork, a model, tools to pre-approve) come back with the
// `skill` result (contract.ToolResult.Directives) and with each skill the
// user invoked (contract.StepResponse.Invocations), as the host answered
// them, except that a skill shown as remote only by its listing has its
// directives passed on untrusted. The skill's text, in both, ends with
// render.DirectivesNotice: a sentence for every kind it asks for that is not
// acted on (skill.Directives.Unhonoured: not honoured by the host, or
// untrusted). A skill without directives is rendered as it always was.
//
// Caches are bounded, by entries and by the bytes their entries keep alive
// (144.25 MiB together: 64 MiB for views with their search indexes, 64 MiB
// for the embeddings of skills' search documents, which a host without an
// embedder never fills), and keyed by content
// (snapshot tokens, source hashes) or by session with the log's head and
// surface revision, so a restarted plugin simply rebuilds them and stays
// correct. Views hold capped descriptions, never raw ones; a budgeted view
// is fitted once, when it is built, and cached with the snapshot it
// projects. A new snapshot of a place (working directory, agent scope,
// description cap, budget) is projected onto the unfitted view of the
// previous one, so only the skills that changed are normalized, rendered and
// encoded again, and the catalog record the plugin publishes is remembered
// as parsed, so reading it back at the next step costs a hash.
//
// A mount configured with contract.OptionResourceTool also registers the
// resource-read tool (contract.ResourceToolName). It serves only an agent
// whose `skill` resolves to the mount's own definition
// (contract.ToolCall.SkillToolIdentity): the resources are those of the skills the
// agent loads. A call is then checked like a `skill` call (its arguments against the schema, the name listed for the
// agent and model-invocable) and its path with ValidateResourcePath before
// the host is asked for a window of the file (contract.ResourceReader, an
// optional callback); the plugin then cuts one page of at most
// render.ResourcePageBytes on character boundaries, refuses text that is
// not UTF-8 or holds a NUL as binary, and renders the page or the error.
// The host resolves the path against the skill's resource base and checks
// the loaded definition's policy again.
//
// Remote skills. A skill with an origin (skill.Summary.Origin: the label of
// a remote source, an MCP server or a website as skill.Summary.OriginKind
// says; any origin that is not the host's own) is untrusted, and
// no byte of it reaches the model outside the block that labels it:
// render escapes its instructions (in the `skill` result and in a /name
// message, the user's $ARGUMENTS in them included), its files' pages and
// its description, so that none can close the block, the reminder or the
// catalog around it or open one of its own. Every text names the source by
// its kind and label, and a catalog ends with the sentence of the kinds it
// lists (render.RemoteOrigins). The plugin decides what is remote, and of
// which kind, from the loaded definition's origin or, where the definition
// has none, from the agent's listing (the kind always with its label). A resource read and a provider's error
// carry no origin of their own: the listing gives it, and while the
// snapshot is incomplete a resource read loads the skill's definition to
// learn it (and refuses, as the `skill` tool does, a skill that cannot be
// loaded for the model). A provider's error text is shown as the provider
// wrote it only for a skill known to be the host's own; for any other it
// is untrusted text (render.ProviderFailedUntrusted: one line, escaped,
// bounded). A remote page holds as many bytes of the file as fit in
// render.ResourcePageBytes once escaped. A listed skill whose origin is not
// a label (skill.ValidLabel), or of a kind skill.OriginKind does not define,
// is not listed, and a loaded one of such a kind is refused.
package plugin
