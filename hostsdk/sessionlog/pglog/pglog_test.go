package pglog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog/logtest"
	"github.com/skillcatalog/skillcatalog/internal/plugintest"
	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

// pluginPath is the real plugin binary, built once by TestMain for the
// host tests and benchmarks.
var pluginPath string

func TestMain(m *testing.M) {
	if os.Getenv(settleChildEnv) != "" {
		os.Exit(runSettleChild()) // a host process for TestHostKilledDuringSettle
	}
	plugintest.Main(m, &pluginPath)
}

// testDSN returns the database to test against. Without one the test is
// skipped, except under CI, which must run it.
func testDSN(tb testing.TB) string {
	tb.Helper()
	return testneeds.PostgresDSN(tb)
}

// freshSchema returns the name of a schema that does not exist yet and is
// dropped, with everything in it, when the test ends, so that tests and
// packages running at once never share tables.
func freshSchema(tb testing.TB, dsn string) string {
	tb.Helper()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	name := "pglog_test_" + hex.EncodeToString(b[:])
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+quoteSchema(name)+` CASCADE`); err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
		}
	})
	return name
}

// openStore opens a store on schema, closed when the test ends.
func openStore(tb testing.TB, dsn, schema string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), dsn, &Options{Schema: schema})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// newTestStore is a store on a fresh schema.
func newTestStore(tb testing.TB) *Store {
	tb.Helper()
	dsn := testDSN(tb)
	return openStore(tb, dsn, freshSchema(tb, dsn))
}

// exec runs SQL on the store's pool, with {s} standing for its schema.
func exec(tb testing.TB, s *Store, sql string, args ...any) {
	tb.Helper()
	if _, err := s.pool.Exec(context.Background(), fillSchema(sql, s.schema), args...); err != nil {
		tb.Fatalf("%s: %v", sql, err)
	}
}

func fillSchema(sql, schema string) string {
	return newReplacer(schema).Replace(sql)
}

func TestLogConformance(t *testing.T) {
	s := newTestStore(t)
	var n atomic.Int64
	logtest.Run(t, func(t *testing.T) sessionlog.Log {
		l, err := s.Open(context.Background(), fmt.Sprintf("conformance-%d", n.Add(1)))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return l
	})
}

func TestStoreConformance(t *testing.T) {
	dsn := testDSN(t)
	logtest.RunStore(t, func(t *testing.T) sessionlog.Store {
		return openStore(t, dsn, freshSchema(t, dsn))
	})
}

// replicas hands out handles from several stores, each with its own pool,
// on one schema in turn: what host replicas do.
type replicas struct {
	stores []*Store
	next   atomic.Int64
}

func (r *replicas) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	return r.stores[int(r.next.Add(1))%len(r.stores)].Open(ctx, id)
}

// TestReplicaStoreConformance runs the store suite with every handle of a
// session opened through a different pool, so that sharing, persistence and
// conditional appends hold across connections and not just within one.
func TestReplicaStoreConformance(t *testing.T) {
	dsn := testDSN(t)
	logtest.RunStore(t, func(t *testing.T) sessionlog.Store {
		schema := freshSchema(t, dsn)
		return &replicas{stores: []*Store{openStore(t, dsn, schema), openStore(t, dsn, schema)}}
	})
}
