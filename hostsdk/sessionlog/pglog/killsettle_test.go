package pglog

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// settleChildEnv makes the test binary a host process for
// TestHostKilledDuringSettle: it appends through the DSN it is given,
// after reporting "ready" and reading a line.
const settleChildEnv = "PGLOG_TEST_SETTLE_CHILD"

// runSettleChild is the host process: it opens the store, warms its
// connection up with two appends, says ready, and on a line from the
// parent appends a record holding the marker; the parent has arranged
// for that append to be lost on the way and its settle to wait, and kills
// the process there.
func runSettleChild() int {
	ctx := context.Background()
	store, err := Open(ctx, os.Getenv(settleChildEnv), &Options{Schema: os.Getenv(settleChildEnv + "_SCHEMA")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open:", err)
		return 1
	}
	l, err := store.Open(ctx, "killed-in-settle")
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open log:", err)
		return 1
	}
	for i := range 2 {
		if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(fmt.Sprintf(`{"warm":%d}`, i))}); err != nil {
			fmt.Fprintln(os.Stderr, "child: warm up:", err)
			return 1
		}
	}
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 1
	}
	_, err = l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(`{"text":"` + os.Getenv(settleChildEnv+"_MARKER") + `"}`)})
	fmt.Fprintln(os.Stderr, "child: the append returned:", err)
	return 0
}

// proxiedDSN is dsn with its host and port replaced by the proxy's, and an
// application name that tells the child's connections apart.
func proxiedDSN(t *testing.T, dsn string, p *cutProxy, app string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("the test DSN is not a URL (%v): this test needs the URL form", err)
	}
	u.Host = p.ln.Addr().(*net.TCPAddr).String()
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestHostKilledDuringSettle kills a host process (SIGKILL) while it
// settles an append whose request was lost on the way, its settle waiting
// for the session row that another transaction holds. Nothing of the
// append may be in the log, the session goes on for the next host, and
// the dead host's connections end with it.
func TestHostKilledDuringSettle(t *testing.T) {
	dsn := testDSN(t)
	schema := freshSchema(t, dsn)
	direct := openStore(t, dsn, schema)
	server, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, net.JoinHostPort(server.ConnConfig.Host, strconv.Itoa(int(server.ConnConfig.Port))))
	app := fmt.Sprintf("settle-child-%d", time.Now().UnixNano())
	marker := "lost-" + app
	child := osexec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), settleChildEnv+"="+proxiedDSN(t, dsn, proxy, app),
		settleChildEnv+"_SCHEMA="+schema, settleChildEnv+"_MARKER="+marker)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	child.Stderr = &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the host process said %q, %v; stderr: %s", line, err, stderr.String())
	}

	unlock := lockSession(t, dsn, direct, "killed-in-settle")
	proxy.armDrop(marker)
	if _, err := stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the host's settle to wait for the session row", func() bool {
		return childBackends(t, direct, app, "Lock") > 0
	})
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	if strings.Contains(stderr.String(), "the append returned") {
		t.Fatalf("the append returned before the kill; the test did not kill a settle: %s", stderr.String())
	}
	unlock()
	waitFor(t, "the killed host's connections to end", func() bool {
		return childBackends(t, direct, app, "") == 0
	})

	n, head := countMarked(t, direct, "killed-in-settle", marker)
	if n != 0 || head.Seq != 2 {
		t.Fatalf("after the kill the log holds the lost record %d times, head %+v; want none, head 2", n, head)
	}
	l, err := direct.Open(context.Background(), "killed-in-settle")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	next, err := l.AppendIf(context.Background(), 2, sessionlog.Record{Type: "message", Body: []byte(`{"after":"the kill"}`)})
	if err != nil || next.Seq != 3 {
		t.Fatalf("the next host's append: head %+v, %v; want head 3", next, err)
	}
}

// childBackends counts the server's backends of the application app;
// with waitType set, only those waiting on that kind of event.
func childBackends(t *testing.T, s *Store, app, waitType string) int {
	t.Helper()
	q := `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`
	args := []any{app}
	if waitType != "" {
		q += ` AND wait_event_type = $2`
		args = append(args, waitType)
	}
	var n int
	if err := s.pool.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// waitFor polls cond until it holds, failing the test after a generous
// bound: the server's own bookkeeping is what is awaited, not a timing.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
