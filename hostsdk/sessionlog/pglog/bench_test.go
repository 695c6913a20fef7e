package pglog

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// benchStore opens a store on a fresh schema as Open does, with a pool of
// at least conns connections, enough for that many appenders at once.
func benchStore(b *testing.B, conns int32) *Store {
	b.Helper()
	dsn := testDSN(b)
	schema := freshSchema(b, dsn)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = max(cfg.MaxConns, conns)
	s, err := openConfig(context.Background(), cfg, &Options{Schema: schema})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

// settle vacuums and analyzes the store's tables after a bulk load, as
// autovacuum would soon after, so that it does not run (and take a core)
// while the benchmark does.
func settle(b *testing.B, s *Store) {
	b.Helper()
	exec(b, s, `VACUUM (ANALYZE) {s}.sessions, {s}.events, {s}.hides`)
}

func benchRecord(i int) sessionlog.Record {
	return sessionlog.Record{
		Type:   sessionlog.TypeMessage,
		Source: []byte(`{"kind":"tool-result","tool":"read"}`),
		Body:   []byte(fmt.Sprintf(`{"role":"assistant","content":"benchmark message number %d with some ordinary text in it"}`, i)),
	}
}

// BenchmarkAppend measures acknowledged one-record appends, each committed
// (PostgreSQL) or fsync'ed (file) before it returns: to one session, and to
// 32 sessions from 32 goroutines at once.
func BenchmarkAppend(b *testing.B) {
	for _, kind := range []string{"postgres", "file"} {
		for _, sessions := range []int{1, 32} {
			b.Run(fmt.Sprintf("store=%s/sessions=%d", kind, sessions), func(b *testing.B) {
				var store sessionlog.Store
				if kind == "postgres" {
					store = benchStore(b, int32(sessions))
				} else {
					fs, err := sessionlog.NewFileStore(b.TempDir(), nil)
					if err != nil {
						b.Fatal(err)
					}
					store = fs
				}
				ctx := context.Background()
				logs := make([]sessionlog.Log, sessions)
				for i := range logs {
					l, err := store.Open(ctx, "bench-"+strconv.Itoa(i))
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { _ = l.Close() })
					logs[i] = l
				}
				rec := benchRecord(1)
				var next atomic.Int64
				var wg sync.WaitGroup
				errs := make(chan error, sessions)
				b.ReportAllocs()
				b.ResetTimer()
				for _, l := range logs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for next.Add(1) <= int64(b.N) {
							if _, err := l.Append(ctx, rec); err != nil {
								errs <- err
								return
							}
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				close(errs)
				for err := range errs {
					b.Fatal(err)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
			})
		}
	}
}

// BenchmarkAppendIf measures conditional appends to one session on the
// head the previous one returned, as a host publishing a catalog does.
func BenchmarkAppendIf(b *testing.B) {
	s := benchStore(b, 1)
	ctx := context.Background()
	l, err := s.Open(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	rec := benchRecord(1)
	var head sessionlog.Head
	b.ReportAllocs()
	for b.Loop() {
		if head, err = l.AppendIf(ctx, head.Seq, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// fileSession writes records 1..n of y to a file log in fsync'ed batches
// and reopens it, so that its index is the one the open scan builds.
func fileSession(b *testing.B, n uint64, y layout) sessionlog.Log {
	b.Helper()
	path := filepath.Join(b.TempDir(), "s.jsonl")
	l, _, err := sessionlog.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	batch := make([]sessionlog.Record, 0, 10_000)
	for seq := uint64(1); seq <= n; seq++ {
		batch = append(batch, y.record(seq))
		if len(batch) == cap(batch) || seq == n {
			if _, err := l.Append(context.Background(), batch...); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	l, _, err = sessionlog.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = l.Close() })
	return l
}

// newestCatalog reads l backwards in pages of 64, as a plugin resuming a
// session does, until the newest visible catalog-like event, and returns
// its seq and the pages read.
func newestCatalog(ctx context.Context, l sessionlog.Log) (uint64, int, error) {
	before := uint64(0)
	for pages := 1; ; pages++ {
		p, err := l.ReadBackward(ctx, before, 0, 64)
		if err != nil {
			return 0, pages, err
		}
		for _, e := range p.Events {
			if e.Visible && bytes.Contains(e.Source, []byte(`"kind":"skill-catalog"`)) {
				return e.Seq, pages, nil
			}
		}
		if !p.More {
			return 0, pages, nil
		}
		before = p.Events[len(p.Events)-1].Seq
	}
}

// BenchmarkNewestCatalog finds the newest catalog-like record, 100 events
// back behind a compaction, in sessions of 1,000 and 1,000,000 events (a
// compaction every 1,000), on PostgreSQL (loaded with COPY) and in a file
// log: two pages of 64 either way, whose cost must not grow with the
// session.
func BenchmarkNewestCatalog(b *testing.B) {
	y := layout{every: 1000}
	for _, kind := range []string{"postgres", "file"} {
		for _, n := range []uint64{1_000, 1_000_000} {
			b.Run(fmt.Sprintf("store=%s/events=%d", kind, n), func(b *testing.B) {
				var l sessionlog.Log
				if kind == "postgres" {
					s := benchStore(b, 1)
					l = bulkLoad(b, s, "bench", n, y)
					settle(b, s)
				} else {
					l = fileSession(b, n, y)
				}
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					seq, pages, err := newestCatalog(ctx, l)
					if err != nil || seq != n-100 || pages != 2 {
						b.Fatalf("newest catalog at %d after %d pages, %v; want %d after 2", seq, pages, err, n-100)
					}
				}
			})
		}
	}
}

// roundTripStore is a file store whose reads first make one minimal round
// trip to the server (SELECT 1): the least that any store reading a
// database at every step adds to the file store, the baseline against
// which the PostgreSQL store's own cost shows.
type roundTripStore struct {
	sessionlog.Store
	pool *pgxpool.Pool
}

type roundTripLog struct {
	sessionlog.Log
	pool *pgxpool.Pool
}

func (s roundTripStore) Open(ctx context.Context, id string) (sessionlog.Log, error) {
	l, err := s.Store.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	return roundTripLog{Log: l, pool: s.pool}, nil
}

func (l roundTripLog) ReadBackward(ctx context.Context, before, after uint64, max int) (sessionlog.Page, error) {
	var one int64
	if err := l.pool.QueryRow(ctx, `SELECT 1::bigint`).Scan(&one); err != nil {
		return sessionlog.Page{}, err
	}
	return l.Log.ReadBackward(ctx, before, after, max)
}

// BenchmarkPreStep is a step over go-plugin, 1,000 skills, a session of
// 100,000 events, with the PostgreSQL store, the file store, and the file
// store plus one round trip to the server per read: a step where nothing
// changed, and a step of an agent loop (two messages appended, untimed,
// before each).
func BenchmarkPreStep(b *testing.B) {
	for _, kind := range []string{"postgres", "file", "file+select1"} {
		b.Run("store="+kind, func(b *testing.B) {
			var store sessionlog.Store
			if kind == "postgres" {
				store = benchStore(b, 4)
			} else {
				fs, err := sessionlog.NewFileStore(b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				store = fs
				if kind == "file+select1" {
					store = roundTripStore{Store: fs, pool: benchStore(b, 4).pool}
				}
			}
			host, _, _ := newHost(b, store, 1000)
			ctx := context.Background()
			l, err := store.Open(ctx, "s1")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = l.Close() })
			batch := make([]sessionlog.Record, 0, 5000)
			for i := range 100_000 {
				batch = append(batch, sessionlog.Record{Type: sessionlog.TypeMessage, Body: []byte(`{"id":"m","role":"assistant","content":[{"type":"text","text":"ok"}]}`)})
				if len(batch) == cap(batch) || i == 100_000-1 {
					if _, err := l.Append(ctx, batch...); err != nil {
						b.Fatal(err)
					}
					batch = batch[:0]
				}
			}
			if ps, ok := store.(*Store); ok {
				settle(b, ps)
			}
			session := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"})
			for range 3 { // publish, read it back, settle
				if _, err := session.Step(ctx, hostsdk.Decision{}, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("unchanged", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					res, err := session.Step(ctx, hostsdk.Decision{}, nil)
					if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
						b.Fatalf("outcome %s, err %v", res.Outcome, err)
					}
				}
			})
			b.Run("loop-step", func(b *testing.B) {
				loop := []sessionlog.Record{
					{Type: sessionlog.TypeMessage, Body: []byte(`{"id":"a","role":"assistant","content":[{"type":"text","text":"Reading the file."}]}`)},
					{Type: sessionlog.TypeMessage, Source: []byte(`{"kind":"tool-result","tool":"read"}`), Body: []byte(`{"id":"t","role":"tool","content":[{"type":"text","text":"package main"}]}`)},
				}
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					if _, err := l.Append(ctx, loop...); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					res, err := session.Step(ctx, hostsdk.Decision{}, nil)
					if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
						b.Fatalf("outcome %s, err %v", res.Outcome, err)
					}
				}
			})
		})
	}
}
