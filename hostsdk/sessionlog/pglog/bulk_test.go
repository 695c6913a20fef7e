package pglog

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// catalogSource is the source of a catalog-like record, the one a plugin
// looks for when it reads a session backwards.
const catalogSource = `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a-skill","description":"d"}]}`

// layout describes the sessions that the read tests and benchmarks build:
// in every block of `every` events, the last is a compaction hiding the
// block's second to fifth tenths, and the one a tenth before it is
// catalog-like; the rest are ordinary messages.
type layout struct{ every uint64 }

func (y layout) record(seq uint64) sessionlog.Record {
	switch seq % y.every {
	case 0:
		return sessionlog.Record{
			Type: sessionlog.TypeCompaction, Body: []byte(`{"summary":"earlier work"}`),
			Hide: &sessionlog.Range{From: seq - 9*y.every/10, To: seq - 5*y.every/10},
		}
	case 9 * y.every / 10:
		return sessionlog.Record{Type: sessionlog.TypeMessage, Source: []byte(catalogSource), Body: []byte(`{"role":"user","content":"<system-reminder>skills</system-reminder>"}`)}
	default:
		return sessionlog.Record{Type: sessionlog.TypeMessage, Body: []byte(fmt.Sprintf(`{"role":"assistant","content":"message number %d with some ordinary text in it"}`, seq))}
	}
}

// bulkLoad fills the empty session id with records 1..n of y using COPY,
// writing the rows that appending them would: events, merged hide ranges
// and the session's head. It is the fast path for building large sessions;
// TestBulkLoadMatchesAppend holds it to Append.
func bulkLoad(tb testing.TB, s *Store, id string, n uint64, y layout) *Log {
	tb.Helper()
	ctx := context.Background()
	l, err := s.OpenLog(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	if h, err := l.Head(ctx); err != nil || h.Seq != 0 {
		tb.Fatalf("bulk load into session %q at %+v, %v; want an empty one", id, h, err)
	}
	var (
		seq    uint64
		ranges []sessionlog.Range
		hides  int64
	)
	events := pgx.CopyFromFunc(func() ([]any, error) {
		if seq == n {
			return nil, nil
		}
		seq++
		r := y.record(seq)
		if err := r.Validate(seq); err != nil {
			return nil, err
		}
		var from, to *int64
		if r.Hide != nil {
			f, t := int64(r.Hide.From), int64(r.Hide.To)
			from, to = &f, &t
			ranges = append(ranges, *r.Hide)
			hides++
		}
		return []any{l.key, int64(seq), from, to, []byte(r.Type), r.Source, r.Body}, nil
	})
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{s.schema, "events"},
		[]string{"session", "seq", "hide_from", "hide_to", "type", "source", "body"}, events); err != nil {
		tb.Fatalf("copy events: %v", err)
	}
	merged := hidePieces(ranges)
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{s.schema, "hides"}, []string{"session", "hide_from", "hide_to"},
		pgx.CopyFromSlice(len(merged), func(i int) ([]any, error) {
			return []any{l.key, int64(merged[i].From), int64(merged[i].To)}, nil
		})); err != nil {
		tb.Fatalf("copy hides: %v", err)
	}
	if _, err := tx.Exec(ctx, fillSchema(`UPDATE {s}.sessions SET head_seq = $2, surface_revision = $3 WHERE key = $1`, s.schema),
		l.key, int64(n), hides); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		tb.Fatal(err)
	}
	return l
}

// hidePieces returns the rows of hides for ranges rs: their union, cut at
// multiples of hideBlock.
func hidePieces(rs []sessionlog.Range) []sessionlog.Range {
	var pieces []sessionlog.Range
	for _, r := range mergeRanges(rs) {
		for from := r.From; from <= r.To; {
			to := min(r.To, from/hideBlock*hideBlock+hideBlock-1)
			pieces = append(pieces, sessionlog.Range{From: from, To: to})
			from = to + 1
		}
	}
	return pieces
}

