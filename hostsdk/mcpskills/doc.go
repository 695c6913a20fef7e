// Package mcpskills is a skills.Provider for skills published by a remote
// MCP server, for hosted and sandboxed agents that have no skills on disk.
//
// # Protocol
//
// The provider is an MCP client (the official Go SDK) that reaches the
// server either over stdio, starting Config.Command, or over streamable HTTP
// at Config.URL, sending Config.Headers (typically an Authorization header)
// with every request to that origin. It connects on first use, and
// reconnects on the next call when the connection breaks (a stdio server
// exited, an HTTP server restarted, a request timed out). A call that finds
// an already open connection broken reconnects and retries once.
//
// Discovery reads the resource skill://index.json:
//
//	{"$schema": "...", "skills": [{"name": "a-skill", "type": "skill-md",
//	  "description": "...", "url": "skill://a-skill/SKILL.md", ...}]}
//
// The document is validated and bounded before anything reaches a catalog
// (see Config for the bounds): a document that is too large, not JSON, or
// without a "skills" array is malformed; entries with another type, a name
// outside the kebab-case grammar, a url other than skill://<name>/SKILL.md,
// an empty description or a repeated name are dropped with a diagnostic;
// unknown fields are ignored; descriptions are whitespace-normalized and
// truncated at a character boundary. Skill bodies are read only when a skill
// is loaded; YAML frontmatter is stripped. A loaded skill's resource base is
// the URL skill://<name>/: its other files are resources the host reads for
// the model through ReadResource, which accepts only URIs that pass
// ValidateChildURI. Bodies and resources are untrusted remote content.
//
// # Bounds on what the server sends
//
// Every message from the server is bounded at MaxMessageBytes (16 MiB):
// over stdio by the SDK's line limit of the same size, over streamable HTTP
// by the provider's HTTP client, which stops reading a response body, or an
// event of an event stream, at the bound and fails the request with an
// error naming it. A larger index or body is never read whole. A SKILL.md (skill://<name>/SKILL.md, loaded or
// read as a resource) larger than skill.MaxSkillFileBytes (8 MiB, the
// filesystem provider's bound) is refused with an error naming that bound
// and is not cached. Other resources are bounded by MaxMessageBytes only.
//
// # Per-session view
//
// Each session (skills.ListRequest.SessionID) sees the server through its own
// view: every successful read (index, bodies, other resources) is cached for
// the session, keyed by a hash of the whole connection configuration and the
// resource URI, so within a session the catalog and the loads agree and the
// server sees one read per resource while the copy stays cached. Concurrent
// reads of one resource in one session share a single request. Failed reads
// are never cached, so they are retried by the next call. EndSession
// releases the view.
//
// The views live in memory, bounded twice. Each view holds at most
// Config.CacheMaxResources resources and Config.CacheMaxBytes bytes (100 and
// 8 MiB by default), least recently used first out; the session's index copy
// counts against these bounds but is never dropped for the session's other
// reads. All views of a Provider together hold at most
// Config.CacheTotalBytes (128 MiB by default): when a read would pass it,
// the least recently used copies of any session are dropped, bodies and
// other resources first, index copies only when no other copy is left. A
// resource larger than a bound is served but not cached.
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
// the session's copy is older than Config.IndexMaxAge, or when the server
// sent notifications/resources/list_changed, or notifications/resources/updated
// for the index, after that copy was read. Loads use the session's copy
// whatever its age, so a skill loads as it was listed. Registries cache the
// snapshots of providers that implement skills.Invalidator, so the provider
// calls its invalidate function when a change notification arrives and when
// a copy it listed from reaches IndexMaxAge (one timer, stopped by Close).
//
// # Failure
//
// If the server is unreachable, times out, answers with an error, or serves a
// malformed index, List returns an incomplete observation (Complete false)
// and an error, never an authoritative empty list; the next List tries again.
// Cancelling the context aborts the in-flight MCP request (the server is sent
// notifications/cancelled). Errors are *Error values: one line of at most
// MaxErrorBytes bytes in which header values, environment values and URL
// credentials are replaced by "[redacted]".
package mcpskills
