// Package mcpfake holds small MCP servers that publish skills for
// tests and demos of the mcpskills provider. Server uses the older
// convention (skill://index.json plus skill://<name>/SKILL.md): it counts
// reads per URI, can be changed while clients are connected, can fail or
// block chosen reads, and serves over an in-memory pipe, stdio or
// streamable HTTP (which can be stopped and started again on the same
// address). ExtServer declares the MCP Skills extension
// (io.modelcontextprotocol/skills) and serves any entry and file a test
// sets, hostile ones included. Oversized sends messages of any size.
package mcpfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// IndexURI is the discovery document's URI.
const IndexURI = skillsext.IndexURI

// SkillURI is the URI of a skill's SKILL.md.
func SkillURI(name string) string { return skillsext.SkillURI(name) }

type skill struct {
	description string
}

// Server is an MCP server publishing skills. The zero value is not usable;
// call New.
type Server struct {
	readCounter
	srv *mcp.Server

	mu            sync.Mutex
	skills        map[string]skill
	resources     map[string]string // URI → text, bodies included
	indexOverride *string
	failures      map[string]string // URI → error message
	blocking      map[string]bool
	header        [2]string
	onRead        func(uri string)
	started       chan string
	cancelled     chan string
}

// New returns a server with no skills. Its index lists nothing until skills
// are added.
func New() *Server {
	s := &Server{
		skills:    make(map[string]skill),
		resources: make(map[string]string),
		failures:  make(map[string]string),
		blocking:  make(map[string]bool),
		started:   make(chan string, 64),
		cancelled: make(chan string, 64),
	}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "mcpfake", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{ListChanged: true}},
		// Accept every subscription; ResourceUpdated notifies subscribers.
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.srv.AddResource(&mcp.Resource{URI: IndexURI, Name: "index", MIMEType: "application/json"}, s.read)
	return s
}

// MCPServer returns the underlying SDK server.
func (s *Server) MCPServer() *mcp.Server { return s.srv }

// SetSkill adds or replaces a skill: an index entry and a SKILL.md resource
// holding body. Connected clients are told that the resource list changed
// and, if subscribed, that the index was updated.
func (s *Server) SetSkill(name, description, body string) {
	s.mu.Lock()
	s.skills[name] = skill{description: description}
	s.resources[SkillURI(name)] = body
	s.mu.Unlock()
	s.srv.AddResource(&mcp.Resource{URI: SkillURI(name), Name: name, MIMEType: "text/markdown"}, s.read)
	s.IndexUpdated()
}

// RemoveSkill removes a skill's index entry and SKILL.md resource, notifying
// like SetSkill.
func (s *Server) RemoveSkill(name string) {
	s.mu.Lock()
	delete(s.skills, name)
	delete(s.resources, SkillURI(name))
	s.mu.Unlock()
	s.srv.RemoveResources(SkillURI(name))
	s.IndexUpdated()
}

// IndexUpdated sends notifications/resources/updated for the index to
// subscribed clients.
func (s *Server) IndexUpdated() {
	_ = s.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: IndexURI})
}

// ListChanged sends notifications/resources/list_changed to connected
// clients (shortly after the call: the SDK debounces it).
func (s *Server) ListChanged() {
	s.srv.AddResource(&mcp.Resource{URI: IndexURI, Name: "index", MIMEType: "application/json"}, s.read)
}

// SetResource adds or replaces any other resource, such as a skill's child
// file.
func (s *Server) SetResource(uri, text string) {
	s.mu.Lock()
	s.resources[uri] = text
	s.mu.Unlock()
	s.srv.AddResource(&mcp.Resource{URI: uri, Name: uri}, s.read)
}

// SetIndex makes the server serve raw as its index, whatever its skills are.
// Subscribed clients are told that the index was updated (and nothing else).
func (s *Server) SetIndex(raw string) {
	s.mu.Lock()
	s.indexOverride = &raw
	s.mu.Unlock()
	s.IndexUpdated()
}

// ClearIndex undoes SetIndex: the index lists the server's skills again.
func (s *Server) ClearIndex() {
	s.mu.Lock()
	s.indexOverride = nil
	s.mu.Unlock()
	s.IndexUpdated()
}

// SetFailure makes reads of uri fail with message; an empty message makes
// them succeed again.
func (s *Server) SetFailure(uri, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if message == "" {
		delete(s.failures, uri)
	} else {
		s.failures[uri] = message
	}
}

// SetBlocking makes reads of uri block until the request is cancelled. Each
// blocked read is reported on Started when it begins and on Cancelled when
// its request context ends; both channels buffer 64 reports, so a test that
// blocks more reads than that must drain them.
func (s *Server) SetBlocking(uri string, block bool) {
	s.mu.Lock()
	s.blocking[uri] = block
	s.mu.Unlock()
}

