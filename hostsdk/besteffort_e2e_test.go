package hostsdk_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// closedLoopbackAddr returns a loopback address where nothing listens: a
// port the kernel just handed out and that was closed again.
func closedLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// serveSkillsAt serves the repository's example remote skills with the
// in-repo MCP skill server (what `skillcatalog serve-mcp` serves) on addr,
// and returns a function that stops it.
func serveSkillsAt(t *testing.T, addr string) (stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	mux := http.NewServeMux()
	handler, err := skillserver.NewDir(filepath.Join("..", "testdata", "remote-skills")).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", handler)
	srv := &http.Server{Handler: mux}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	var stopped bool
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		if err := srv.Close(); err != nil {
			t.Errorf("stop the skill server: %v", err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("skill server: %v", err)
		}
	}
	t.Cleanup(stop)
	return stop
}

// localSkillRoot writes one Agent Skills skill to a fresh root.
func localSkillRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "release-notes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: release-notes\ndescription: Write release notes from merged changes.\n---\nGroup the changes by area.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// reasonsWith returns the details of a step's reasons of code.
func reasonsWith(res hostsdk.StepResult, code contract.ReasonCode) []string {
	var out []string
	for _, r := range res.Reasons {
		if r.Code == code {
			out = append(out, r.Detail)
		}
	}
	return out
}

// TestUnreachableServerDoesNotWithholdLocalSkills drives the real plugin
// binary over a registry holding a strict local skill root and the MCP
// provider (best-effort by default) pointed at a loopback port where
// nothing listens. The first step publishes the local skill, and its
// reasons say the server was left out; when the in-repo skill server comes
// up on that port, one replacement adds its skills; when it goes down
// again its last-good listing is kept, so nothing is republished while it
// flaps.
func TestUnreachableServerDoesNotWithholdLocalSkills(t *testing.T) {
	addr := closedLoopbackAddr(t)
	e := newEnv(t, hostsdk.Options{})
	local, err := agentskills.New(&agentskills.Options{HomeDir: t.TempDir(), ExtraRoots: []string{localSkillRoot(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	remote, err := mcpskills.New(&mcpskills.Options{
		URL:            "http://" + addr + "/mcp",
		Label:          "docs",
		RequestTimeout: 5 * time.Second,
		IndexMaxAge:    time.Nanosecond, // list the server again at every step
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { remote.Close() })
	e.reg.AddProvider(tools.GlobalScope, local, nil)
	e.reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Rank: -1, Label: "docs"})
	e.mount(tools.GlobalScope)

	// Down: the local skill is published at once, the server left out.
	res := e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeInitial, "release-notes")
	degraded := reasonsWith(res, contract.ReasonProviderDegraded)
	if len(degraded) != 1 || !strings.Contains(degraded[0], `provider docs in scope "global"`) ||
		!strings.Contains(degraded[0], "connection refused") || !strings.Contains(degraded[0], "left out") {
		t.Fatalf("reasons %+v, want one %s naming the server, its error and that it is left out", res.Reasons, contract.ReasonProviderDegraded)
	}
	// Still down: nothing to add, and the step says why again.
	res = e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeUnchanged)
	if len(reasonsWith(res, contract.ReasonProviderDegraded)) != 1 {
		t.Fatalf("second step's reasons %+v, want the server still reported", res.Reasons)
	}

	// Up: one replacement adds the remote skills.
	stop := serveSkillsAt(t, addr)
	res = e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeReplacement, "data-export", "incident-review", "refunds", "release-notes")
	if d := reasonsWith(res, contract.ReasonProviderDegraded); d != nil {
		t.Errorf("the server is up, yet the step reports %q", d)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)

	// Down again: its last-good listing is kept, nothing is republished.
	stop()
	res = e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeUnchanged)
	if d := reasonsWith(res, contract.ReasonProviderDegraded); len(d) != 1 || !strings.Contains(d[0], "last-good listing of 3 skills kept") {
		t.Errorf("reasons %+v, want the server's last-good listing reported as kept", res.Reasons)
	}
	// Up again with the same skills: still nothing to publish.
	serveSkillsAt(t, addr)
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)

	// Exactly two catalog messages over six steps: the initial one and the
	// replacement that added the server's skills.
	log, err := e.store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	page, err := log.ReadBackward(context.Background(), 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(page.Events); n != 2 {
		t.Fatalf("session log holds %d events, want the initial catalog and one replacement", n)
	}
	// A new session while the server is up sees every skill at once.
	got, _ := catalog(e.step("s2", "agent:a"))
	if want := []string{"data-export", "incident-review", "refunds", "release-notes"}; !slices.Equal(got, want) {
		t.Errorf("a new session's catalog %v, want %v", got, want)
	}
}

// TestDegradedProviderIsLoggedAsTrouble: through the plugin binary, a
// best-effort provider that cannot list leaves the step publishing the
// other skills, with a provider-degraded reason that the host logs at WARN
// when the reasons change, and not again while they stay; its recovery is
// logged at INFO.
func TestDegradedProviderIsLoggedAsTrouble(t *testing.T) {
	r := newReasonsHost(t)
	if err := r.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "A."}); err != nil {
		t.Fatal(err)
	}
	failing := skilltest.New(nil)
	failing.SetSkills(skilltest.Skill{Summary: skill.Summary{Name: "remote-one", Description: "R.", Invocation: skill.DefaultPolicy()}})
	failing.SetListError(errors.New("skills server unreachable: connection refused"))
	r.reg.AddProvider(tools.GlobalScope, failing, &skills.ProviderOptions{Label: "docs", Availability: skills.BestEffort})
	step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
	want := hostsdk.Reason{Code: contract.ReasonProviderDegraded,
		Detail: `best-effort provider docs in scope "global": skills server unreachable: connection refused; left out until it lists`}
	for i, outcome := range []hostsdk.Outcome{hostsdk.OutcomeInitial, hostsdk.OutcomeUnchanged, hostsdk.OutcomeUnchanged} {
		res, err := runStep(context.Background(), r.host, step)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != outcome || !slices.Contains(res.Reasons, want) {
			t.Fatalf("step %d: outcome %s, reasons %+v; want %s with %+v", i+1, res.Outcome, res.Reasons, outcome, want)
		}
	}
	// The first step's reasons, then the second's (current, not
	// published-initial); the third's are the second's.
	warns := r.changes("WARN")
	if len(warns) != 2 || !strings.Contains(warns[1], "provider-degraded: best-effort provider docs") {
		t.Fatalf("WARN lines %q, want two naming the degraded provider", warns)
	}
	failing.SetListError(nil)
	res, err := runStep(context.Background(), r.host, step)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := catalog(res); res.Outcome != hostsdk.OutcomeReplacement || !slices.Equal(got, []string{"alpha", "remote-one"}) {
		t.Fatalf("after recovery: outcome %s listing %v", res.Outcome, got)
	}
	if infos := r.changes("INFO"); len(infos) != 1 || !strings.Contains(infos[0], "outcome=replacement") {
		t.Errorf("after recovery: INFO lines %q, want one for the replacement", infos)
	}
}
