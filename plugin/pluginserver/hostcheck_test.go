//go:build unix

package pluginserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestTheReportGoesToTheCheckersDescriptor: with hostcheck.ReportFDEnv
// naming a descriptor, the plugin checks the host and writes its report
// there, one JSON line per change, the newest last, each before the call
// that changed it returns; a value that is not a descriptor above standard
// error checks nothing (standard output carries the handshake).
func TestTheReportGoesToTheCheckersDescriptor(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The plugin owns the descriptor it is given: give it a copy.
	fd, err := syscall.Dup(int(w.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(hostcheck.ReportFDEnv, strconv.Itoa(fd))
	svc := checkedIfAsked(plugin.New(nil), logger)
	// The report is written before the call returns: next reads what the
	// pipe holds already, without waiting for more.
	raw, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var pending []byte
	buf := make([]byte, 64<<10)
	next := func() hostcheck.Report {
		t.Helper()
		for bytes.IndexByte(pending, '\n') < 0 {
			var n int
			var readErr error
			if err := raw.Read(func(fd uintptr) bool {
				n, readErr = syscall.Read(int(fd), buf)
				return true // do not wait for the descriptor to be readable
			}); err != nil {
				t.Fatal(err)
			}
			if n <= 0 {
				t.Fatalf("no report line written by the time the call returned (%d bytes of a line pending, read: %v)", len(pending), readErr)
			}
			pending = append(pending, buf[:n]...)
		}
		line, rest, _ := bytes.Cut(pending, []byte("\n"))
		pending = rest
		var rep hostcheck.Report
		if err := json.Unmarshal(line, &rep); err != nil {
			t.Fatalf("report line %q: %v", line, err)
		}
		return rep
	}
	if rep := next(); rep.Steps != 0 || len(rep.Checks) == 0 {
		t.Errorf("first report %+v, want every check, no step yet", rep)
	}
	host := contracttest.NewHost()
	host.SetSkill(skill.Definition{Summary: skill.Summary{Name: "alpha", Description: "Does alpha.", Invocation: skill.DefaultPolicy(), Provider: "runtime"}, Content: "Do alpha."})
	ctx := context.Background()
	resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Config: "{}", Scope: "global"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "tooldef-1"}}); err != nil {
		t.Fatal(err)
	}
	if rep := next(); rep.Steps != 0 {
		t.Errorf("report after binding %+v, want no step", rep)
	}
	head := host.Head("s1")
	if _, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1", Head: &head, SnapshotToken: host.Token()}); err != nil {
		t.Fatal(err)
	}
	if rep := next(); rep.Steps != 1 || rep.Failed() {
		t.Errorf("report after a step %+v, want one step, nothing failed", rep)
	}

	for _, v := range []string{"1", "2", "-4", "three"} {
		t.Setenv(hostcheck.ReportFDEnv, v)
		engine := plugin.New(nil)
		if got := checkedIfAsked(engine, logger); got != contract.Service(engine) {
			t.Errorf("%s=%s: served %T, want the engine unchecked", hostcheck.ReportFDEnv, v, got)
		}
	}
}

// reportChildEnv marks the process TestTheFirstExtraDescriptorIsChecked
// starts: the test binary itself, with the report's pipe as its first
// extra descriptor, as the host checker starts the plugin.
const reportChildEnv = "SKILLCATALOG_PLUGINSERVER_TEST_REPORT_CHILD"

// TestTheFirstExtraDescriptorIsChecked: descriptor 3, the first a parent
// hands a child beyond the standard streams, is one above standard error:
// a plugin started with the report's pipe there checks the host and writes
// its first report to it.
func TestTheFirstExtraDescriptorIsChecked(t *testing.T) {
	if os.Getenv(reportChildEnv) != "" {
		checkedIfAsked(plugin.New(nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTheFirstExtraDescriptorIsChecked$")
	cmd.Env = append(os.Environ(), reportChildEnv+"=1", hostcheck.ReportFDEnv+"=3")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close() // the child holds the write end now: EOF when it exits
	line, err := bufio.NewReader(r).ReadBytes('\n')
	if waitErr := cmd.Wait(); waitErr != nil {
		t.Fatalf("the child failed: %v", waitErr)
	}
	var rep hostcheck.Report
	if err != nil || json.Unmarshal(line, &rep) != nil || len(rep.Checks) == 0 {
		t.Fatalf("read %q from descriptor 3 (%v), want the first report", line, err)
	}
}
