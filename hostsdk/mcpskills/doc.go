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
// server sees one read per resource. Concurrent reads of one resource in one
// session share a single request. The view lives in memory, bounded by
// Config.CacheMaxResources and Config.CacheMaxBytes (100 resources and 8 MiB
// by default), least recently used first out. The session's index copy counts
// against the bounds but is never evicted by other reads, so loads cannot
// change the catalog under a session. A resource that does not fit the byte
// bound is served but not cached. Failed reads are never cached, so they are
// retried by the next call. EndSession releases the view.
//
// The index is the one resource a session reads again: List re-reads it when
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
