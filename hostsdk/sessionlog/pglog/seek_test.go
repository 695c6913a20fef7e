package pglog

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// A schema written by the first version of this package, with sessions in
// it, is migrated to the current version when opened: its events are kept
// and the newest event of a type is found by the new index.
func TestMigrationFromVersion1(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	q := quoteSchema(schema)
	for _, sql := range []string{
		`CREATE SCHEMA ` + q,
		`CREATE TABLE ` + q + `.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
		newReplacer(schema).Replace(migrations()[0]),
		`INSERT INTO ` + q + `.schema_version (version) VALUES (1)`,
		`INSERT INTO ` + q + `.sessions (id, head_seq) VALUES ('old'::bytea, 3)`,
		`INSERT INTO ` + q + `.events (session, seq, type) SELECT key, 1, 'message'::bytea FROM ` + q + `.sessions`,
		`INSERT INTO ` + q + `.events (session, seq, type) SELECT key, 2, 'skill-selection'::bytea FROM ` + q + `.sessions`,
		`INSERT INTO ` + q + `.events (session, seq, type) SELECT key, 3, 'message'::bytea FROM ` + q + `.sessions`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}

	s := openStore(t, dsn, schema)
	if got := versions(t, s); !slices.Equal(got, allVersions()) {
		t.Fatalf("schema_version after migrating = %v, want %v", got, allVersions())
	}
	l, err := s.Open(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	seq, head, ok, err := l.(sessionlog.TypeSeeker).NewestOfType(ctx, "skill-selection")
	if err != nil || !ok || seq != 2 || head.Seq != 3 {
		t.Fatalf("NewestOfType = %d, %+v, %v, %v; want 2 as of head 3", seq, head, ok, err)
	}
}

// The newest event of a rare type is an index lookup: the same few buffers
// whether the session holds a thousand messages after it or a hundred
// thousand.
func TestNewestOfTypeCostIsFlat(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	buffers := map[int]int{}
	var scans []string
	for _, n := range []int{1_000, 100_000} {
		l, err := s.Open(ctx, fmt.Sprintf("long-%d", n))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append(ctx, sessionlog.Record{Type: "skill-selection", Body: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		key := l.(*Log).key
		exec(t, s, `INSERT INTO {s}.events (session, seq, type) SELECT $1, g, 'message'::bytea FROM generate_series(2, $2::bigint + 1) g`, key, n)
		exec(t, s, `UPDATE {s}.sessions SET head_seq = $2 + 1 WHERE key = $1`, key, n)
		exec(t, s, `ANALYZE {s}.events`)
		seq, head, ok, err := l.(sessionlog.TypeSeeker).NewestOfType(ctx, "skill-selection")
		if err != nil || !ok || seq != 1 || head.Seq != uint64(n+1) {
			t.Fatalf("n=%d: NewestOfType = %d, %+v, %v, %v; want 1 as of head %d", n, seq, head, ok, err, n+1)
		}
		if seq, _, _, err := l.(sessionlog.TypeSeeker).NewestOfType(ctx, "never-written"); err != nil || seq != 0 {
			t.Fatalf("n=%d: NewestOfType of an absent type = %d, %v; want 0", n, seq, err)
		}
		buffers[n], scans = seekPlan(t, s, key)
		if len(scans) > 0 {
			t.Errorf("n=%d: NewestOfType reads %v whole", n, scans)
		}
	}
	if buffers[100_000] > buffers[1_000]+2 {
		t.Errorf("NewestOfType touched %d buffers at 10⁵ events, %d at 10³: not an index lookup", buffers[100_000], buffers[1_000])
	}
	l, err := s.Open(ctx, "long-1000")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := l.(sessionlog.TypeSeeker).NewestOfType(ctx, sessionlog.TypeMessage); ok || err != nil {
		t.Errorf("NewestOfType(message) = ok %v, %v; want ok=false (messages are not indexed by type)", ok, err)
	}
}

// seekPlan runs the seek as a prepared statement under the generic plan
// (as Open sets up its connections, and as a server settles on for a
// statement it has run often) with EXPLAIN (ANALYZE, BUFFERS), and returns
// the shared buffers it touched and the tables it read whole.
func seekPlan(t *testing.T, s *Store, key int64) (int, []string) {
	t.Helper()
	ctx := context.Background()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, sql := range []string{
		`SET plan_cache_mode = force_generic_plan`,
		`PREPARE seek_plan_test(bigint, bytea) AS ` + s.sql.newestOfType,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	defer func() { _, _ = conn.Exec(ctx, `DEALLOCATE seek_plan_test; RESET plan_cache_mode`) }()
	var out string
	if err := conn.QueryRow(ctx, fmt.Sprintf(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE seek_plan_test(%d, 'skill-selection'::bytea)`, key), pgx.QueryExecModeSimpleProtocol).Scan(&out); err != nil {
		t.Fatal(err)
	}
	var plans []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(out), &plans); err != nil || len(plans) != 1 {
		t.Fatalf("EXPLAIN output %s: %v", out, err)
	}
	top := plans[0].Plan
	return top.SharedHit + top.SharedRead, top.seqScans()
}
