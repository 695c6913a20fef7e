package pglog

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// DefaultSchema is the schema a Store uses unless [Options.Schema] names
// another.
const DefaultSchema = "skillcatalog"

// Options configures [Open] and [New]. Every field is optional: the zero
// value, like a nil *Options, means the defaults. An option out of range
// is an error naming it and its bound.
type Options struct {
	// Schema keeps the store's tables in the named schema, created if it
	// does not exist; "" means DefaultSchema. The name must be 1 to 63
	// bytes of lower-case ASCII letters, digits and '_', must not start
	// with a digit, and must not start with "pg_" (PostgreSQL reserves
	// those). Stores that share a schema share their sessions.
	Schema string
	// SettleTimeout bounds how long an append whose context ended, or
	// whose connection was lost, may take past that to learn its outcome:
	// the server's answer to the cancellation of its statement, then, if
	// that never comes, the check on another connection (see the package
	// documentation). An append that cannot learn it in time fails with an
	// error wrapping sessionlog.ErrOutcomeUnknown. 0 means
	// DefaultSettleTimeout; otherwise it must be positive.
	SettleTimeout time.Duration
}

// config is Options checked, with the defaults filled in.
type config struct {
	schema string
	settle time.Duration
}

// checkSchemaName explains why name cannot be a schema name, or returns nil.
func checkSchemaName(name string) error {
	const rule = "1 to 63 bytes of a-z, 0-9 and _, not starting with a digit or pg_"
	if name == "" || len(name) > 63 {
		return fmt.Errorf("pglog: Options.Schema: %d-byte name %q: want %s", len(name), name, rule)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return fmt.Errorf("pglog: Options.Schema: name %q has %q at byte %d: want %s", name, c, i, rule)
		}
	}
	if len(name) >= 3 && name[:3] == "pg_" {
		return fmt.Errorf("pglog: Options.Schema: name %q: PostgreSQL reserves the pg_ prefix; want %s", name, rule)
	}
	return nil
}

// Store is a sessionlog.Store on PostgreSQL. It is safe for concurrent use,
// and any number of Stores, in any processes, may share one schema.
type Store struct {
	pool    *pgxpool.Pool
	ownPool bool
	schema  string
	settle  time.Duration
	sql     statements
	closed  atomic.Bool
}

var _ sessionlog.Store = (*Store)(nil)

// Open connects to the database that dsn names (a PostgreSQL URL or
// key=value string, as pgxpool.ParseConfig reads it, including pool
// settings such as pool_max_conns), creates or migrates the store's schema,
// and returns the store, configured by opts; nil means every default
// ([DefaultSchema], [DefaultSettleTimeout]). Close closes its connections.
//
// Unless the DSN sets plan_cache_mode, the store's connections run with
// plan_cache_mode=force_generic_plan: every statement of the store reads a
// key range bounded by its result under any plan, and the server's own
// choice between generic and custom plans, which compares with custom plans
// made while the tables were small, would otherwise have a connection plan
// every read once its sessions have grown large.
func Open(ctx context.Context, dsn string, opts *Options) (*Store, error) {
	pcfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgconn redacts the password from the connection string it quotes.
		return nil, fmt.Errorf("pglog: open: %w", err)
	}
	return openConfig(ctx, pcfg, opts)
}

// openConfig is Open on a parsed configuration.
func openConfig(ctx context.Context, pcfg *pgxpool.Config, opts *Options) (*Store, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if _, set := pcfg.ConnConfig.RuntimeParams["plan_cache_mode"]; !set {
		pcfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("pglog: open: %w", err)
	}
	s, err := newStore(ctx, pool, true, cfg)
	if err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// New returns a store on a pool the caller already has, so that a runtime
// can share its connections, configured by opts as [Open] is (nil means
// every default). It creates or migrates the store's schema. Closing the
// store leaves the pool open. The pool's settings are the caller's: see
// Open for why its connections may want plan_cache_mode set to
// force_generic_plan (RuntimeParams).
func New(ctx context.Context, pool *pgxpool.Pool, opts *Options) (*Store, error) {
	if pool == nil {
		return nil, errors.New("pglog: new: nil pool")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return newStore(ctx, pool, false, cfg)
}

// newConfig checks opts (nil for the defaults) and fills in the defaults.
func newConfig(opts *Options) (config, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := config{schema: o.Schema, settle: o.SettleTimeout}
	if cfg.schema == "" {
		cfg.schema = DefaultSchema
	}
	switch {
	case cfg.settle == 0:
		cfg.settle = DefaultSettleTimeout
	case cfg.settle < 0:
		return config{}, fmt.Errorf("pglog: Options.SettleTimeout %s: want a positive duration, or 0 for DefaultSettleTimeout (%s)", cfg.settle, DefaultSettleTimeout)
	}
	return cfg, checkSchemaName(cfg.schema)
}

func newStore(ctx context.Context, pool *pgxpool.Pool, own bool, cfg config) (*Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pglog: open: %w", err)
	}
	if err := migrate(ctx, pool, cfg.schema); err != nil {
		return nil, fmt.Errorf("pglog: open: schema %q: %w", cfg.schema, err)
	}
	return &Store{pool: pool, ownPool: own, schema: cfg.schema, settle: cfg.settle, sql: newStatements(cfg.schema)}, nil
}

// Schema returns the schema that holds the store's tables.
func (s *Store) Schema() string { return s.schema }

// Close marks the store closed, so that its logs and Open return errors
// wrapping sessionlog.ErrClosed, and closes the pool if Open created it,
// waiting for calls in flight. It is safe to call more than once.
func (s *Store) Close() {
	if s.closed.CompareAndSwap(false, true) && s.ownPool {
		s.pool.Close()
	}
}

// Open returns a handle on the session's log, creating the session, empty,
// if the schema does not hold it yet. Any string but "" is a session id.
// Handles are independent: closing one leaves the others open, and events
// stay in the database after every handle is closed.
func (s *Store) Open(ctx context.Context, sessionID string) (sessionlog.Log, error) {
	l, err := s.OpenLog(ctx, sessionID)
	if err != nil {
		// Not l: a nil *Log would make a non-nil sessionlog.Log.
		return nil, err
	}
	return l, nil
}

// OpenLog is Open returning the concrete type.
func (s *Store) OpenLog(ctx context.Context, sessionID string) (*Log, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pglog: open session: %w", err)
	}
	if s.closed.Load() {
		return nil, fmt.Errorf("pglog: open session: %w", sessionlog.ErrClosed)
	}
	if sessionID == "" {
		return nil, errors.New("pglog: open session: empty session id")
	}
	id := []byte(sessionID)
	// The first attempt finds or creates the row. It finds nothing only when
	// another process created the row after this statement's snapshot was
	// taken (ON CONFLICT then waits for it and skips); the second sees it.
	for range 2 {
		var key int64
		err := s.pool.QueryRow(ctx, s.sql.open, id).Scan(&key)
		if err == nil {
			return &Log{store: s, key: key}, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("pglog: open session: %w", s.wrap(err))
		}
	}
	return nil, errors.New("pglog: open session: the session row was neither found nor created")
}

// wrap reports a call that failed because the store was closed meanwhile as
// ErrClosed, and passes other errors through.
func (s *Store) wrap(err error) error {
	if s.closed.Load() {
		return fmt.Errorf("%w: %w", sessionlog.ErrClosed, err)
	}
	return err
}
