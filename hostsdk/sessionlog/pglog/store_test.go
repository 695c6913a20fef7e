package pglog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

func TestSchemaOption(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"skillcatalog", true},
		{"a", true},
		{"_private", true},
		{"agents_2", true},
		{strings.Repeat("s", 63), true},
		{strings.Repeat("s", 64), false},
		{"Agents", false},
		{"2agents", false},
		{"agent-log", false},
		{"agent.log", false},
		{"agent log", false},
		{`agent"log`, false},
		{"café", false},
		{"pg_agents", false},
	} {
		_, err := newConfig(&Options{Schema: c.name})
		if c.ok {
			if err != nil {
				t.Errorf("Schema %q: %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("Schema %q accepted", c.name)
			continue
		}
		// The error names the option and the bound.
		for _, want := range []string{"Options.Schema", "63 bytes", "a-z, 0-9 and _"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Schema %q: error %q does not mention %q", c.name, err, want)
			}
		}
	}
	// nil and zero options mean the defaults.
	for _, opts := range []*Options{nil, {}} {
		if cfg, err := newConfig(opts); err != nil || cfg.schema != DefaultSchema || cfg.settle != DefaultSettleTimeout {
			t.Errorf("options %v: schema %q, settle timeout %s, %v; want %q and %s", opts, cfg.schema, cfg.settle, err, DefaultSchema, DefaultSettleTimeout)
		}
	}
}

// TestOpenErrors needs no server: bad options and DSNs fail before any
// connection, and never show the password.
func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	// Port 1 refuses connections: reaching it would fail differently.
	if _, err := Open(ctx, "postgres://u:secret@127.0.0.1:1/db", &Options{Schema: "Bad"}); err == nil || !strings.Contains(err.Error(), "Options.Schema") {
		t.Errorf("Open with a bad schema name: error %v, want one naming Options.Schema", err)
	}
	for _, d := range []time.Duration{-time.Nanosecond, -time.Second} {
		if _, err := Open(ctx, "postgres://u:secret@127.0.0.1:1/db", &Options{SettleTimeout: d}); err == nil || !strings.Contains(err.Error(), "Options.SettleTimeout") || !strings.Contains(err.Error(), "positive") {
			t.Errorf("Open with a settle timeout of %s: error %v, want one naming Options.SettleTimeout and its bound", d, err)
		}
	}
	_, err := Open(ctx, "postgres://u:s3cr3t-pw@127.0.0.1:notaport/db", nil)
	if err == nil {
		t.Fatal("Open with a malformed DSN succeeded")
	}
	if strings.Contains(err.Error(), "s3cr3t-pw") {
		t.Errorf("Open's error shows the password: %v", err)
	}
	if _, err := New(ctx, nil, nil); err == nil {
		t.Error("New with a nil pool succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Open(cancelled, "postgres://u@127.0.0.1:1/db", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context: error %v, want context.Canceled", err)
	}
}

// allVersions is every version a fresh schema records, in order.
func allVersions() []int {
	var vs []int
	for v := 1; v <= schemaVersion; v++ {
		vs = append(vs, v)
	}
	return vs
}

// versions reads the schema_version rows.
func versions(t *testing.T, s *Store) []int {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), fillSchema(`SELECT version FROM {s}.schema_version ORDER BY version`, s.schema))
	if err != nil {
		t.Fatal(err)
	}
	var vs []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestMigrateConcurrently starts several stores, each with its own pool,
