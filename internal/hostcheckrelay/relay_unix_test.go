//go:build unix

package hostcheckrelay_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/hostcheckrelay"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

// The test binary plays both processes the relay joins: with standInEnv
// set it is the stand-in a host starts (it calls Stub), and with
// fakePluginEnv set it is the plugin the checker starts (it prints what
// it was given, sends a report and exits, or hangs).
const (
	standInEnv    = "RELAYTEST_STAND_IN"
	fakePluginEnv = "RELAYTEST_PLUGIN"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(standInEnv); path != "" {
		code, err := hostcheckrelay.Stub(path, os.Environ())
		if err != nil {
			fmt.Fprintln(os.Stderr, "stand-in:", err)
		}
		os.Exit(code)
	}
	if mode := os.Getenv(fakePluginEnv); mode != "" {
		os.Exit(fakePlugin(mode))
	}
	os.Exit(m.Run())
}

// fakePlugin prints the handshake variables and the report descriptor it
// was started with, and whether the stand-in's other variables reached
// it; then it writes a report of 3 steps and exits with status 7, or, in
// mode "hang", prints its pid and waits to be killed.
func fakePlugin(mode string) int {
	fmt.Printf("cookie=%s report-fd=%s leaked=%q\n", os.Getenv("SKILLCATALOG_PLUGIN"), os.Getenv(hostcheck.ReportFDEnv), os.Getenv("RELAYTEST_HOST_ONLY"))
	fd, err := strconv.Atoi(os.Getenv(hostcheck.ReportFDEnv))
	if err != nil {
		return 2
	}
	report := hostcheck.New(nil).Report()
	report.Steps = 3
	if err := json.NewEncoder(os.NewFile(uintptr(fd), "report")).Encode(report); err != nil {
		return 3
	}
	if mode == "hang" {
		fmt.Printf("pid=%d\n", os.Getpid())
		time.Sleep(time.Hour)
	}
	return 7
}

// listen opens a relay whose plugin is this test binary in mode.
func listen(t *testing.T, mode string) *hostcheckrelay.Relay {
	t.Helper()
	t.Setenv(fakePluginEnv, mode)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "relaytest-") // short: a socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	r, err := hostcheckrelay.Listen(filepath.Join(dir, "c.sock"), self)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// standIn starts the test binary as the stand-in a host starts, with the
// handshake's cookie and a variable of the host's own.
func standIn(t *testing.T, r *hostcheckrelay.Relay, stdout io.Writer) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), standInEnv+"="+r.Path(), "SKILLCATALOG_PLUGIN=cookie", "PLUGIN_PROTOCOL_VERSIONS=1", "RELAYTEST_HOST_ONLY=secret")
	cmd.Stdout = stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestThePluginRunsInTheStandInsPlace: the plugin the checker starts
// writes on the stand-in's standard output, gets the host's handshake
// variables and none of its others, and its exit status and report reach
// the stand-in and the checker.
func TestThePluginRunsInTheStandInsPlace(t *testing.T) {
	r := listen(t, "exit")
	var stdout bytes.Buffer
	err := standIn(t, r, &stdout).Wait()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 7 {
		t.Errorf("the stand-in exited with %v, want the plugin's status 7", err)
	}
	if want := `cookie=cookie report-fd=3 leaked=""`; !strings.Contains(stdout.String(), want) {
		t.Errorf("the plugin printed %q, want %q", stdout.String(), want)
	}
	res := r.Close()
	if res.Plugins != 1 || res.Report.Steps != 3 || len(res.Problems) > 0 {
		t.Errorf("result: %d plugins, %d steps, problems %q; want 1 plugin, its 3 steps, no problem", res.Plugins, res.Report.Steps, res.Problems)
	}
}

// TestAStandInsEndKillsItsPlugin: when the host kills the stand-in, the
// checker kills the plugin, and keeps the report it had sent.
func TestAStandInsEndKillsItsPlugin(t *testing.T) {
	r := listen(t, "hang")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cmd := standIn(t, r, pw)
	pw.Close()
	pid := 0
	lines := bufio.NewScanner(pr)
	for pid == 0 && lines.Scan() {
		if after, ok := strings.CutPrefix(lines.Text(), "pid="); ok {
			pid, _ = strconv.Atoi(after)
		}
	}
	if pid == 0 {
		t.Fatalf("the plugin never said its pid: %v", lines.Err())
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("plugin %d outlived its stand-in", pid)
		}
	}
	if res := r.Close(); res.Plugins != 1 || res.Report.Steps != 3 {
		t.Errorf("result: %d plugins, %d steps; want 1 and the 3 steps it reported", res.Plugins, res.Report.Steps)
	}
}

// TestWhatIsNotAStandInIsRefused: what connects to the checker's socket
// and does not ask for a plugin as the plugin binary does starts no plugin
// and is a problem: a forged report, a request without descriptors, one
// asking for variables that are not the handshake's. A connection that
// sends nothing is nothing to judge.
func TestWhatIsNotAStandInIsRefused(t *testing.T) {
	forged, err := json.Marshal(hostcheck.Report{Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		send    func(c *net.UnixConn) error
		problem string
	}{
		{"a forged report", func(c *net.UnixConn) error { _, err := c.Write(forged); return err }, `began with "{"`},
		{"no descriptors", func(c *net.UnixConn) error { _, err := c.Write([]byte{0xb7, '{', '}', '\n'}); return err }, "passed 0 descriptors"},
		{"a variable of the host's own", func(c *net.UnixConn) error {
			if _, _, err := c.WriteMsgUnix([]byte{0xb7}, syscall.UnixRights(0, 1, 2), nil); err != nil {
				return err
			}
			_, err := c.Write([]byte(`{"env":["SKILLCATALOG_PLUGIN=x","LD_PRELOAD=/tmp/evil.so"]}` + "\n"))
			return err
		}, `"LD_PRELOAD=/tmp/evil.so" is not a go-plugin handshake variable`},
		{"nothing", func(c *net.UnixConn) error { return nil }, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := listen(t, "exit")
			c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: r.Path(), Net: "unix"})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.send(c); err != nil {
				t.Fatal(err)
			}
			_ = c.Close()
			res := r.Close()
			if res.Plugins != 0 {
				t.Errorf("%d plugins started", res.Plugins)
			}
			switch {
			case tt.problem == "" && len(res.Problems) > 0:
				t.Errorf("problems %q, want none", res.Problems)
			case tt.problem != "" && (len(res.Problems) != 1 || !strings.Contains(res.Problems[0], tt.problem)):
				t.Errorf("problems %q, want one saying %q", res.Problems, tt.problem)
			}
		})
	}
}
