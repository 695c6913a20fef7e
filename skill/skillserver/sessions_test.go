package skillserver_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// sessionServer serves the example skills over HTTP with opts.
func sessionServer(t *testing.T, opts skillserver.HTTPOptions) (*skillserver.Server, string) {
	t.Helper()
	s := skillserver.New(skillcatalog.ExampleSkills())
	h, err := s.HTTPHandler(&opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// post sends one JSON-RPC message of a 2025-11-25 client, in session id
// ("" for none), and returns the status, the session id the answer names
// and the body.
func post(t *testing.T, url, id, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id != "" {
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(data)
}

// openSession initializes a session and returns its id.
func openSession(t *testing.T, url string) string {
	t.Helper()
	id := initializeSession(t, url)
	if code, _, body := post(t, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d: %s", code, body)
	}
	return id
}

// initializeSession sends an initialize request alone, which opens a
// session on the server, and returns the session's id.
func initializeSession(t *testing.T, url string) string {
	t.Helper()
	code, id, body := post(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q: %s", code, id, body)
	}
	return id
}

// ping answers the HTTP status of a ping in session id, and the body.
func ping(t *testing.T, url, id string) (int, string) {
	t.Helper()
	code, _, body := post(t, url, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	return code, body
}

// liveSessions counts the sessions the MCP server holds.
func liveSessions(s *skillserver.Server) int {
	n := 0
	for range s.MCPServer().Sessions() {
		n++
	}
	return n
}

// eventually polls cond until it holds, failing after a generous bound (the
// bound only guards a hang; nothing is measured against it).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: never happened", what)
}

// openStream opens a session's standalone event stream, which stays open
// until the returned function is called.
func openStream(t *testing.T, url, id string) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(io.Discard, bufio.NewReader(resp.Body))
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			resp.Body.Close()
			<-done
		})
	}
	t.Cleanup(stop) // before the server closes, which waits for streams
	return stop
}

// Sessions that see no request for the idle timeout are closed: a flood of
// initialize requests leaves nothing held, and a request in an expired
// session gets the SDK's session-not-found answer.
func TestHTTPSessionsExpireWhenIdle(t *testing.T) {
	s, url := sessionServer(t, skillserver.HTTPOptions{SessionIdleTimeout: 50 * time.Millisecond, MaxSessions: 10000})
	// Initialize requests alone: a session may expire between an initialize
	// and the notification that would follow it on a slow machine, which
	// is what this test is about, not a failure.
	var ids []string
	for range 300 {
		ids = append(ids, initializeSession(t, url))
	}
	eventually(t, "every idle session closed", func() bool { return liveSessions(s) == 0 })
	for _, id := range []string{ids[0], ids[len(ids)-1]} {
		if code, body := ping(t, url, id); code != http.StatusNotFound || !strings.Contains(body, "session not found") {
			t.Errorf("ping in an expired session: %d %q, want 404 session not found", code, body)
		}
	}
}

// A session whose client keeps its event stream open is in use, however
// long it sends nothing; once the stream closes, it expires.
func TestHTTPSessionWithOpenStreamStays(t *testing.T) {
	// Long enough that a loaded machine opens the session and its stream
	// within one idle timeout.
	const idle = 250 * time.Millisecond
	s, url := sessionServer(t, skillserver.HTTPOptions{SessionIdleTimeout: idle})
	id := openSession(t, url)
	closeStream := openStream(t, url, id)
	time.Sleep(8 * idle)
	if code, body := ping(t, url, id); code != http.StatusOK {
		t.Fatalf("ping with the stream open: %d %q", code, body)
	}
	closeStream()
	eventually(t, "the session closed after its stream", func() bool { return liveSessions(s) == 0 })
}

// At most MaxSessions sessions are held: a new one closes the session idle
// the longest, and when every session is in use a new one is refused with
// 503 naming the bound.
func TestHTTPSessionsAreCapped(t *testing.T) {
	const max = 8
	s, url := sessionServer(t, skillserver.HTTPOptions{SessionIdleTimeout: time.Hour, MaxSessions: max})
	var ids []string
	for i := range 50 {
		ids = append(ids, openSession(t, url))
		if n := liveSessions(s); n > max {
			t.Fatalf("after %d sessions, %d are held, more than MaxSessions %d", i+1, n, max)
		}
	}
	for i, id := range ids {
		code, body := ping(t, url, id)
		if i < len(ids)-max && (code != http.StatusNotFound || !strings.Contains(body, "session not found")) {
			t.Errorf("session %d of %d, evicted: ping %d %q, want 404 session not found", i, len(ids), code, body)
		}
		if i >= len(ids)-max && code != http.StatusOK {
			t.Errorf("session %d of %d, among the newest %d: ping %d %q", i, len(ids), max, code, body)
		}
	}
	var closers []func()
	for _, id := range ids[len(ids)-max:] {
		closers = append(closers, openStream(t, url, id))
	}
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	code, _, body := post(t, url, "", init)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "MaxSessions") {
		t.Errorf("initialize with every session in use: %d %q, want 503 naming MaxSessions", code, body)
	}
	// Once one stream has closed (the server learns it after the client),
	// its session is the one a new session replaces.
	closers[0]()
	eventually(t, "a new session once a stream closed", func() bool {
		code, _, _ = post(t, url, "", init)
		return code == http.StatusOK
	})
	if code, _ := ping(t, url, ids[len(ids)-max]); code != http.StatusNotFound {
		t.Errorf("the session whose stream closed was not the one closed: ping %d", code)
	}
	for _, id := range ids[len(ids)-max+1:] {
		if code, body := ping(t, url, id); code != http.StatusOK {
			t.Errorf("a session with its stream open: ping %d %q", code, body)
		}
	}
}