// on one new schema at the same moment: the advisory lock lets exactly one
// create it and the others find it done.
func TestMigrateConcurrently(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	const starters = 8
	var (
		wg     sync.WaitGroup
		start  = make(chan struct{})
		stores = make([]*Store, starters)
		errs   = make([]error, starters)
	)
	for i := range starters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			stores[i], errs[i] = Open(context.Background(), dsn, &Options{Schema: schema})
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("store %d of %d: Open: %v", i+1, starters, err)
		} else {
			t.Cleanup(stores[i].Close)
		}
	}
	if t.Failed() {
		return
	}
	if got := versions(t, stores[0]); !slices.Equal(got, allVersions()) {
		t.Fatalf("schema_version = %v, want %v", got, allVersions())
	}
	// Every store works on the one schema.
	for i, s := range stores {
		l, err := s.Open(context.Background(), "shared")
		if err != nil {
			t.Fatalf("store %d: Open: %v", i, err)
		}
		h, err := l.Append(context.Background(), sessionlog.Record{Type: "message"})
		if err != nil || h.Seq != uint64(i+1) {
			t.Fatalf("store %d: Append = %+v, %v; want seq %d", i, h, err, i+1)
		}
	}
}

// TestReopenKeepsSchema opens a migrated schema again: nothing is redone
// and the sessions are still there.
func TestReopenKeepsSchema(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	ctx := context.Background()
	s := openStore(t, dsn, schema)
	l, err := s.Open(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	again := openStore(t, dsn, schema)
	if got := versions(t, again); !slices.Equal(got, allVersions()) {
		t.Fatalf("schema_version after reopening = %v, want %v", got, allVersions())
	}
	l, err = again.Open(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.ReadBackward(ctx, 0, 0, 10)
	if err != nil || len(p.Events) != 1 || string(p.Events[0].Body) != `{"n":1}` {
		t.Fatalf("ReadBackward after reopening = %+v, %v; want the one event", p, err)
	}
}

// TestNewerSchemaRefused: a schema that a newer build migrated further is
// not used by this one.
func TestNewerSchemaRefused(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	s := openStore(t, dsn, schema)
	exec(t, s, `INSERT INTO {s}.schema_version (version) VALUES ($1)`, schemaVersion+1)
	_, err := Open(context.Background(), dsn, &Options{Schema: schema})
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open of a schema at version %d: error %v, want ErrNewerSchema", schemaVersion+1, err)
	}
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Found != schemaVersion+1 || ve.Known != schemaVersion {
		t.Fatalf("error %v, want a *VersionError with Found %d, Known %d", err, schemaVersion+1, schemaVersion)
	}
}

func TestStoreClose(t *testing.T) {
	dsn := testDSN(t)
	s := openStore(t, dsn, freshSchema(t, dsn))
	ctx := context.Background()
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s.Close() // twice is fine
	if _, err := l.Head(ctx); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("Head after the store's Close: error %v, want ErrClosed", err)
	}
	if _, err := l.Append(ctx, sessionlog.Record{Type: "message"}); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("Append after the store's Close: error %v, want ErrClosed", err)
	}
	if _, err := l.ReadBackward(ctx, 0, 0, 1); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("ReadBackward after the store's Close: error %v, want ErrClosed", err)
	}
	if _, err := s.Open(ctx, "s"); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("Open after the store's Close: error %v, want ErrClosed", err)
	}
}

