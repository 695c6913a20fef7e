package hostsdk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog/pglog"
	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

// The replica processes of TestReplicaProcessesSharePostgreSQL are this test
// binary again, in host mode "replica", driven round by round over stdin.
const (
	postgresDSNVar  = testneeds.PostgresDSNVar
	replicaSchema   = "SKILLCATALOG_TEST_REPLICA_SCHEMA"
	replicaName     = "SKILLCATALOG_TEST_REPLICA_NAME"
	replicaSessions = "s1,s2,s3"
	replicaSteps    = 3
)

// runReplicaProcess is one host replica: its own plugin process, the shared
// PostgreSQL store. For each line "change N" or "steps N" it does that part
// of round N and answers "ok", or "error: ..." on failure.
func runReplicaProcess() int {
	ctx := context.Background()
	store, err := pglog.Open(ctx, os.Getenv(postgresDSNVar), &pglog.Options{Schema: os.Getenv(replicaSchema)})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer store.Close()
	r, err := newReplica(ctx, os.Getenv(replicaName), os.Getenv(testHostPlugin), store)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer r.host.Close()
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		verb, num, _ := strings.Cut(in.Text(), " ")
		n, _ := strconv.Atoi(num)
		rd := replicaRound{Round: n, Sessions: strings.Split(replicaSessions, ","), StepsPerSession: replicaSteps}
		switch verb {
		case "change":
			err = r.change(rd)
		case "steps":
			err = r.steps(ctx, rd)
		default:
			err = fmt.Errorf("unknown command %q", in.Text())
		}
		if err != nil {
			fmt.Println("error:", strings.ReplaceAll(err.Error(), "\n", "; "))
			continue
		}
		fmt.Println("ok")
	}
	return 0
}

type replicaProcess struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func (p *replicaProcess) do(t *testing.T, line string) {
	t.Helper()
	if _, err := fmt.Fprintln(p.in, line); err != nil {
		t.Fatal(err)
	}
	if !p.out.Scan() {
		t.Fatalf("replica ended before answering %q", line)
	}
	if got := p.out.Text(); got != "ok" {
		t.Errorf("replica answered %q to %q", got, line)
	}
}

// TestReplicaProcessesSharePostgreSQL: three host processes, each with its
// own plugin process, step the same sessions concurrently against one
// PostgreSQL database while the skills change between rounds. Every change
// is published exactly once per session, and no step's message is lost or
// doubled.
// postgresStore opens a PostgreSQL session store in a schema of its own,
// named after prefix and dropped when the test ends. Without the DSN the
// test is skipped (testneeds.PostgresDSN), except under CI, where .ci/run
// sets it.
func postgresStore(t *testing.T, prefix string) (store *pglog.Store, dsn, schema string) {
	t.Helper()
	dsn = testneeds.PostgresDSN(t)
	schema = fmt.Sprintf("%s_%d_%d", prefix, os.Getpid(), time.Now().UnixNano())
	store, err := pglog.Open(context.Background(), dsn, &pglog.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		store.Close()
		conn, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return store, dsn, schema
}

func TestReplicaProcessesSharePostgreSQL(t *testing.T) {
	store, _, schema := postgresStore(t, "replicas")

	names := []string{"p0", "p1", "p2"}
	var procs []*replicaProcess
	for _, name := range names {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), testHostMode+"=replica", testHostPlugin+"="+pluginPath,
			replicaSchema+"="+schema, replicaName+"="+name)
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := &replicaProcess{cmd: cmd, in: in, out: bufio.NewScanner(out)}
		t.Cleanup(func() {
			p.in.Close()
			if err := p.cmd.Wait(); err != nil {
				t.Errorf("replica %s: %v", name, err)
			}
		})
		if !p.out.Scan() || p.out.Text() != "ready" {
			t.Fatalf("replica %s did not start: %q", name, p.out.Text())
		}
		procs = append(procs, p)
	}

	rounds := fleetRounds(5, strings.Split(replicaSessions, ","), replicaSteps)
	for _, rd := range rounds {
		for _, p := range procs {
			p.do(t, fmt.Sprintf("change %d", rd.Round))
		}
		// Every replica steps at once: send to all, then collect.
		for _, p := range procs {
			if _, err := fmt.Fprintf(p.in, "steps %d\n", rd.Round); err != nil {
				t.Fatal(err)
			}
		}
		for i, p := range procs {
			if !p.out.Scan() || p.out.Text() != "ok" {
				t.Fatalf("replica %s, round %d: %q", names[i], rd.Round, p.out.Text())
			}
		}
	}
	checkFleetLog(t, store, names, rounds)
}
