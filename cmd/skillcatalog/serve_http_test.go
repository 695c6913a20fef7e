//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// closedByServer reads conn until the server closes it, failing if it has
// not after a generous bound (which only guards a hang).
func closedByServer(t *testing.T, conn net.Conn, what string) {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("%s: the server kept the connection open", what)
	}
}

// serve-mcp -http bounds a request body and an idle connection in time,
// and neither bound cuts off an event stream.
func TestServeMCPHTTPTimeouts(t *testing.T) {
	bin := buildCommand(t)
	t.Run("dribbled body", func(t *testing.T) { testDribbledBody(t, bin) })
	t.Run("idle connection", func(t *testing.T) { testIdleConnection(t, bin) })
	t.Run("event stream", func(t *testing.T) { testEventStreamOutlivesTimeouts(t, bin) })
}

// startAt starts serve-mcp with args and returns its host:port.
func startAt(t *testing.T, bin string, args ...string) string {
	t.Helper()
	_, url := startServeMCP(t, bin, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	return strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
}

// A client that sends its headers and then dribbles the body is cut off
// once -read-timeout has passed, however steadily it sends.
func testDribbledBody(t *testing.T, bin string) {
	addr := startAt(t, bin, "-read-timeout", "200ms")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n", addr)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	closedByServer(t, conn, "a body dribbled a byte per 10 ms")
}

// A keep-alive connection with no request is closed after -idle-timeout.
func testIdleConnection(t *testing.T, bin string) {
	addr := startAt(t, bin, "-idle-timeout", "200ms")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /nothing HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || resp.Close {
		t.Fatalf("GET /nothing: %d, close %v; want 404 on a kept-alive connection", resp.StatusCode, resp.Close)
	}
	closedByServer(t, conn, "an idle keep-alive connection")
}

// A session's event stream outlives the read and idle timeouts many times
// over, and still carries the notification of a change.
func testEventStreamOutlivesTimeouts(t *testing.T, bin string) {
	dir := t.TempDir()
	write := func(name, desc string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\nBody.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one", "One.")
	addr := startAt(t, bin, "-skills", dir, "-read-timeout", "50ms", "-idle-timeout", "50ms", "-session-idle-timeout", "50ms")
	url := "http://" + addr + "/mcp"
	id := initSession(t, url)
	req, err := http.NewRequest(http.MethodGet, url, nil)
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
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	time.Sleep(time.Second) // twenty timeouts of each kind
	write("two", "Two.")
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	for line := range lines {
		if strings.Contains(line, "notifications/resources/list_changed") {
			return
		}
	}
	t.Fatal("the event stream ended before the change was announced")
}

// initSession opens a session of a 2025-11-25 client and returns its id.
func initSession(t *testing.T, url string) string {
	t.Helper()
	send := func(id, body string) (*http.Response, string) {
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
		return resp, string(data)
	}
	resp, body := send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q", resp.StatusCode, body)
	}
	if resp, body := send(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %q", resp.StatusCode, body)
	}
	return id
}

// Bad values of the HTTP bounds are refused, naming the flag and the bound.
func TestServeMCPRefusesBadHTTPBounds(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"-read-timeout 0s", "-read-timeout 0s: want more than 0"},
		{"-idle-timeout -1s", "-idle-timeout -1s: want more than 0"},
		{"-session-idle-timeout 0s", "-session-idle-timeout 0s: want more than 0"},
		{"-max-sessions 0", "-max-sessions 0: want at least 1"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"serve-mcp", "-http", "127.0.0.1:0"}, strings.Fields(tc.args)...)
		// Already cancelled: a server that accepted the flags stops at once.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if code := run(ctx, args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
