package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

const nodeHostDir = "../../testdata/nodehost"

// runHostcheck runs the built command's hostcheck on a host command and
// returns its exit status and JSON result.
func runHostcheck(t *testing.T, bin string, env []string, host ...string) (int, hostcheckResult, string) {
	t.Helper()
	return runHostcheckArgs(t, bin, env, append([]string{"--"}, host...)...)
}

// runHostcheckArgs runs hostcheck -json with args, flags and then the
// host command after --.
func runHostcheckArgs(t *testing.T, bin string, env []string, args ...string) (int, hostcheckResult, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"hostcheck", "-json"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var res hostcheckResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("hostcheck -json printed %q: %v (stderr %s)", stdout.String(), err, stderr.String())
	}
	return code, res, stderr.String()
}

// failedChecks names the checks of a report that failed.
func failedChecks(r hostcheck.Report) []string {
	var out []string
	for _, c := range r.Checks {
		if c.Failed > 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

// exercised says whether each of the named checks held at least once.
func requireExercised(t *testing.T, r hostcheck.Report, names ...string) {
	t.Helper()
	for _, c := range r.Checks {
		for _, n := range names {
			if c.Name == n && c.Passed == 0 {
				t.Errorf("check %s never ran", n)
			}
		}
	}
}

// The checks every host that runs a session with a catalog and a skill load
// must have exercised.
var coreChecks = []string{
	hostcheck.CheckSnapshotStable, hostcheck.CheckSnapshotSorted, hostcheck.CheckSnapshotToken,
	hostcheck.CheckSnapshotContent, hostcheck.CheckSnapshotNotModified, hostcheck.CheckEventsPages,
	hostcheck.CheckEventsHead, hostcheck.CheckEventsRecent, hostcheck.CheckEventsSources, hostcheck.CheckToolIdentity,
	hostcheck.CheckToolIdentityStable, hostcheck.CheckGetSkill, hostcheck.CheckGetSkillUnknown,
}

func TestHostcheckPassesTheGoHostSDK(t *testing.T) {
	bin := buildCommand(t)
	host := filepath.Join(t.TempDir(), "example-host")
	if out, err := exec.Command("go", "build", "-o", host, "../example-host").CombinedOutput(); err != nil {
		t.Fatalf("go build example-host: %v\n%s", err, out)
	}
	code, res, stderr := runHostcheck(t, bin, nil, host, "-plugin", "{plugin}", "-skills", "../../testdata/skills")
	if code != 0 || res.Report.Failed() || len(res.Problems) > 0 {
		t.Fatalf("hostcheck exited %d: failed %v, problems %v, violations %+v\n%s", code, failedChecks(res.Report), res.Problems, res.Report.Violations, stderr)
	}
	requireExercised(t, res.Report, append(coreChecks, hostcheck.CheckSnapshotHint, hostcheck.CheckResourceRefusal, hostcheck.CheckGetSkillWithheld)...)
}

// nodeHost returns the node binary and the reference Node.js host, skipping
// the test (failing it under CI) when they are not installed.
func nodeHost(t *testing.T) (string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(nodeHostDir, "node_modules", "@grpc", "grpc-js"))
	}
	if err != nil {
		testneeds.Skip(t, "Node.js and `npm ci --prefix testdata/nodehost` (the reference Node.js host)", err)
	}
	script, err := filepath.Abs(filepath.Join(nodeHostDir, "host.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return node, script
}

func TestHostcheckPassesTheNodeHost(t *testing.T) {
	node, script := nodeHost(t)
	bin := buildCommand(t)
	code, res, stderr := runHostcheck(t, bin, nil, node, script, "{plugin}")
	if code != 0 || res.Report.Failed() || len(res.Problems) > 0 {
		t.Fatalf("hostcheck exited %d: failed %v, problems %v, violations %+v\n%s", code, failedChecks(res.Report), res.Problems, res.Report.Violations, stderr)
	}
	requireExercised(t, res.Report, append(coreChecks, hostcheck.CheckSnapshotHint, hostcheck.CheckGetSkillWithheld)...)
	if res.Report.Steps != 5 {
		t.Errorf("steps = %d, want the Node host's 5", res.Report.Steps)
	}
}

func TestHostcheckCatchesBrokenNodeHosts(t *testing.T) {
	node, script := nodeHost(t)
	bin := buildCommand(t)
	for _, tt := range []struct{ mode, check, detail string }{
		{"token", hostcheck.CheckSnapshotContent, ""},
		{"recent", hostcheck.CheckEventsRecent, ""},
		{"pages", hostcheck.CheckEventsPages, ""},
		// The plugin's messages stored without their source_json: the plugin
		// publishes its whole catalog again at every step.
		{"sources", hostcheck.CheckEventsSources, "store every message of a step's answer with its source_json"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			code, res, stderr := runHostcheck(t, bin, []string{"HOSTCHECK_BREAK=" + tt.mode}, node, script, "{plugin}")
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if !strings.Contains(strings.Join(failedChecks(res.Report), " "), tt.check) {
				t.Errorf("failed checks %v, want %s among them", failedChecks(res.Report), tt.check)
			}
			if tt.detail != "" && !slices.ContainsFunc(res.Report.Violations, func(v hostcheck.Violation) bool {
				return v.Check == tt.check && strings.Contains(v.Detail, tt.detail)
			}) {
				t.Errorf("violations %+v, want one of %s saying %q", res.Report.Violations, tt.check, tt.detail)
			}
			if tt.mode == "sources" && strings.Count(stderr, "OUTCOME_INITIAL") < 2 {
				t.Errorf("the broken host did not make the plugin publish again, so the test proves nothing:\n%s", stderr)
			}
		})
	}
}

func TestHostcheckOfAHostThatNeverLoadsThePlugin(t *testing.T) {
	bin := buildCommand(t)
	code, res, _ := runHostcheck(t, bin, nil, "true")
	if code != 1 || len(res.Problems) == 0 || !strings.Contains(res.Problems[0], "never started the plugin") {
		t.Errorf("exit %d, problems %v: want 1 and a problem saying the plugin never ran", code, res.Problems)
	}
	code, res, _ = runHostcheck(t, bin, nil, "false")
	if code != 1 || res.HostExit != 1 {
		t.Errorf("a failing host: exit %d, host exit %d; want 1 and 1", code, res.HostExit)
	}
}

// buildTestdata builds a program of testdata into a temporary directory.
func buildTestdata(t *testing.T, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/"+name).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, out)
	}
	return bin
}

