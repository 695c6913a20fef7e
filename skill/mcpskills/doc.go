// Package mcpskills is a skills.Provider for skills published by a remote
// MCP server, for hosted and sandboxed agents that have no skills on disk.
//
// # Protocol
//
// The provider is an MCP client (the official Go SDK) that reaches the
// server either over stdio, starting Options.Command, or over streamable HTTP
// at Options.URL, sending Options.Headers (typically an Authorization header)
// with every request to that origin. It connects on first use, and
// reconnects on the next call when the connection breaks (a stdio server
// exited, an HTTP server restarted, a request timed out). A call that finds
// an already open connection broken reconnects and retries once.
//
// A server that declares the MCP Skills extension (io.modelcontextprotocol/skills,
// SEP-2640) under capabilities.extensions is spoken to the standard way
// (next section). Any other server is read through the older discovery
// convention (see "The skill://index.json convention").
//
// # The MCP Skills extension
//
// Discovery walks skills/list page by page, following nextCursor. The walk
// is bounded: at most Options.MaxEntries entries and Options.MaxListingBytes
// bytes of entries (their JSON as received), at most 1024 pages, and it
// stops at a cursor the server already sent; each bound that cuts the walk
// leaves a diagnostic and keeps what came before. A listing may be partial,
// so a skill the host knows by URI alone is named in Options.SkillURIs: each
// one the listing lacks is fetched with skills/get at every listing and
// offered like a listed skill (a URI the server does not serve, -32602,
// leaves a diagnostic). Listing fetches no file. A failed request, a result
// whose "skills" is not an array, or a resultType other than "complete"
// makes the listing incomplete.
//
// Every entry is untrusted input, validated before anything reaches a
// catalog. An entry is a JSON object with "uri", the URI of a SKILL.md
// ("<scheme>://<skill-path>/SKILL.md", at most 2048 bytes, the skill path
// one or more non-empty segments, none "." or "..", without userinfo, port,
// query or fragment) whose last skill-path segment equals frontmatter.name;
// "frontmatter", a JSON object whose "name" is a skill name and whose
// "description" is a string not empty once whitespace is normalized; and
// "resources", the string "dynamic" or an array of {"uri", "digest":
// "sha256:<64 lower-case hex digits>", "size": integer >= 0}, each uri the
// SKILL.md or a file strictly inside the skill's root directory (the
// SKILL.md URI without "/SKILL.md"), each file once, the SKILL.md among
// them. Unknown members are ignored. Any other entry is not offered, with a
// diagnostic saying why. Descriptions are normalized and bounded as for the
// index.
//
// Limits. A skill of up to 512 files and 16 MiB (the sum of its sizes) is
// accepted, with a SKILL.md of up to 8 MiB (skill.MaxSkillFileBytes); a
// larger entry is declined from the entry alone, before any file is read:
// it is not offered, a diagnostic says which limit it passes, and loading
// it by name fails with an ErrDeclined error naming the limit. Entries whose
// resources are "dynamic" are declined the same way: they publish no
// digests, so nothing read from them could be verified, and nothing
// unverified reaches the model.
//
// Names. Each skill is listed with Name its plain name (frontmatter.name),
// Provider and Origin the server's label (Options.Label, assigned by the
// host, never the server's serverInfo.name), and QualifiedName
// "<label>:<skill path>" (skill.QualifiedName). The skill path of a skill://
// URI is what lies between "skill://" and "/SKILL.md"
// (skill://acme/billing/refunds/SKILL.md → docs:acme/billing/refunds); for
// any other scheme it is the scheme, "/", and the same part
// (github://owner/repo/refunds/SKILL.md → docs:github/owner/repo/refunds),
// so skills of two schemes cannot take each other's names. An entry whose
// path cannot form a valid qualified name (skill.ValidQualifiedName), or
// repeats a URI or a qualified name already listed, is not offered, with a
// diagnostic. Two skills of one server may share a plain name: both are
// listed (the registry lists them under their qualified names) and a
// diagnostic names the collision. Load, ReadResource and ReadSkillResource
// accept a qualified name (exactly one skill) or a plain name, which
// resolves only when exactly one of the server's skills has it.
//
// Held entries and verification. Loading a skill holds, for the session,
// the entry it was loaded from (keyed by the server's label and the
// SKILL.md URI). The SKILL.md is read and verified against the held entry:
// its size, then its SHA-256 digest, then its YAML frontmatter, parsed and
// compared with the entry's frontmatter field by field, numbers by value.
// The frontmatter is read as serve-mcp reads it to write its entries: YAML
// 1.2 core types, aliases expanded, a repeated key keeping its last value,
// and an unquoted value holding ": " read as the plain string it spells, as
// the filesystem provider reads it; a SKILL.md whose frontmatter cannot be
// read even so does not compare. A skill's
// other files are read only through the held entry: a path, or URI, its
// manifest does not list is never requested from the server, and a listed
// file's bytes are verified the same way. Reads go only to this provider's
// server, by construction: each provider is one server. Every refusal is an
// *Error whose text names the skill (as the caller named it) and the server:
//
//	mcpskills: skill "refunds" from MCP server "docs": "examples/email.md" is 80 bytes, its entry says 77; not used
//	mcpskills: skill "refunds" from MCP server "docs": "examples/email.md" does not match the digest in its entry; not used
//	mcpskills: skill "refunds" from MCP server "docs": the frontmatter of SKILL.md differs from its entry in field "description"; not loaded
//	mcpskills: skill "refunds" from MCP server "docs": SKILL.md has no YAML frontmatter to compare with its entry; not loaded
//	mcpskills: skill "refunds" from MCP server "docs": the frontmatter of SKILL.md is not closed within 65536 bytes (MaxFrontmatterBytes, 64 KiB), the most the provider reads to compare it with its entry; not loaded
//	mcpskills: skill "refunds" from MCP server "docs": "templates/x.md" is not a file of its entry; not read
//	mcpskills: skill "refunds" from MCP server "docs": "examples/email.md" is in its entry but the server does not serve it; not read
//	mcpskills: skill "big" from MCP server "docs": its entry lists 513 files, more than the 512 a skill may have; not loaded
//	mcpskills: skill "big" from MCP server "docs": its files total 16777217 bytes, more than the 16777216 bytes (16 MiB) a skill may have; not loaded
//	mcpskills: skill "big" from MCP server "docs": its SKILL.md is 9000000 bytes, more than the 8388608 bytes (8 MiB) a SKILL.md may have; not loaded
//	mcpskills: skill "daily" from MCP server "docs": its resources are "dynamic", with no digests to verify them against; not loaded
//
// The first five match ErrVerification (a file the manifest does not list
// is a change to the skill, not a missing file, so the resource tool shows
// the model this text naming the skill and its server), the sixth
// ErrResourceNotFound and skills.ErrResourceNotFound, the rest ErrDeclined. After each of the first
// six the provider calls skills/get for the skill and holds the entry it
// returns for the session (nothing, if the server no longer serves one), so
// the session's next load verifies against the current entry; then every
// listing goes stale and the provider invalidates, so the next step lists
// again and republishes if the catalog changed. The refusal itself is not
// retried: a caller sees it once, whatever the refresh found.
//
// Permissions. A remote skill's frontmatter grants nothing: the loaded
// Definition carries no field of it but name and description (and the
// disable-model-invocation and user-invocable booleans, which only narrow
// who may invoke it), and its directives (`context`, `agent`, `model`,
// `allowed-tools`: skill.Directives), which are requests, not Trusted: the
// registry marks them trusted only for a provider the host attached with
// skills.ProviderOptions.TrustDirectives, its opt-in for that server.
// HeldEntry returns the entry a session holds, with allowed-tools as
// Entry.RequestedTools: a request from an untrusted origin, which a host
// must not turn into a grant without the user's explicit approval for that
// skill, bound to the entry's files and digests.
//
// Caches. The listing is shared by the provider's sessions (one walk serves
// every session that lists within IndexMaxAge, and an unchanged walk keeps
// the catalog already built); each session pins the listing its catalog
// came from, and loads resolve names in it whatever its age. Files read
// for a session are cached in its view (next sections) keyed by the server's
// label, the connection configuration and the URI, never by URI alone, and
// only once verified; a cached copy is used only while the entry held for
// the read lists the same size and digest its bytes were verified to
// have, so a copy is re-verified against the current entry before every
// use (it lives in memory only the provider writes, so the comparison with
// the digest computed when it was read stands for re-hashing it), and read
// again from the server when the entry changed.
//
// # The skill://index.json convention
//
// A server that does not declare the extension is read through the resource
// skill://index.json:
//
//	{"$schema": "...", "skills": [{"name": "a-skill", "type": "skill-md",
//	  "description": "...", "url": "skill://a-skill/SKILL.md", ...}]}
//
// The document is validated and bounded before anything reaches a catalog
// (see Options for the bounds): a document that is too large, not JSON, or
// without a "skills" array is malformed; entries with another type, a name
// outside the kebab-case grammar, a url other than skill://<name>/SKILL.md,
// an empty description or a repeated name are dropped with a diagnostic;
// unknown fields are ignored; descriptions are whitespace-normalized and
// truncated at a character boundary. Skill bodies are read only when a skill
// is loaded; YAML frontmatter is stripped. A loaded skill's resource base is
// the URL skill://<name>/: its other files are resources the host reads for
// the model through ReadResource, which accepts only URIs that pass
// ValidateChildURI. Bodies and resources are untrusted remote content, and
// unverified: the convention publishes no digests. These skills too have
// the server's label as Origin, and the qualified name "<label>:<name>".
//
// # Bounds on what the server sends
//
// Every message from the server is bounded at MaxMessageBytes (16 MiB)
// over streamable HTTP by the provider's HTTP client, which stops reading a
// response body, or an event of an event stream, at the bound and fails the
// request with an error naming it. A larger index or body is never read
// whole. The answer to a read of a file whose size the held entry states is
// bounded at six times that size plus 1 MiB instead (at most 49 MiB), since
// JSON escaping writes up to six bytes for a byte of text ("\u0001", and
// "\u003c" for '<' from servers that escape HTML): such a file is read
// whole whatever its bytes. Over stdio the SDK bounds every line alike, at
// 49 MiB. Without the extension nothing states a file's size, and a
// resource whose answer exceeds MaxMessageBytes is refused by
// ReadSkillResource with skills.ErrResourceTooLarge. A SKILL.md (skill://<name>/SKILL.md, loaded or
// read as a resource) larger than skill.MaxSkillFileBytes (8 MiB, the
// filesystem provider's bound) is refused with an error naming that bound
// and is not cached. Other resources are bounded by MaxMessageBytes only.
//
// # Per-session view
//
// Each session (skills.ListRequest.SessionID) sees the server through its own
// view: every successful read (index, bodies, other resources; for a server
// declaring the extension, every verified read) is cached for the session,
// keyed by the server's label, a hash of the whole connection configuration
// and the resource URI, so within a session the catalog and the loads agree and the
// server sees one read per resource while the copy stays cached. Concurrent
// reads of one resource in one session share a single request. Failed reads
// are never cached, so they are retried by the next call. EndSession
// releases the view.
//
// The views live in memory, bounded twice. Each view holds at most
// Options.CacheMaxResources resources and Options.CacheMaxBytes bytes (100 and
// 8 MiB by default), least recently used first out; the session's index copy
// counts against these bounds but is never dropped for the session's other
// reads. All views of a Provider together hold at most
// Options.CacheTotalBytes (128 MiB by default): when a read would pass it,
// the least recently used copies of any session are dropped, bodies and
// other resources first, index copies only when no other copy is left. A
// resource larger than a bound is served but not cached.
//
// What sessions keep besides their cached copies is bounded too, by
// Options.PinnedMaxBytes (32 MiB by default): the skills/list listing each
// session's catalog came from (a listing kept by several sessions counts
// once, the provider's newest not at all), the entries of the skills it
// loaded, and its bookkeeping. Past the bound the least recently used
// sessions are released as EndSession releases one (the session in use
// keeps its own). A released session resolves its next load or read in
// the provider's newest listing, as a new session would, so a skill the
// server changed since loads as it now is and one it removed is not found,
// until the session lists again. A host that never ends its sessions (the
// Eino and Genkit adapters do not) stays within the bound.
//
// A session's view is therefore stable only while its copies stay cached.
// A dropped body or other resource is read from the server again when the
// session next loads or reads it, and shows the server's version at that
// time, which may differ from the one the session saw before. A dropped
// index copy is read again at the session's next List, Load or
// ReadResource, as if IndexMaxAge had passed: the catalog may change, and
// loads are checked against the new copy. A copy that stays cached is served
// as first read, whatever the server has changed since, except for the
// index, which List refreshes as follows.
//
// Dropped copies aside, the index is the one resource a session reads again:
// List re-reads it when
// the session's copy is older than Options.IndexMaxAge, or when the server
// sent notifications/resources/list_changed, or notifications/resources/updated
// for the index, after that copy was read. Loads use the session's copy
// whatever its age, so a skill loads as it was listed. Registries cache the
// snapshots of providers that implement skills.Invalidator, so the provider
// calls its invalidate function when a change notification arrives and when
// a copy it listed from reaches IndexMaxAge (one timer, stopped by Close).
// Change notifications coalesce, one pending change at a time: after one
// has told the registry, further notifications do nothing until a listing
// begins (which reads the server after all of them), so a server that
// floods notifications costs the host one invalidation and one listing per
// listing the host makes, not one per notification.
//
// # Failure
//
// If the server is unreachable, times out, answers with an error, or serves a
// malformed index or listing, List returns an incomplete observation (Complete false)
// and an error, never an authoritative empty list; the next List tries again.
// The provider is best-effort (skills.AvailabilityDeclarer): a registry that
// attaches it with the default skills.ProviderOptions keeps publishing the
// other sources' skills meanwhile, with this server's last-good listing for
// the session, or without its skills if it was never listed, and says so in
// skills.Snapshot.Degraded. A server that answers slowly or not at all is
// waited for at most a share of the registry's caller's time
// (skills.BestEffortShare) and is degraded past it, while its listing goes
// on in the background. Attached with Availability skills.Strict, its
// failure holds back the whole snapshot instead.
// Cancelling the context aborts the in-flight MCP request (the server is sent
// notifications/cancelled); a registry lists a best-effort provider under a
// context of its own, which the snapshot's cancellation does not end. Errors are *Error values: one line of at most
// MaxErrorBytes bytes in which header values, environment values and URL
// credentials are replaced by "[redacted]".
//
// The error of a load or a read (Load, ReadResource, ReadSkillResource)
// reaches the model as the `skill` or skill_resource tool's error text, so
// it holds none of the server's own words: a JSON-RPC error the server
// answered with is named by its code, and its message is logged to
// Options.Logger (warn, "mcpskills: the server answered with an error", with
// the endpoint, what was being done, the code and the message, cleaned as
// errors are):
//
//	mcpskills: skill "refunds" from MCP server "docs": reading "SKILL.md": the server answered with JSON-RPC error -32603
//
// The plugin shows any error text of a remote skill as untrusted text
// besides (escaped, one line, bounded), whatever provider wrote it. A
// listing's error, which the host reports and logs but never shows the
// model, keeps the server's message.
package mcpskills
