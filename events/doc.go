// Package events recognizes and writes the durable catalog record, and derives the catalog
// baseline from a session's durable events.
//
// Every catalog message is recorded as a user-role message whose source is a small JSON
// object:
//
//	{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a-skill","description":"..."}]}
//	{"kind":"skill-catalog","form":"catalog","update":true,"entries":[]}
//
// The entries are exactly the (name, description) pairs the message published, in catalog
// order, with descriptions normalized and capped but not XML-escaped. update marks a
// replacement, including the empty replacement that retires every earlier name. An entry may
// also name the content digest of the version it listed, "content_digest": "sha256:…" (where
// the host computed one, as under a skill lock): a record of what the model was shown, never
// part of what is compared, so older readers, which ignore it, and records without it read
// alike. Sessions
// written by other runtimes that ship the same behaviour use the same shape, so the parser is
// strict about what counts as readable and lenient about everything else: an unreadable or
// foreign record is skipped, never an error.
//
// The baseline is the newest visible readable catalog. [Scanner] consumes events newest first
// and stops as soon as it finds one, so the cost of a pre-step does not grow with the length
// of the session while a catalog stays visible. When compaction has hidden every catalog, the
// scan also reports whether any catalog was ever published, which distinguishes a session
// that needs its first catalog from one whose catalog must be re-established.
//
// The other records the package reads are foreign to the catalog rules: the relevant-skills
// message's (relevant.go), and those that say which skills' instructions a message carries
// (loaded.go: a `skill` tool result's load, a user invocation, preloaded skills, skills
// attached again after a compaction), from which LoadScanner finds what a compaction hid.
//
// The package does no I/O; callers hand it the source bytes of each event without copying.
//
// # Why it is public
//
// The records are durable and outlive the process and the release that
// wrote them; hosts read them too (IsCatalogKind, IsInvocationKind decide
// which stored messages are the plugin's), and other runtimes that ship
// the same behaviour read and write the same shapes. EncodeCatalog is the
// one writer of a catalog record, for tools that migrate or build
// sessions as well as for the plugin.
package events
