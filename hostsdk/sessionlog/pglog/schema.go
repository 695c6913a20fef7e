package pglog

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// minServerVersion is the oldest server the schema runs on: generated
// columns and the built-in sha256 need PostgreSQL 12.
const minServerVersion = 120000

// migrations returns the schema's versions, in order: step i takes the
// schema from version i to i+1. {s} stands for the quoted schema name.
// Released steps never change; a new version appends a step.
func migrations() []string {
	return []string{
		// 1: sessions, their events, and the merged hidden ranges.
		`
CREATE TABLE {s}.sessions (
	key              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id               bytea  NOT NULL,
	id_hash          bytea  GENERATED ALWAYS AS (sha256(id)) STORED,
	head_seq         bigint NOT NULL DEFAULT 0 CHECK (head_seq >= 0),
	surface_revision bigint NOT NULL DEFAULT 0 CHECK (surface_revision >= 0),
	CONSTRAINT sessions_id_hash_key UNIQUE (id_hash)
);
CREATE TABLE {s}.events (
	session   bigint NOT NULL,
	seq       bigint NOT NULL CHECK (seq >= 1),
	hide_from bigint,
	hide_to   bigint,
	type      bytea  NOT NULL CHECK (octet_length(type) > 0),
	source    bytea,
	body      bytea,
	PRIMARY KEY (session, seq),
	CHECK ((hide_from IS NULL) = (hide_to IS NULL)),
	CHECK (hide_from >= 1 AND hide_from <= hide_to AND hide_to < seq)
);
CREATE TABLE {s}.hides (
	session   bigint NOT NULL,
	hide_from bigint NOT NULL,
	hide_to   bigint NOT NULL,
	PRIMARY KEY (session, hide_from),
	CHECK (hide_from >= 1 AND hide_from <= hide_to AND hide_from / {B} = hide_to / {B})
);
`,
		// 2: the newest event of a type in a session, without a scan of the
		// events after it (sessionlog.TypeSeeker). Records other than
		// messages are rare, so the index leaves messages out: appends of
		// messages, which are most appends, do not write to it.
		`
CREATE INDEX events_session_type_seq ON {s}.events (session, type, seq) WHERE type <> 'message'::bytea;
`,
		// 3: the outcome of an append whose reply was lost (see settle).
		// The first event of each append carries the append's random
		// token, found through a partial index; a session's row keeps the
		// tokens of the appends last declared failed, which no statement
		// still in flight may then write.
		`
ALTER TABLE {s}.events ADD COLUMN append_token bytea;
CREATE UNIQUE INDEX events_session_append_token ON {s}.events (session, append_token) WHERE append_token IS NOT NULL;
ALTER TABLE {s}.sessions ADD COLUMN fenced_tokens bytea[] NOT NULL DEFAULT '{}';
`,
	}
}

// schemaVersion is the version this code writes and reads.
const schemaVersion = 3

func quoteSchema(schema string) string { return pgx.Identifier{schema}.Sanitize() }