// TestNewSharesPool: a store on the runtime's pool leaves it open.
func TestNewSharesPool(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s, err := New(ctx, pool, &Options{Schema: schema})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, sessionlog.Record{Type: "message"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := pool.Ping(ctx); err != nil {
		t.Fatalf("the runtime's pool after the store's Close: %v", err)
	}
	if _, err := New(ctx, pool, &Options{Schema: "Bad"}); err == nil || !strings.Contains(err.Error(), "Options.Schema") {
		t.Errorf("New with a bad schema name: error %v, want one naming Options.Schema", err)
	}
}

// TestBytesVerbatim stores what text columns could not: NUL and invalid
// UTF-8 in session ids, NUL in types, ids far past a btree entry's size,
// and keeps nil and empty payloads apart in the table itself.
func TestBytesVerbatim(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	ids := []string{"\x00", "a\x00b", "\xff\xfe", "é", strings.Repeat("long-", 200_000)}
	types := []string{"a\x00b", "ünïcödé", "message"}
	for i, id := range ids {
		l, err := s.Open(ctx, id)
		if err != nil {
			t.Fatalf("Open(%d-byte id %d): %v", len(id), i, err)
		}
		recs := []sessionlog.Record{
			{Type: types[i%len(types)], Source: nil, Body: nil},
			{Type: "message", Source: []byte{}, Body: []byte(fmt.Sprintf(`{"id":%d}`, i))},
		}
		if _, err := l.Append(ctx, recs...); err != nil {
			t.Fatalf("Append to id %d: %v", i, err)
		}
		_ = l.Close()
	}
	for i, id := range ids {
		l, err := s.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		p, err := l.ReadBackward(ctx, 0, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Events) != 2 {
			t.Fatalf("id %d: %d events, want 2 (ids collided?)", i, len(p.Events))
		}
		first, second := p.Events[1], p.Events[0]
		if first.Type != types[i%len(types)] || first.Source != nil || first.Body != nil {
			t.Errorf("id %d: first event %+v, want type %q and nil Source and Body", i, first, types[i%len(types)])
		}
		if second.Source == nil || len(second.Source) != 0 || string(second.Body) != fmt.Sprintf(`{"id":%d}`, i) {
			t.Errorf("id %d: second event %+v, want an empty non-nil Source", i, second)
		}
	}
	// In the table: NULL for nil, an empty bytea for empty, ids as bytes.
	var nulls, empties, sessions int
	if err := s.pool.QueryRow(ctx, fillSchema(`SELECT
		(SELECT count(*) FROM {s}.events WHERE source IS NULL AND body IS NULL),
		(SELECT count(*) FROM {s}.events WHERE source = ''::bytea),
		(SELECT count(*) FROM {s}.sessions WHERE id = ANY($1::bytea[]))`, s.schema), idBytes(ids)).Scan(&nulls, &empties, &sessions); err != nil {
		t.Fatal(err)
	}
	if nulls != len(ids) || empties != len(ids) || sessions != len(ids) {
		t.Errorf("NULL payload rows %d, empty sources %d, sessions by id %d; want %d of each", nulls, empties, sessions, len(ids))
	}
}

func idBytes(ids []string) [][]byte {
	b := make([][]byte, len(ids))
	for i, id := range ids {
		b[i] = []byte(id)
	}
	return b
}

// TestPrimaryKeyBackstop lowers a session's head underneath the store: an
// append then collides with an existing (session, seq) and fails, on both
// append paths, rather than overwriting events.
func TestPrimaryKeyBackstop(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(fmt.Sprintf(`{"n":%d}`, i))}); err != nil {
			t.Fatal(err)
		}
	}
	exec(t, s, `UPDATE {s}.sessions SET head_seq = 1`)
	for _, recs := range [][]sessionlog.Record{
		{{Type: "message", Body: []byte(`{"n":"over"}`)}},
		{{Type: "compaction", Body: []byte(`{}`), Hide: &sessionlog.Range{From: 1, To: 1}}},
	} {
		_, err := l.Append(ctx, recs...)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
			t.Fatalf("Append over existing seq 2: error %v, want a unique violation (23505)", err)
		}
	}
	exec(t, s, `UPDATE {s}.sessions SET head_seq = 3`)
	p, err := l.ReadBackward(ctx, 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range p.Events {
		if want := fmt.Sprintf(`{"n":%d}`, 3-i); string(e.Body) != want || !e.Visible {
			t.Errorf("event %d = %s visible=%v, want %s visible", e.Seq, e.Body, e.Visible, want)
		}
	}
	if p.Head.SurfaceRevision != 0 {
		t.Errorf("SurfaceRevision = %d after failed appends, want 0", p.Head.SurfaceRevision)
	}
}

