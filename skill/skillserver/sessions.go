package skillserver

import (
	"container/list"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// Defaults of HTTPOptions.
const (
	// DefaultSessionIdleTimeout is how long a session may sit unused: long
	// enough for a model's turn between two reads, short enough that
	// clients that went away stop costing memory.
	DefaultSessionIdleTimeout = 10 * time.Minute
	// DefaultMaxSessions bounds the sessions held at once. A session costs
	// about 16 KiB, so the default holds about 16 MiB.
	DefaultMaxSessions = 1024
)

// HTTPOptions bounds the sessions [Server.HTTPHandler] keeps for clients of
// revisions before 2026-07-28 (clients of 2026-07-28 hold none).
type HTTPOptions struct {
	// SessionIdleTimeout closes a session that has had no request in
	// flight and no event stream open for this long; the client's next
	// request in it gets 404 "session not found", upon which clients start
	// a new session. 0 means DefaultSessionIdleTimeout.
	SessionIdleTimeout time.Duration
	// MaxSessions bounds the sessions held at once. A new session beyond
	// it closes the session idle the longest; if every session is in use
	// (a request in flight or an event stream open), the new one is
	// refused with 503 Service Unavailable and Retry-After. 0 means
	// DefaultMaxSessions.
	MaxSessions int
}

// HTTPHandler serves the streamable HTTP transport to clients of base
// revision 2026-07-28 (statelessly) and of earlier revisions (with
// sessions) at one endpoint; see the package documentation. opts bounds the
// sessions; nil means the defaults of [HTTPOptions]. A negative option is
// an error naming it.
//
// The SDK's own StreamableHTTPOptions.SessionTimeout counts only POST
// requests as use, so it would close the session of a client that is only
// listening on its event stream for list-changed notifications; and the
// SDK bounds no count. Sessions are therefore tracked here.
func (s *Server) HTTPHandler(options *HTTPOptions) (http.Handler, error) {
	var opts HTTPOptions
	if options != nil {
		opts = *options
	}
	if opts.SessionIdleTimeout < 0 {
		return nil, fmt.Errorf("skillserver: SessionIdleTimeout %v is negative; want 0 (the default, %v) or more", opts.SessionIdleTimeout, DefaultSessionIdleTimeout)
	}
	if opts.MaxSessions < 0 {
		return nil, fmt.Errorf("skillserver: MaxSessions %d is negative; want 0 (the default, %d) or more", opts.MaxSessions, DefaultMaxSessions)
	}
	if opts.SessionIdleTimeout == 0 {
		opts.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if opts.MaxSessions == 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	get := func(*http.Request) *mcp.Server { return s.srv }
	stateful := &sessionLimiter{
		next: mcp.NewStreamableHTTPHandler(get, nil),
		srv:  s.srv, idle: opts.SessionIdleTimeout, max: opts.MaxSessions,
		byID: make(map[string]*trackedSession),
	}
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") >= skillsext.ProtocolRevision {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	}), nil
}

// sessionLimiter tracks the sessions of the stateful handler next: which
// are in use, since when the others are idle, and closes them when idle
// too long or when a new session needs the room.
type sessionLimiter struct {
	next http.Handler
	srv  *mcp.Server
	idle time.Duration
	max  int

	mu      sync.Mutex
	byID    map[string]*trackedSession
	idleLRU list.List // *trackedSession not in use, idle the longest first
	pending int       // new sessions being created, counted against max
}

// trackedSession is one session the limiter knows.
type trackedSession struct {
	id    string
	refs  int           // requests in flight, event streams included
	elem  *list.Element // in idleLRU while refs is 0
	timer *time.Timer   // runs while refs is 0
	gen   uint64        // counts releases, so a stale timer does nothing
	gone  bool
}

func (l *sessionLimiter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		ts := l.acquire(id)
		defer l.release(ts)
		l.next.ServeHTTP(w, r)
		if ts != nil && r.Method == http.MethodDelete {
			l.forget(ts)
		}
		return
	}
	if r.Method != http.MethodPost {
		l.next.ServeHTTP(w, r) // the SDK refuses it
		return
	}
	if !l.admit() {
		w.Header().Set("Retry-After", strconv.Itoa(int(l.idle.Seconds())+1))
		http.Error(w, fmt.Sprintf("all %d sessions (MaxSessions) are in use; retry later", l.max), http.StatusServiceUnavailable)
		return
	}
	cw := &captureWriter{ResponseWriter: w, l: l}
	defer func() {
		if cw.ts == nil {
			l.mu.Lock()
			l.pending--
			l.mu.Unlock()
		}
		l.release(cw.ts)
	}()
	l.next.ServeHTTP(cw, r)
}

// acquire marks the session id in use, if the limiter knows it.
func (l *sessionLimiter) acquire(id string) *trackedSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.byID[id]
	if ts == nil {
		return nil
	}
	l.use(ts)
	return ts
}