// migrate brings the schema to schemaVersion. Several processes may start
// at once: they serialize on a transaction-scoped advisory lock, and each
// step commits together with its schema_version row, so a step runs exactly
// once and a failed run leaves the schema at its last complete version.
func migrate(ctx context.Context, pool *pgxpool.Pool, schema string) error {
	q := quoteSchema(schema)
	// The common case, a schema already current, needs no lock and no DDL
	// (and so no CREATE privilege).
	if v, err := currentVersion(ctx, pool, q); err != nil {
		return err
	} else if v == schemaVersion {
		return nil
	}

	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLockKey(schema)); err != nil {
		return fmt.Errorf("migrate: take the migration lock: %w", err)
	}
	var server int
	if err := tx.QueryRow(ctx, `SELECT current_setting('server_version_num')::int`).Scan(&server); err != nil {
		return fmt.Errorf("migrate: server version: %w", err)
	}
	if server < minServerVersion {
		return fmt.Errorf("migrate: server version %d is older than the oldest supported, %d", server, minServerVersion)
	}
	for _, ddl := range []string{
		`CREATE SCHEMA IF NOT EXISTS ` + q,
		`CREATE TABLE IF NOT EXISTS ` + q + `.schema_version (
			version    integer PRIMARY KEY,
			applied_at timestamptz NOT NULL DEFAULT now())`,
	} {
		if _, err := tx.Exec(ctx, ddl); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	// Read again under the lock: another process may have migrated.
	v, err := currentVersion(ctx, tx, q)
	if err != nil {
		return err
	}
	steps := migrations()
	if len(steps) != schemaVersion {
		return fmt.Errorf("migrate: %d migration steps for schema version %d", len(steps), schemaVersion)
	}
	for ; v < schemaVersion; v++ {
		if _, err := tx.Exec(ctx, newReplacer(schema).Replace(steps[v])); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO `+q+`.schema_version (version) VALUES ($1)`, v+1); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// currentVersion reads the schema's version: 0 when it has no
// schema_version table, an error when it is newer than this code.
func currentVersion(ctx context.Context, db querier, q string) (int, error) {
	var exists bool
	if err := db.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, q+`.schema_version`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := db.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM `+q+`.schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if v > schemaVersion {
		return 0, &VersionError{Found: v, Known: schemaVersion}
	}
	return v, nil
}

// VersionError is the error of opening a schema that a newer release of
// this package has migrated past what this one knows.
type VersionError struct {
	Found, Known int
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("schema is at version %d, newer than version %d that this build knows; upgrade it", e.Found, e.Known)
}

// ErrNewerSchema is wrapped by a *VersionError.
var ErrNewerSchema = errors.New("pglog: schema is newer than this build")

// Unwrap makes errors.Is(err, ErrNewerSchema) hold.
func (e *VersionError) Unwrap() error { return ErrNewerSchema }

// migrationLockKey is the advisory lock that serializes migrations of one
// schema; other schemas migrate independently.
func migrationLockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("skillcatalog/pglog migrate\x00" + schema))
	return int64(h.Sum64())
}

// statements are the store's SQL with the schema name filled in. pgx
// prepares and caches each one per connection.
type statements struct {
	open, head, read, appendPlain, lockHead, insertEvents, mergeHide, newestOfType string
	fence, findToken                                                               string
}

// hideBlock is the span of seqs that one row of hides covers at most:
// hidden ranges are stored cut at multiples of it, so that the row that
// covers a seq starts at most hideBlock-1 before it and a page finds its
// rows with a bounded key range. It is part of the schema's format.
const hideBlock = 1024

// newReplacer fills {s} in SQL with the quoted schema name and {B} with
// hideBlock.
func newReplacer(schema string) *strings.Replacer {
	return strings.NewReplacer("{s}", quoteSchema(schema), "{B}", strconv.Itoa(hideBlock))
}

func newStatements(schema string) statements {
	r := newReplacer(schema)
	return statements{
		open:         r.Replace(sqlOpen),
		head:         r.Replace(sqlHead),
		newestOfType: r.Replace(sqlNewestOfType),
		read:         r.Replace(sqlRead),
		appendPlain:  r.Replace(sqlAppendPlain),
		lockHead:     r.Replace(sqlLockHead),
		insertEvents: r.Replace(sqlInsertEvents),
		mergeHide:    r.Replace(sqlMergeHide),
		fence:        r.Replace(sqlFence),
		findToken:    r.Replace(sqlFindToken),
	}
}

// The statements, with {s} for the schema and {B} for hideBlock.

// Find the session or create it. When the row is neither visible to
// this statement nor insertable (another transaction inserted it
// meanwhile), no row comes back and the caller asks again.
const sqlOpen = `
WITH found AS (
	SELECT key FROM {s}.sessions WHERE id_hash = sha256($1::bytea)
), made AS (
	INSERT INTO {s}.sessions (id) SELECT $1::bytea WHERE NOT EXISTS (SELECT FROM found)
	ON CONFLICT (id_hash) DO NOTHING
	RETURNING key
)
SELECT key FROM found UNION ALL SELECT key FROM made`

// sqlHead reads a session's head.
const sqlHead = `SELECT head_seq, surface_revision FROM {s}.sessions WHERE key = $1`

// The newest event of a type and the head, in one snapshot. The
// literal condition on type lets every plan, generic ones included,
// use the partial index; NewestOfType never asks it for messages.
const sqlNewestOfType = `
SELECT s.head_seq, s.surface_revision,
	coalesce((SELECT max(e.seq) FROM {s}.events e
		WHERE e.session = $1 AND e.type = $2::bytea AND e.type <> 'message'::bytea), 0)
FROM {s}.sessions s WHERE s.key = $1`

// One statement, so one snapshot: the head and the page agree.
// Seqs are dense, so the page is the key range lo..hi: from the
// newest seq it may hold ($3 is before) down $4 events, not past
// $2 (after). The hide pieces that can cover it start between the
// block of lo and hi. Both are key ranges bounded by the page,
// whatever plan the planner picks; no scan depends on the length
// of the session or an ORDER BY ... LIMIT the planner may not
// serve from the index. An empty page (a host's step when nothing
// was appended) skips both scans: "p.lo <= p.hi" is checked once.
// No LIMIT: the key range holds at most $4 rows, and a LIMIT $4
// would make the generic plan look costlier than custom ones, so
// the server would plan the statement at every execution.
const sqlRead = `
WITH b AS (
	SELECT key, head_seq, surface_revision, LEAST($3::bigint - 1, head_seq) AS hi
	FROM {s}.sessions WHERE key = $1
), p AS (
	SELECT key, head_seq, surface_revision, hi, GREATEST($2::bigint + 1, hi - $4::bigint + 1) AS lo FROM b
), r AS MATERIALIZED (
	SELECT hide_from, hide_to FROM {s}.hides, p
	WHERE p.lo <= p.hi AND session = p.key AND hide_from BETWEEN p.lo / {B} * {B} AND p.hi AND hide_to >= p.lo
)
SELECT p.head_seq, p.surface_revision, e.seq, e.type, e.source, e.body,
	NOT EXISTS (SELECT FROM r WHERE e.seq BETWEEN r.hide_from AND r.hide_to)
FROM p
LEFT JOIN LATERAL (
	SELECT seq, type, source, body FROM {s}.events
	WHERE p.lo <= p.hi AND session = p.key AND seq BETWEEN p.lo AND p.hi
) e ON true
ORDER BY e.seq DESC`

// Records without a hide range, in one statement and so one round
// trip: moving the head locks the session's row until the statement
// commits, so appends to a session serialize, and the condition
// ($3, NULL for none) is checked on the row's newest version.
// $7 is the append's token, written on its first event; a fenced token
// updates no row, so writes nothing.
const sqlAppendPlain = `
WITH s AS (
	UPDATE {s}.sessions SET head_seq = head_seq + $2
	WHERE key = $1 AND ($3::bigint IS NULL OR head_seq = $3::bigint) AND $7::bytea <> ALL (fenced_tokens)
	RETURNING head_seq, surface_revision
), ins AS (
	INSERT INTO {s}.events (session, seq, type, source, body, append_token)
	SELECT $1, s.head_seq - $2 + r.i, r.type, r.source, r.body, CASE WHEN r.i = 1 THEN $7::bytea END
	FROM s, unnest($4::bytea[], $5::bytea[], $6::bytea[]) WITH ORDINALITY AS r(type, source, body, i)
)
SELECT head_seq, surface_revision FROM s`

// Records with hide ranges take a transaction: lock and move the
// head, check the ranges against the seqs it assigns, insert, and
// merge each range into hides.
const sqlLockHead = `
UPDATE {s}.sessions SET head_seq = head_seq + $2, surface_revision = surface_revision + $3
WHERE key = $1 AND ($4::bigint IS NULL OR head_seq = $4::bigint) AND $5::bytea <> ALL (fenced_tokens)
RETURNING head_seq, surface_revision`

// sqlInsertEvents inserts the events of an append with hide ranges.
const sqlInsertEvents = `
INSERT INTO {s}.events (session, seq, type, source, body, hide_from, hide_to, append_token)
SELECT $1, $2 + r.i, r.type, r.source, r.body, r.hide_from, r.hide_to, CASE WHEN r.i = 1 THEN $8::bytea END
FROM unnest($3::bytea[], $4::bytea[], $5::bytea[], $6::bigint[], $7::bigint[])
	WITH ORDINALITY AS r(type, source, body, hide_from, hide_to, i)`

// Replace the pieces that overlap or touch $2..$3 by the pieces
// of their union with it. Pieces lie within a block, so those are
// the ones starting between the block of $2-1 and $3+1.
const sqlMergeHide = `
WITH gone AS (
	DELETE FROM {s}.hides
	WHERE session = $1
		AND hide_from BETWEEN ($2::bigint - 1) / {B} * {B} AND $3::bigint + 1
		AND hide_to >= $2::bigint - 1
	RETURNING hide_from, hide_to
), u AS (
	SELECT LEAST($2::bigint, min(hide_from)) AS f, GREATEST($3::bigint, max(hide_to)) AS t FROM gone
)
INSERT INTO {s}.hides (session, hide_from, hide_to)
SELECT $1, GREATEST(u.f, k * {B}), LEAST(u.t, k * {B} + {B} - 1)
FROM u, generate_series(u.f / {B}, u.t / {B}) AS k`

// sqlFence adds a token to the session's fenced tokens (the newest
// fencedTokens of them): an append statement carrying it, still in flight
// on a lost connection, can no longer update the row, so writes nothing.
// It locks the row, so it runs after any append that holds it.
const sqlFence = `
UPDATE {s}.sessions SET fenced_tokens = (ARRAY[$2::bytea] || fenced_tokens)[1:` + fencedTokens + `]
WHERE key = $1
RETURNING head_seq, surface_revision`

// fencedTokens is how many fenced tokens a session's row keeps: more than
// the appends of one session that can be in doubt at once.
const fencedTokens = "64"

// sqlFindToken finds the first event of the append with token $2 and
// counts the records with a hide range appended after its $3 events.
const sqlFindToken = `
SELECT e.seq, (SELECT count(*) FROM {s}.events h
	WHERE h.session = $1 AND h.seq >= e.seq + $3::bigint AND h.hide_from IS NOT NULL)
FROM {s}.events e WHERE e.session = $1 AND e.append_token = $2::bytea`