// mergeRanges returns the union of rs as sorted, disjoint, non-adjacent
// ranges.
func mergeRanges(rs []sessionlog.Range) []sessionlog.Range {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b sessionlog.Range) int { return cmp.Compare(a.From, b.From) })
	var out []sessionlog.Range
	for _, r := range rs {
		if k := len(out) - 1; k >= 0 && r.From <= out[k].To+1 {
			out[k].To = max(out[k].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return out
}

// hideRows reads a session's rows of hides.
func hideRows(t *testing.T, s *Store, l *Log) []sessionlog.Range {
	t.Helper()
	rows, err := s.pool.Query(context.Background(),
		fillSchema(`SELECT hide_from, hide_to FROM {s}.hides WHERE session = $1 ORDER BY hide_from`, s.schema), l.key)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (sessionlog.Range, error) {
		var from, to int64
		err := r.Scan(&from, &to)
		return sessionlog.Range{From: uint64(from), To: uint64(to)}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestBulkLoadMatchesAppend: a session loaded with COPY reads back exactly
// like one built by Append, so benchmarks on bulk-loaded sessions measure
// what appends produce.
func TestBulkLoadMatchesAppend(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	const n = 3000
	y := layout{every: 100}
	loaded := bulkLoad(t, s, "loaded", n, y)
	appended, err := s.OpenLog(ctx, "appended")
	if err != nil {
		t.Fatal(err)
	}
	var batch []sessionlog.Record
	for seq := uint64(1); seq <= n; seq++ {
		batch = append(batch, y.record(seq))
		if len(batch) == 250 || seq == n {
			if _, err := appended.Append(ctx, batch...); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	var ranges []sessionlog.Range
	for seq := uint64(1); seq <= n; seq++ {
		if r := y.record(seq); r.Hide != nil {
			ranges = append(ranges, *r.Hide)
		}
	}
	want := hidePieces(ranges)
	if len(want) <= n/100 {
		t.Fatalf("%d pieces for %d ranges: the layout should cross a block boundary", len(want), n/100)
	}
	for name, l := range map[string]*Log{"loaded": loaded, "appended": appended} {
		if got := hideRows(t, s, l); !slices.Equal(got, want) {
			t.Fatalf("hides of the %s session %v, want %v", name, got, want)
		}
	}
	for _, size := range []int{64, 1000} {
		want, got := readAll(t, appended, 0, 0, size), readAll(t, loaded, 0, 0, size)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("pages of %d (-appended +loaded):\n%s", size, gocmp.Diff(want, got))
		}
	}
}

// planNode is a node of EXPLAIN's JSON output.
type planNode struct {
	NodeType     string     `json:"Node Type"`
	RelationName string     `json:"Relation Name"`
	SharedHit    int        `json:"Shared Hit Blocks"`
	SharedRead   int        `json:"Shared Read Blocks"`
	Plans        []planNode `json:"Plans"`
}

// seqScans lists the tables that the plan reads whole.
func (n planNode) seqScans() []string {
	var tables []string
	if n.NodeType == "Seq Scan" {
		tables = append(tables, n.RelationName)
	}
	for _, c := range n.Plans {
		tables = append(tables, c.seqScans()...)
	}
	return tables
}

// pageBuffers runs the store's page query under EXPLAIN (ANALYZE, BUFFERS)
// and returns the shared buffers it touched and the tables it read whole.
func pageBuffers(t *testing.T, s *Store, l *Log, before uint64, max int, generic bool) (int, []string) {
	t.Helper()
	ctx := context.Background()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	mode := "auto"
	if generic {
		mode = "force_generic_plan"
	}
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = `+mode); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = conn.Exec(ctx, `RESET plan_cache_mode`) }()
	below, above := queryBounds(before, 0)
	var out string
	if err := conn.QueryRow(ctx, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+s.sql.read, l.key, above, below, int64(max)).Scan(&out); err != nil {
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

// TestPageCostIsFlat reads the same page (the newest 64 events, and 64 in
// the middle) of a 1,000-event and a 100,000-event session with a hide
// range every 100 events, and counts the buffers the query touches: a read
// bounded by the page touches as many in both; one that scans the session's
// events, or every hide range before the page, touches hundreds more.
func TestPageCostIsFlat(t *testing.T) {
	s := newTestStore(t)
	y := layout{every: 100}
	small := bulkLoad(t, s, "small", 1_000, y)
	large := bulkLoad(t, s, "large", 100_000, y)
	// Rows sit differently on heap pages in the two sessions; that and
	// nothing else may differ.
	const slack = 8
	// Fresh tables have no statistics (the planner guesses), then real ones;
	// custom plans, then the generic plans prepared statements settle on.
	for _, analyzed := range []bool{false, true} {
		if analyzed {
			exec(t, s, `ANALYZE {s}.sessions, {s}.events, {s}.hides`)
		}
		for _, generic := range []bool{false, true} {
			for _, at := range []struct {
				name         string
				small, large uint64 // before
			}{
				{"head", 0, 0},
				{"middle", 500 + 37, 50_000 + 37},
			} {
				where := fmt.Sprintf("%s page (analyzed %v, generic plan %v)", at.name, analyzed, generic)
				smallBuf, smallSeq := pageBuffers(t, s, small, at.small, 64, generic)
				largeBuf, largeSeq := pageBuffers(t, s, large, at.large, 64, generic)
				t.Logf("%s: %d buffers at 1,000 events, %d at 100,000", where, smallBuf, largeBuf)
				// The one-row-per-session table may be read whole.
				for _, table := range append(smallSeq, largeSeq...) {
					if table != "sessions" {
						t.Errorf("%s: the plan reads all of %s", where, table)
					}
				}
				if largeBuf > smallBuf+slack {
					t.Errorf("%s: %d buffers at 100,000 events, %d at 1,000; want at most %d more", where, largeBuf, smallBuf, slack)
				}
			}
		}
	}
}

// TestPageKeepsGenericPlan reads pages on one connection of a store that
// Open made while a session grows from 1,000 to 100,000 events: the server
// must keep using the statement's generic plan. Left to choose, it compares
// the generic plan of the grown tables with the custom plans it made while
// they were small, and plans every read from then on.
func TestPageKeepsGenericPlan(t *testing.T) {
	dsn := testDSN(t)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 1 // every read on the connection inspected below
	ctx := context.Background()
	s, err := openConfig(ctx, cfg, &Options{Schema: freshSchema(t, dsn)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	plans := func() (generic, custom int64) {
		t.Helper()
		if err := s.pool.QueryRow(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1`,
			s.sql.read).Scan(&generic, &custom); err != nil {
			t.Fatalf("the page statement is not among the connection's prepared statements: %v", err)
		}
		return generic, custom
	}
	read := func(l *Log, n uint64) {
		t.Helper()
		for i := range uint64(20) {
			if _, err := l.ReadBackward(ctx, n-i, 0, 64); err != nil {
				t.Fatal(err)
			}
		}
	}
	small := bulkLoad(t, s, "small", 1_000, layout{every: 100})
	exec(t, s, `ANALYZE {s}.sessions, {s}.events, {s}.hides`)
	read(small, 1_000)
	large := bulkLoad(t, s, "large", 100_000, layout{every: 100})
	exec(t, s, `ANALYZE {s}.sessions, {s}.events, {s}.hides`)
	read(large, 100_000)
	if generic, custom := plans(); custom != 0 || generic != 40 {
		t.Errorf("40 reads used %d custom and %d generic plans; want 40 generic", custom, generic)
	}
}
