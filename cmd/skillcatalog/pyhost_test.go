package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

const pyHostDir = "../../testdata/pyhost"

// pythonHost returns a Python with gRPC and the reference Python host,
// skipping the test (failing it under CI) when that Python lacks gRPC.
// The Python is SKILLCATALOG_TEST_PYTHON, or Debian's /usr/bin/python3,
// where python3-grpcio, python3-grpc-tools and python3-protobuf install
// (another python3 on PATH may have none of them).
func pythonHost(t *testing.T) (string, string) {
	t.Helper()
	python := os.Getenv("SKILLCATALOG_TEST_PYTHON")
	if python == "" {
		python = "/usr/bin/python3"
	}
	if out, err := exec.Command(python, "-c", "import grpc, grpc_tools.protoc, google.protobuf").CombinedOutput(); err != nil {
		testneeds.Skip(t, python+" with grpcio, grpcio-tools and protobuf, for the reference Python host "+
			"(Debian: apt-get install python3-grpcio python3-grpc-tools python3-protobuf, as .ci/run does)",
			fmt.Errorf("%w: %s", err, strings.TrimSpace(string(out))))
	}
	script, err := filepath.Abs(filepath.Join(pyHostDir, "host.py"))
	if err != nil {
		t.Fatal(err)
	}
	return python, script
}

// TestHostcheckPassesThePythonHost: the reference Python host, which
// leaves skill discovery to the plugin and serves only its session log,
// passes the host checker, every check it can exercise exercised.
func TestHostcheckPassesThePythonHost(t *testing.T) {
	python, script := pythonHost(t)
	bin := buildCommand(t)
	code, res, stderr := runHostcheck(t, bin, []string{"PYHOST_SESSION=checked-session"}, python, script, "{plugin}")
	if code != 0 || res.Report.Failed() || len(res.Problems) > 0 {
		t.Fatalf("hostcheck exited %d: failed %v, problems %v, violations %+v\n%s", code, failedChecks(res.Report), res.Problems, res.Report.Violations, stderr)
	}
	requireExercised(t, res.Report, append(coreChecks, hostcheck.CheckResourceRefusal)...)
	// Five steps, and the empty ones it makes until the plugin sees the
	// skill it added on disk.
	if res.Report.Steps < 5 {
		t.Errorf("steps = %d, want at least the Python host's 5", res.Report.Steps)
	}
}

// TestPythonHostSession runs the Python host's scripted session against
// the plugin, in the session named on its command line: it prints each
// step's outcome and checks every answer, exiting with status 1 on the
// first that is not what it expects. The model's final answer of a turn,
// which no step carries, is in the transcript the host keeps.
func TestPythonHostSession(t *testing.T) {
	python, script := pythonHost(t)
	bin := buildCommand(t)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(python, script, bin, "review-7")
	cmd.Env = append(os.Environ(), "PYHOST_SESSION=not-this-one")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python host: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		"review-7 turn 1 step 1: OUTCOME_INITIAL, 2 messages appended\n",
		"skill pdf-forms: <skill_content name=\"pdf-forms\">\n",
		"skill_resource fields.md: 22 bytes\n",
		"review-7 turn 1 step 2: OUTCOME_UNCHANGED, 2 messages appended\n",
		"OUTCOME_REPLACEMENT, 1 messages appended\n",
		"review-7 turn 2 step 1: OUTCOME_UNCHANGED, 1 messages appended\n",
		"review-7-2 turn 1 step 1: OUTCOME_INITIAL, 2 messages appended\n",
		"review-7 transcript: ",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the session printed no %q:\n%s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String(), "not-this-one") {
		t.Errorf("the session named on the command line did not take precedence over PYHOST_SESSION:\n%s", stdout.String())
	}
	// A plugin that never answers the handshake: the host says so and fails.
	out, err := exec.Command(python, script, "/bin/true").CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !strings.Contains(string(out), "python host: handshake line") {
		t.Errorf("a host whose plugin never shook hands: %v\n%s\nwant exit status 1 naming the handshake", err, out)
	}
}