// use counts one more use of ts, under mu.
func (l *sessionLimiter) use(ts *trackedSession) {
	if ts.refs == 0 && ts.elem != nil {
		l.idleLRU.Remove(ts.elem)
		ts.elem = nil
		ts.timer.Stop()
	}
	ts.refs++
}

// release ends one use of ts; the last one starts its idle timer.
func (l *sessionLimiter) release(ts *trackedSession) {
	if ts == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	ts.refs--
	if ts.refs > 0 || ts.gone {
		return
	}
	ts.gen++
	gen := ts.gen
	ts.elem = l.idleLRU.PushBack(ts)
	ts.timer = time.AfterFunc(l.idle, func() { l.expire(ts, gen) })
}

// expire closes ts if it is still idle since the release numbered gen.
func (l *sessionLimiter) expire(ts *trackedSession, gen uint64) {
	l.mu.Lock()
	if ts.gone || ts.refs > 0 || ts.gen != gen {
		l.mu.Unlock()
		return
	}
	l.drop(ts)
	l.mu.Unlock()
	l.closeSession(ts.id)
}

// forget drops ts, which its client closed (DELETE).
func (l *sessionLimiter) forget(ts *trackedSession) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !ts.gone {
		l.drop(ts)
	}
}

// drop removes ts from the limiter, under mu.
func (l *sessionLimiter) drop(ts *trackedSession) {
	ts.gone = true
	if ts.elem != nil {
		l.idleLRU.Remove(ts.elem)
		ts.elem = nil
	}
	if ts.timer != nil {
		ts.timer.Stop()
	}
	delete(l.byID, ts.id)
}

// admit reserves room for a new session, closing the session idle the
// longest if the limiter is full; false means every session is in use.
func (l *sessionLimiter) admit() bool {
	l.mu.Lock()
	if len(l.byID)+l.pending < l.max {
		l.pending++
		l.mu.Unlock()
		return true
	}
	front := l.idleLRU.Front()
	if front == nil {
		l.mu.Unlock()
		return false
	}
	ts := front.Value.(*trackedSession)
	l.drop(ts)
	l.pending++
	l.mu.Unlock()
	l.closeSession(ts.id)
	return true
}

// register records the new session id, in use by the request creating it,
// in place of the room admit reserved.
func (l *sessionLimiter) register(id string) *trackedSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending--
	ts := &trackedSession{id: id, refs: 1}
	l.byID[id] = ts
	return ts
}

// closeSession closes the MCP session id, so that the SDK forgets it and
// answers its requests 404 "session not found".
func (l *sessionLimiter) closeSession(id string) {
	for ss := range l.srv.Sessions() {
		if ss.ID() == id {
			_ = ss.Close()
			return
		}
	}
}

// captureWriter learns the id of the session a request creates from the
// response header, before the response is sent, so that the client's next
// request finds the session tracked.
type captureWriter struct {
	http.ResponseWriter
	l  *sessionLimiter
	ts *trackedSession
}

func (c *captureWriter) capture() {
	if c.ts == nil {
		if id := c.Header().Get("Mcp-Session-Id"); id != "" {
			c.ts = c.l.register(id)
		}
	}
}

func (c *captureWriter) WriteHeader(code int) {
	c.capture()
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(p []byte) (int, error) {
	c.capture()
	return c.ResponseWriter.Write(p)
}

// Flush flushes the response, as the SDK's event streams need.
func (c *captureWriter) Flush() {
	c.capture()
	_ = http.NewResponseController(c.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
