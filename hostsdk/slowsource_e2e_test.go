package hostsdk_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// slowStepTimeout is the step deadline of the slow-source tests: short, so
// that a step waiting for a slow source to the end would fail quickly, and
// long enough for the plugin's round trips on a busy machine.
const slowStepTimeout = 6 * time.Second

// stillListing is the error a best-effort source that has not answered
// within its share of a snapshot's time is reported with.
const stillListing = "skills: no listing within its share of the caller's time; the listing goes on in the background"

// slowSourceEnv is a host over the real plugin binary with a strict local
// skill root and one best-effort remote source.
func slowSourceEnv(t *testing.T, remote skills.Provider) *env {
	t.Helper()
	e := newEnv(t, hostsdk.Options{PreStepTimeout: slowStepTimeout})
	local, err := agentskills.New(&agentskills.Options{HomeDir: t.TempDir(), ExtraRoots: []string{localSkillRoot(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	e.reg.AddProvider(tools.GlobalScope, local, nil)
	e.reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Rank: -1, Label: "docs"})
	e.mount(tools.GlobalScope)
	return e
}

// expectSlowSourceDegraded checks that a step published or kept the local
// skill and reported the remote source as still listing.
func expectSlowSourceDegraded(t *testing.T, res hostsdk.StepResult, outcome hostsdk.Outcome, kept string) {
	t.Helper()
	if outcome == hostsdk.OutcomeInitial {
		expect(t, res, outcome, "release-notes")
	} else {
		expect(t, res, outcome)
	}
	d := reasonsWith(res, contract.ReasonProviderDegraded)
	if len(d) != 1 || !strings.Contains(d[0], `best-effort provider docs in scope "global": `+stillListing) ||
		!strings.Contains(d[0], kept) {
		t.Fatalf("reasons %+v, want one %s saying the source is still listing and %q", res.Reasons, contract.ReasonProviderDegraded, kept)
	}
}

// tricklingIndex answers an index request with its headers at once and
// then one byte of body a second until the client gives up. It reports
// each request on requests.
func tricklingIndex(requests chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case requests <- struct{}{}:
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}
}

// TestTricklingSiteDoesNotFailTheStep: a website that answers its index
// with headers at once and then a byte a second, with the provider's
// request timeout (30 s by default) longer than the step's deadline. Every
// step publishes, or keeps, the local skill within the step's deadline,
// and says the site is still listing (provider-degraded). A later step
// does not wait for the same read again.
func TestTricklingSiteDoesNotFailTheStep(t *testing.T) {
	requests := make(chan struct{}, 16)
	srv := httptest.NewServer(tricklingIndex(requests))
	t.Cleanup(srv.Close)
	web, err := webskills.New(&webskills.Options{URL: srv.URL, Label: "docs", AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { web.Close() })
	e := slowSourceEnv(t, web)

	expectSlowSourceDegraded(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "left out until it lists")
	expectSlowSourceDegraded(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged, "left out until it lists")
	// Another session joins the read in flight.
	expectSlowSourceDegraded(t, e.step("s2", "agent:a"), hostsdk.OutcomeInitial, "left out until it lists")
	if n := len(requests); n != 1 {
		t.Errorf("the site was asked %d times for its index, want once: the read in flight is shared", n)
	}
}

// TestSlowSiteAnswersLater: a site whose index takes longer than a step's
// share for a best-effort source, but not longer than the provider's own
// request timeout. The first step publishes the local skill without it;
// the read goes on after the step, and a later step publishes the site's
// skills, read by that same request.
func TestSlowSiteAnswersLater(t *testing.T) {
	release := make(chan struct{})
	var served sync.WaitGroup
	var mu sync.Mutex
	reads := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/agent-skills/index.json", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reads++
		mu.Unlock()
		served.Add(1)
		defer served.Done()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=300")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-release
		_ = json.NewEncoder(w).Encode(map[string]any{
			"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
			"skills": []map[string]string{{
				"name": "pdf", "type": "skill-md", "description": "Read PDF files.", "url": "pdf/SKILL.md",
				"digest": "sha256:" + strings.Repeat("0", 64),
			}},
		})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var once sync.Once
	answer := func() { once.Do(func() { close(release) }) }
	t.Cleanup(answer) // before the server closes, which waits for the handler
	web, err := webskills.New(&webskills.Options{URL: srv.URL, Label: "docs", AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { web.Close() })
	e := slowSourceEnv(t, web)

	expectSlowSourceDegraded(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "left out until it lists")
	answer()
	served.Wait()
	// The read ends after the handler returns; a step that comes before
	// the provider has taken it in still finds it in flight.
	var res hostsdk.StepResult
	for range 50 {
		if res = e.step("s1", "agent:a"); res.Outcome != hostsdk.OutcomeUnchanged {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	expect(t, res, hostsdk.OutcomeReplacement, "pdf", "release-notes")
	// The next step lists the site at once, from what that read returned.
	res = e.step("s1", "agent:a")
	expect(t, res, hostsdk.OutcomeUnchanged)
	if d := reasonsWith(res, contract.ReasonProviderDegraded); d != nil {
		t.Errorf("the site answered, yet the step reports %q", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if reads != 1 {
		t.Errorf("the site was read %d times, want once: the read the first step left goes on", reads)
	}
}

// silentListener accepts connections and never answers on them, as a
// server that hangs would.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}

// TestSilentMCPServerDoesNotFailTheStep: an MCP server (streamable HTTP)
// that accepts connections and never answers, with the provider's request
// timeout (30 s by default) longer than the step's deadline. Each step
// publishes, or keeps, the local skill with a provider-degraded reason.
func TestSilentMCPServerDoesNotFailTheStep(t *testing.T) {
	addr := silentListener(t)
	remote, err := mcpskills.New(&mcpskills.Options{URL: "http://" + addr + "/mcp", Label: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { remote.Close() })
	e := slowSourceEnv(t, remote)

	expectSlowSourceDegraded(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "left out until it lists")
	expectSlowSourceDegraded(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged, "left out until it lists")
	got, _ := catalog(e.step("s2", "agent:a"))
	if !slices.Equal(got, []string{"release-notes"}) {
		t.Errorf("a new session's catalog %v, want the local skill", got)
	}
}
