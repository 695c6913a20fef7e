// Package pglog is a sessionlog.Store on PostgreSQL (12 or later), for
// runtimes whose host replicas share their session history in a database.
//
//	store, err := pglog.Open(ctx, "postgres://app@db:5432/app?sslmode=verify-full", &pglog.Options{Schema: "agents"})
//	...
//	host, err := hostsdk.New(&hostsdk.Options{Sessions: store, ...})
//
// [Open] takes a DSN (a URL or key=value string, as pgxpool.ParseConfig reads
// it, including pool_max_conns and the other pool settings); [New] takes a
// *pgxpool.Pool the runtime already has. A [Store] passes the conformance
// suites logtest.Run and logtest.RunStore.
//
// # Schema
//
// The store keeps its tables in one schema ([DefaultSchema] unless
// [Options.Schema] names another), which it creates and migrates itself
// when it opens.
// Migrations are versioned in schema_version; opening a schema that is
// current takes no lock and runs no DDL, and processes that start at once
// serialize on a transaction-scoped advisory lock, so each step runs once.
// A schema migrated by a newer build fails Open with ErrNewerSchema.
//
//	sessions (key bigint identity PRIMARY KEY, id bytea, id_hash bytea UNIQUE (sha256(id), generated),
//	          head_seq bigint, surface_revision bigint, fenced_tokens bytea[] (version 3))
//	events   (session bigint, seq bigint, hide_from bigint, hide_to bigint,
//	          type bytea, source bytea, body bytea, append_token bytea (version 3),
//	          PRIMARY KEY (session, seq))
//	          index (session, type, seq) WHERE type <> 'message' (version 2)
//	          UNIQUE index (session, append_token) WHERE append_token IS NOT NULL (version 3)
//	hides    (session bigint, hide_from bigint, hide_to bigint, PRIMARY KEY (session, hide_from))
//
// A session id is any non-empty string, stored as its bytes in bytea (text
// cannot hold NUL), and found through the unique hash of those bytes, so
// ids of any length fit the index. Events refer to their session by its
// key. Type, Source and Body are bytea too, byte for byte: a nil Source or
// Body is NULL and an empty one is an empty bytea. Each event row also
// keeps its record's Hide range.
//
// The partial index on type finds the newest record of a rare type (a skill
// selection) without reading the messages after it (sessionlog.TypeSeeker);
// messages, most of every log, are left out of it so their appends do not
// write to it.
//
// hides is derived from the events: the union of every Hide range, cut at
// multiples of 1024 (a row never spans two blocks of 1024 seqs) and merged
// within a block, so the rows are disjoint and canonical. Appending a range
// replaces the rows it overlaps or touches by the pieces of their union.
// The table grows with the holes in the surface and the length of the
// hidden spans (one row per 1024 hidden seqs), never with the events.
//
// # Queries
//
// Every query reads a key range of a primary key bounded by what it
// returns, so no plan the planner may choose (stale statistics, generic
// plans) reads more. ReadBackward is one statement: the session's row
// (head and surface revision); since seqs are dense, the page is the key
// range lo..hi of events that the head and the bounds give; and the rows of
// hides that can cover it start between the 1024-block of lo and hi. An
// event is visible unless one of those covers it; a range names only
// earlier events, so that is exactly "unless a later record hides it". A
// page costs the same in a session of a thousand events or a million, and
// an empty page (nothing appended since the reader's last head) reads only
// the session's row. Open's connections use generic plans (see Open).
//
// # Appends and isolation
//
// Reads are single statements, so a Page's events, Visible flags and Head
// come from one snapshot, at any isolation level. Appends run at READ COMMITTED and start by moving
// the session's head with
//
//	UPDATE sessions SET head_seq = head_seq + n ... WHERE key = $1 [AND head_seq = $expect] RETURNING ...
//
// which locks the session's row until the append commits: appends to one
// session serialize, take the next seqs, and AppendIf's condition is checked
// on the row's newest version. A failed condition updates no row and the
// append writes nothing (a *sessionlog.ConflictError then reports the head).
// The (session, seq) primary key is a backstop: a head that does not match
// the events fails the append rather than overwriting one. Records without
// a hide range are appended by that statement itself (one round trip);
// records with one run in a transaction that also checks each range against
// the seqs assigned, inserts the events and merges the ranges into hides.
// Records are checked with Record.Validate first; an invalid one writes
// nothing. Append returns once the server has committed, which is durable
// under the server's synchronous_commit (on by default; a server set to off
// can lose the last acknowledged appends in a crash).
//
// # Lost replies and deadlines
//
// An append returns a known outcome: its records are durable, or the
// error means nothing was written and nothing will be. Two failures would
// otherwise leave that open. When the caller's context ends while the
// append's statement runs (a deadline, while another transaction holds the
// session's row locked), the store does not drop the connection: it asks
// the server to cancel the statement and waits for the answer, the
// statement cancelled or done. When the connection is lost after the
// request left (the server crashed or the network dropped, possibly after
// the server committed), the store finds out on another connection. Every
// append writes a random 16-byte token on its first event; the check, in
// one transaction, adds the token to the session row's fenced_tokens
// (which waits for any transaction that holds the row, the lost append's
// included, and keeps a statement of the lost append that reaches the
// server only later from writing: the append statements update the row
// only for a token it does not fence; the row keeps the newest 64), then
// looks the token up. Found, the append succeeded and returns its head;
// not found, it failed and wrote nothing. Both waits, the server's answer
// and the check (retried while the server is unreachable), last at most
// the settle timeout past the context's end ([DefaultSettleTimeout], or
// [Options.SettleTimeout]); an append that cannot learn its outcome in that
// time fails with an error wrapping sessionlog.ErrOutcomeUnknown, the only
// failure after which its records may be in the log. Migrating a schema to
// version 3 builds the token index, which reads the events table once.
//
// A row that breaks the record rules (an empty or non-UTF-8 type, a body
// that is not JSON: written by another tool) reads back as an Event with
// Type "" and, in Raw, the JSON object {"type":…,"source":…,"body":…} of
// its columns in base64 (null for NULL), so readers skip it and nothing is
// lost.
//
// # Handles and replicas
//
// [Store.Open] finds or creates the session's row and returns a handle; the
// handle holds only the session's key, so handles close independently and
// cost nothing to keep. After a handle's Close, or its Store's, every method
// returns an error wrapping sessionlog.ErrClosed. Every handle of a session,
// in any process using the same database and schema, sees the same log:
// host replicas share the sessions' events, heads and hidden ranges, and a
// conditional append is atomic across all of them. Replicas do not share
// what each host and its plugin keep in memory (snapshot tokens, the last
// head sent to the plugin, plugin caches): those are per process and are
// rebuilt from the log when a step reaches another replica.
package pglog
