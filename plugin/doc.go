// Package plugin is the skill-catalog plugin's core: the catalog rules and
// the `skill` tool on plain Go types, with no transport. Core holds the
// mounts (their configuration and the tool identities the host minted) and
// calls the host back through the Host interface. It composes the pure
// packages digest, events and render.
//
// A host normally runs the plugin out of process: package pluginserver
// serves Core over HashiCorp go-plugin and gRPC (protocol skillcatalog.v1),
// converting every message to these types in one place, and the hostsdk
// package is the matching host side.
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
//     by name, descriptions normalized and capped.
//  5. The digest equals the newest visible readable catalog's: nothing new;
//     proposed catalogs in the downstream decision are removed.
//  6. The downstream decision already proposes a readable catalog with the
//     current digest: it is kept as is.
//  7. Never published and the view is empty: nothing; stale proposed
//     catalogs are removed, proposed messages the plugin cannot read are kept.
//  8. Otherwise publish a replacement (update) if any readable catalog was
//     ever published, even one compaction hid, else the initial catalog; a
//     proposed catalog is replaced in place, otherwise the message is
//     appended.
//  9. Skill bodies never enter the digest.
//
// Caches are bounded, by entries and by the bytes their entries keep alive
// (68.25 MiB together, 64 MiB of it for views), and keyed by content
// (snapshot tokens, source hashes) or by session with the log's head and
// surface revision, so a restarted plugin simply rebuilds them and stays
// correct. Views hold capped descriptions, never raw ones. A new snapshot of a place
// (working directory, agent scope, description cap) is projected onto the
// previous one, so only the skills that changed are normalized, rendered and
// encoded again, and the catalog record the plugin publishes is remembered
// as parsed, so reading it back at the next step costs a hash.
//
// A mount configured with OptionResourceTool also registers the
// resource-read tool (render.ResourceToolName). A call is checked like a
// `skill` call (its arguments against the schema, the name listed for the
// agent and model-invocable) and its path with ValidateResourcePath before
// the host is asked for a window of the file (ResourceHost, an optional
// callback); the plugin then cuts one page of at most
// render.ResourcePageBytes on character boundaries, refuses text that is
// not UTF-8 or holds a NUL as binary, and renders the page or the error.
// The host resolves the path against the skill's resource base and checks
// the loaded definition's policy again.
package plugin
