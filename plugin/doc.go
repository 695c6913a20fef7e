// Package plugin is the skill-catalog plugin: the process a host starts with
// HashiCorp go-plugin. It is the only package that knows both the wire
// protocol (skillcatalog.v1) and the catalog rules; it composes the pure
// packages digest, events and render.
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
// Caches are bounded and keyed by content (snapshot tokens, source hashes)
// or by session with the log's head and surface revision, so a restarted
// plugin simply rebuilds them and stays correct.
package plugin