// TestMalformedRowsReadAsRaw edits rows underneath the store: reads skip
// nothing and fail on nothing, and the edited rows come back in Raw.
func TestMalformedRowsReadAsRaw(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	recs := []sessionlog.Record{
		{Type: "message", Body: []byte(`{"n":1}`)},
		{Type: "message", Source: []byte("src"), Body: []byte(`{"n":2}`)},
		{Type: "message", Body: []byte(`{"n":3}`)},
	}
	if _, err := l.Append(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	exec(t, s, `UPDATE {s}.events SET type = '\xff'::bytea WHERE seq = 2`)
	exec(t, s, `UPDATE {s}.events SET body = 'not json'::bytea WHERE seq = 3`)
	p, err := l.ReadBackward(ctx, 0, 0, 10)
	if err != nil {
		t.Fatalf("ReadBackward over edited rows: %v", err)
	}
	if len(p.Events) != 3 {
		t.Fatalf("%d events, want 3", len(p.Events))
	}
	for _, c := range []struct {
		ev   sessionlog.Event
		want rawRow
	}{
		{p.Events[0], rawRow{Type: []byte("message"), Body: []byte("not json")}},
		{p.Events[1], rawRow{Type: []byte{0xff}, Source: []byte("src"), Body: []byte(`{"n":2}`)}},
	} {
		var got rawRow
		if c.ev.Type != "" || c.ev.Body != nil || json.Unmarshal(c.ev.Raw, &got) != nil {
			t.Fatalf("event %d = %+v, want Type \"\" and the row in Raw", c.ev.Seq, c.ev)
		}
		if !bytes.Equal(got.Type, c.want.Type) || !bytes.Equal(got.Source, c.want.Source) || !bytes.Equal(got.Body, c.want.Body) {
			t.Errorf("event %d Raw = %s, want the row %+v", c.ev.Seq, c.ev.Raw, c.want)
		}
	}
	if e := p.Events[2]; e.Type != "message" || e.Raw != nil {
		t.Errorf("untouched event = %+v", e)
	}
}

// TestMissingSessionRow deletes a session's row underneath an open handle:
// every method fails with an error saying so.
func TestMissingSessionRow(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	exec(t, s, `DELETE FROM {s}.sessions`)
	_, errHead := l.Head(ctx)
	_, errRead := l.ReadBackward(ctx, 0, 0, 1)
	_, errAppend := l.Append(ctx, sessionlog.Record{Type: "message"})
	_, errIf := l.AppendIf(ctx, 0, sessionlog.Record{Type: "message"})
	for name, err := range map[string]error{"Head": errHead, "ReadBackward": errRead, "Append": errAppend, "AppendIf": errIf} {
		if err == nil || !strings.Contains(err.Error(), "missing") {
			t.Errorf("%s without a session row: error %v, want one saying the row is missing", name, err)
		}
	}
}

// TestBoundsPastBigint: seqs are bigint, and uint64 bounds and conditions
// past its range mean what they mean for any log: no bound, nothing, or a
// head no log is at.
func TestBoundsPastBigint(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	recs := []sessionlog.Record{{Type: "message", Body: []byte(`1`)}, {Type: "message", Body: []byte(`2`)}}
	if _, err := l.Append(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		before, after uint64
		want          int
	}{
		{math.MaxUint64, 0, 2},
		{math.MaxInt64, 0, 2},
		{math.MaxInt64 + 1, 1, 1},
		{0, math.MaxUint64, 0},
		{0, math.MaxInt64 - 1, 0},
		{math.MaxUint64, math.MaxUint64 - 1, 0},
	} {
		p, err := l.ReadBackward(ctx, c.before, c.after, math.MaxInt)
		if err != nil || len(p.Events) != c.want || p.More || p.Head.Seq != 2 {
			t.Errorf("ReadBackward(%d, %d, MaxInt) = %d events, More %v, head %d, %v; want %d events at head 2", c.before, c.after, len(p.Events), p.More, p.Head.Seq, err, c.want)
		}
	}
	for _, expect := range []uint64{math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64} {
		_, err := l.AppendIf(ctx, expect, sessionlog.Record{Type: "message"})
		var ce *sessionlog.ConflictError
		if !errors.As(err, &ce) || ce.Head.Seq != 2 || ce.Expected != expect {
			t.Errorf("AppendIf(%d): error %v, want a conflict at head 2", expect, err)
		}
	}
}