// TestHostcheckRefusesAForgedReport: a host that never loads the plugin
// and writes a passing report through every channel it was handed fails.
func TestHostcheckRefusesAForgedReport(t *testing.T) {
	bin := buildCommand(t)
	forger := buildTestdata(t, "forginghost")
	code, res, stderr := runHostcheck(t, bin, nil, forger)
	if code != 1 || res.Report.Steps != 0 || len(res.Problems) == 0 {
		t.Fatalf("a forging host: exit %d, %d steps, problems %v; want exit 1, no step and a problem\n%s", code, res.Report.Steps, res.Problems, stderr)
	}
	if !strings.Contains(stderr, "forginghost: forging a report through") {
		t.Errorf("the forger was handed no channel to forge through, so the test proves nothing:\n%s", stderr)
	}
	cmd := exec.Command(bin, "hostcheck", "--", forger)
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || strings.Contains(string(out), "PASS") {
		t.Errorf("a forging host: %v, printed\n%s\nwant exit status 1 and no PASS", err, out)
	}
}

func TestHostcheckRefusesABadTimeout(t *testing.T) {
	for _, tt := range []struct{ flag, want string }{{"0s", "-timeout 0s: want more than 0"}, {"-1m", "-timeout -1m0s: want more than 0"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"hostcheck", "-timeout", tt.flag, "--", "true"}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("-timeout %s: exit %d, stderr %q; want 2 and %q", tt.flag, code, stderr.String(), tt.want)
		}
	}
}

// TestHostcheckPassesTheNodeHostOverMutualTLS: the reference Node.js host,
// with a certificate made by openssl as proto/HOSTS.md's recipe says,
// loads the plugin over mutual TLS (it refuses a handshake line without
// the plugin's certificate) and passes.
func TestHostcheckPassesTheNodeHostOverMutualTLS(t *testing.T) {
	node, script := nodeHost(t)
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		testneeds.Skip(t, "the openssl command (the certificate recipe; .ci/run installs it)", err)
	}
	dir := t.TempDir()
	cert, key := filepath.Join(dir, "host.crt"), filepath.Join(dir, "host.key")
	gen := exec.Command(openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
		"-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
		"-addext", "subjectAltName=DNS:localhost", "-addext", "basicConstraints=critical,CA:TRUE",
		"-addext", "keyUsage=critical,digitalSignature,keyEncipherment,keyAgreement,keyCertSign",
		"-addext", "extendedKeyUsage=clientAuth,serverAuth")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("openssl req: %v\n%s", err, out)
	}
	bin := buildCommand(t)
	code, res, stderr := runHostcheck(t, bin, []string{"NODEHOST_CERT=" + cert, "NODEHOST_KEY=" + key}, node, script, "{plugin}")
	if code != 0 || res.Report.Failed() || len(res.Problems) > 0 {
		t.Fatalf("hostcheck exited %d: failed %v, problems %v, violations %+v\n%s", code, failedChecks(res.Report), res.Problems, res.Report.Violations, stderr)
	}
	if res.Report.Steps != 5 {
		t.Errorf("steps = %d, want the Node host's 5", res.Report.Steps)
	}
}