// Started receives the URI of each blocking read as it begins.
func (s *Server) Started() <-chan string { return s.started }

// Cancelled receives the URI of each blocking read whose request was
// cancelled.
func (s *Server) Cancelled() <-chan string { return s.cancelled }

// OnRead calls f (outside the server's lock) with the URI of every read the
// server handles, before answering it.
func (s *Server) OnRead(f func(uri string)) {
	s.mu.Lock()
	s.onRead = f
	s.mu.Unlock()
}

// RequireHeader makes the HTTP handler reject (401) requests whose header
// name is not exactly value.
func (s *Server) RequireHeader(name, value string) {
	s.mu.Lock()
	s.header = [2]string{name, value}
	s.mu.Unlock()
}

// Index returns the index document the server currently serves.
func (s *Server) Index() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.indexLocked()
}

func (s *Server) indexLocked() string {
	if s.indexOverride != nil {
		return *s.indexOverride
	}
	type entry struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Description string `json:"description"`
		URL         string `json:"url"`
	}
	doc := struct {
		Schema string  `json:"$schema"`
		Skills []entry `json:"skills"`
	}{Schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json", Skills: []entry{}}
	for name, sk := range s.skills {
		doc.Skills = append(doc.Skills, entry{Name: name, Type: "skill-md", Description: sk.description, URL: SkillURI(name)})
	}
	slices.SortFunc(doc.Skills, func(a, b entry) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return string(data)
}

func (s *Server) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	s.count(uri)
	s.mu.Lock()
	onRead := s.onRead
	failure := s.failures[uri]
	block := s.blocking[uri]
	var text string
	var ok bool
	if uri == IndexURI {
		text, ok = s.indexLocked(), true
	} else {
		text, ok = s.resources[uri]
	}
	s.mu.Unlock()

	if onRead != nil {
		onRead(uri)
	}
	if block {
		s.started <- uri
		<-ctx.Done()
		s.cancelled <- uri
		return nil, ctx.Err()
	}
	if failure != "" {
		return nil, errors.New(failure)
	}
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	rc := &mcp.ResourceContents{URI: uri, Text: text}
	if !utf8.ValidString(text) {
		// JSON text carries UTF-8 only: other bytes go as a blob, as they
		// would from a server reading a file.
		rc.Text, rc.Blob = "", []byte(text)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
}

// InMemoryTransport connects a new server session over an in-memory pipe and
// returns the client's end.
func (s *Server) InMemoryTransport(ctx context.Context) (mcp.Transport, error) {
	client, server := mcp.NewInMemoryTransports()
	if _, err := s.srv.Connect(ctx, server, nil); err != nil {
		return nil, fmt.Errorf("mcpfake: connecting in-memory session: %w", err)
	}
	return client, nil
}

// CloseSessions closes every connected session, as a crashing server would.
func (s *Server) CloseSessions() {
	for ss := range s.srv.Sessions() {
		_ = ss.Close()
	}
}

// ServeStdio serves one client over stdin/stdout until it disconnects or ctx
// ends.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.srv.Run(ctx, &mcp.StdioTransport{})
}

// HTTPHandler returns a streamable HTTP handler for the server, enforcing
// RequireHeader. Each call returns a handler with its own HTTP sessions.
func (s *Server) HTTPHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		want := s.header
		s.mu.Unlock()
		if want[0] != "" && r.Header.Get(want[0]) != want[1] {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// HTTPServer serves a Server or an ExtServer over streamable HTTP on a
// fixed address.
type HTTPServer struct {
	handler func() http.Handler
	addr    string

	mu  sync.Mutex
	srv *http.Server
}

// ListenHTTP serves s on addr (for example "127.0.0.1:0").
func (s *Server) ListenHTTP(addr string) (*HTTPServer, error) {
	h := &HTTPServer{handler: s.HTTPHandler, addr: addr}
	if err := h.Start(); err != nil {
		return nil, err
	}
	return h, nil
}

// URL is the MCP endpoint.
func (h *HTTPServer) URL() string { return "http://" + h.addr + "/mcp" }

// Start serves again on the same address after Stop, with fresh HTTP
// sessions, as a restarted server would. Starting a running server is a
// no-op.
func (h *HTTPServer) Start() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.srv != nil {
		return nil
	}
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		return fmt.Errorf("mcpfake: listening: %w", err)
	}
	h.addr = ln.Addr().String()
	mux := http.NewServeMux()
	mux.Handle("/mcp", h.handler())
	h.srv = &http.Server{Handler: mux}
	go func(srv *http.Server) { _ = srv.Serve(ln) }(h.srv)
	return nil
}

// Stop closes the listener and every connection. Stopping a stopped server is
// a no-op.
func (h *HTTPServer) Stop() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.srv == nil {
		return nil
	}
	err := h.srv.Close()
	h.srv = nil
	return err
}
