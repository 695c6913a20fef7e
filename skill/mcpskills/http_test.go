package mcpskills

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

const testToken = "Bearer tok-3f9c2a7e51d84b06"

func newHTTPServer(t *testing.T) (*mcpfake.Server, *mcpfake.HTTPServer) {
	t.Helper()
	s := mcpfake.New()
	s.SetSkill("deploy", "Deploy.", "---\nname: deploy\n---\n# Deploy\n")
	s.SetSkill("audit", "Audit.", "# Audit\n")
	s.RequireHeader("Authorization", testToken)
	h, err := s.ListenHTTP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Stop() })
	return s, h
}

func newHTTPProvider(t *testing.T, cfg Options) *Provider {
	t.Helper()
	p, err := New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// checkNoSecrets fails if msg holds any of the secrets or is unbounded.
func checkNoSecrets(t *testing.T, msg string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(msg, s) {
			t.Errorf("message contains the secret %q: %s", s, msg)
		}
	}
	if len(msg) > MaxErrorBytes {
		t.Errorf("message of %d bytes exceeds %d: %s", len(msg), MaxErrorBytes, msg)
	}
}

func TestHTTPOneReadPerResourcePerSession(t *testing.T) {
	s, h := newHTTPServer(t)
	p := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}, IndexMaxAge: time.Hour})
	body := mcpfake.SkillURI("deploy")

	if obs := listSkills(t, p, "s1"); len(obs.Skills) != 2 {
		t.Fatalf("List = %+v", obs)
	}
	if got := load(t, p, "s1", "deploy").Content; got != "# Deploy" {
		t.Errorf("content %q", got)
	}
	load(t, p, "s1", "deploy")
	wantReads(t, s, body, 1)
	load(t, p, "s2", "deploy")
	load(t, p, "s2", "deploy")
	wantReads(t, s, body, 2)
	wantReads(t, s, IndexURI, 2)
}

func TestHTTPWrongCredentialIsIncompleteAndRedacted(t *testing.T) {
	_, h := newHTTPServer(t)
	const secret = "wrong-9b1d7c44e0a2"
	u, err := url.Parse(h.URL())
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("alice", "pw-5e8f0c21")
	u.RawQuery = "access_token=qt-71c3aa09d5"
	var logged bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p := newHTTPProvider(t, Options{URL: u.String(), Headers: map[string]string{"Authorization": "Bearer " + secret, "X-Api-Key": "key-4412ab90ff"}, Logger: logger})
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err == nil || obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("List with a wrong credential = %+v, %v; want incomplete with an error", obs, err)
	}
	secrets := []string{secret, "pw-5e8f0c21", "qt-71c3aa09d5", "key-4412ab90ff"}
	checkNoSecrets(t, err.Error(), secrets...)
	if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), "listing failed") {
		t.Errorf("the failed listing was not logged as a warning:\n%s", logged.String())
	}
	checkNoSecrets(t, logged.String(), secrets...)
	for _, d := range p.Diagnostics() {
		checkNoSecrets(t, d, secrets...)
	}
	if _, _, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "deploy"}); err == nil {
		t.Fatal("Load with a wrong credential succeeded")
	} else {
		checkNoSecrets(t, err.Error(), secrets...)
	}
}

func TestHTTPServerEchoingCredentialIsRedacted(t *testing.T) {
	s, h := newHTTPServer(t)
	p := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}})
	// A server that quotes the credential back in its error message, with
	// padding that would push the message past the bound.
	s.SetFailure(IndexURI, "token "+testToken+" rejected; raw tok-3f9c2a7e51d84b06\n"+strings.Repeat("detail ", 100))
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err == nil || obs.Complete {
		t.Fatalf("List = %+v, %v; want incomplete with an error", obs, err)
	}
	checkNoSecrets(t, err.Error(), "tok-3f9c2a7e51d84b06")
	if !strings.Contains(err.Error(), "[redacted]") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q", err)
	}
}

func TestHTTPServerDownThenRestarted(t *testing.T) {
	s, h := newHTTPServer(t)
	p := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}, IndexMaxAge: time.Nanosecond})
	if obs := listSkills(t, p, "s1"); len(obs.Skills) != 2 {
		t.Fatalf("List = %+v", obs)
	}

	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
		if err == nil || obs.Complete || len(obs.Skills) != 0 {
			t.Fatalf("List with the server down = %+v, %v; want incomplete with an error", obs, err)
		}
		checkNoSecrets(t, err.Error(), "tok-3f9c2a7e51d84b06")
	}

	// Back, with one skill fewer and fresh HTTP sessions.
	s.RemoveSkill("audit")
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	obs := listSkills(t, p, "s1")
	if len(obs.Skills) != 1 || obs.Skills[0].Name != "deploy" {
		t.Fatalf("List after restart = %+v", obs)
	}
}

func TestHTTPRestartBetweenCalls(t *testing.T) {
	_, h := newHTTPServer(t)
	p := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}})
	listSkills(t, p, "s1")
	// The server restarts between two calls and forgets its sessions: the
	// next call reconnects and succeeds.
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	load(t, p, "s1", "deploy")
}

func TestHTTPCancellation(t *testing.T) {
	s, h := newHTTPServer(t)
	p := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}})
	listSkills(t, p, "s1")
	testCancellation(t, p, s)
}

func TestHTTPListChangedInvalidates(t *testing.T) {
	s, h := newHTTPServer(t)
	p := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}, IndexMaxAge: time.Hour})
	invalidated := make(chan struct{}, 16)
	p.SetInvalidate(func() { invalidated <- struct{}{} })
	listSkills(t, p, "s1")
	s.RemoveSkill("audit")
	awaitInvalidation(t, invalidated, s.ListChanged)
	if obs := listSkills(t, p, "s1"); len(obs.Skills) != 1 {
		t.Fatalf("List after list_changed = %+v", obs)
	}
	wantReads(t, s, IndexURI, 2)
}

type recordingTransport struct{ got []http.Header }

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.got = append(r.got, req.Header.Clone())
	return nil, errors.New("recorded")
}

func TestHeadersOnlyToEndpointOrigin(t *testing.T) {
	rec := &recordingTransport{}
	ht := &headerTransport{base: rec, scheme: "https", host: "skills.example:8443", headers: http.Header{"Authorization": {testToken}}}
	for _, target := range []string{
		"https://skills.example:8443/mcp",
		"https://skills.example:8443/other",
		"https://evil.example/mcp",
		"http://skills.example:8443/mcp",
		"https://skills.example/mcp",
	} {
		req, err := http.NewRequest(http.MethodPost, target, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = ht.RoundTrip(req)
		if req.Header.Get("Authorization") != "" {
			t.Errorf("%s: the caller's request was modified", target)
		}
	}
	want := []bool{true, true, false, false, false}
	for i, h := range rec.got {
		if got := h.Get("Authorization") == testToken; got != want[i] {
			t.Errorf("request %d: credential sent = %v, want %v", i, got, want[i])
		}
	}
}
