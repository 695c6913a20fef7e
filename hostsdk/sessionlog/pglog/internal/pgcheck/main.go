// Command pgcheck tells whether the PostgreSQL server that the pglog tests
// use is reachable: it connects to the DSN in SKILLCATALOG_TEST_POSTGRES_DSN,
// retrying for up to -wait, and exits 0 with the server's version, or 1 with
// the reason. CI runs it before the tests so that a missing server fails
// the run at once and says why, rather than in every test.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
)

const dsnEnv = "SKILLCATALOG_TEST_POSTGRES_DSN"

func main() {
	wait := flag.Duration("wait", 15*time.Second, "how long to keep trying to connect")
	flag.Parse()
	if err := run(*wait); err != nil {
		fmt.Fprintln(os.Stderr, "pgcheck:", err)
		os.Exit(1)
	}
}

func run(wait time.Duration) error {
	dsn := os.Getenv(dsnEnv)
	if dsn == "" {
		return fmt.Errorf("%s is not set", dsnEnv)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("%s: %w", dsnEnv, err)
	}
	// Name the server without the password.
	where := fmt.Sprintf("%s:%d database %q as %q", cfg.Host, cfg.Port, cfg.Database, cfg.User)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var last error
	for {
		version, err := ping(ctx, cfg)
		if err == nil {
			fmt.Printf("PostgreSQL %s reachable at %s\n", version, where)
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("PostgreSQL unreachable at %s after %v: %w (start the server, or point %s at one)",
				where, wait, last, dsnEnv)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func ping(ctx context.Context, cfg *pgx.ConnConfig) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.Background())
	var version string
	err = conn.QueryRow(ctx, `SELECT current_setting('server_version')`).Scan(&version)
	return version, err
}
