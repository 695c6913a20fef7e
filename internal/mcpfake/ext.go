package mcpfake

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// ExtSkill is a skill an ExtServer serves.
type ExtSkill struct {
	// URI is the SKILL.md's URI, for example
	// "skill://acme/billing/refunds/SKILL.md".
	URI string
	// Frontmatter is rendered as the SKILL.md's YAML frontmatter and, as
	// JSON, as the entry's frontmatter.
	Frontmatter map[string]any
	// Body follows the frontmatter in the SKILL.md.
	Body string
	// Files are the skill's other files, by path relative to its root.
	Files map[string]string
}

// ExtServer is an MCP server that declares the MCP Skills extension
// (io.modelcontextprotocol/skills) and answers skills/list, skills/get and
// resources/read from what a test sets: well-formed skills, whose entries
// SetSkill builds, and whatever a hostile server would send instead (raw
// entries, files that disagree with their entries, a cursor that loops).
// Its resources are the skill:// and github:// URIs it was given files
// for. It counts requests. The zero value is not usable; call NewExt.
type ExtServer struct {
	readCounter
	srv *mcp.Server

	mu       sync.Mutex
	order    []string                   // listed SKILL.md URIs, in listing order
	entries  map[string]json.RawMessage // by SKILL.md URI, listed or not
	raw      []json.RawMessage          // items appended to the listing as they are
	files    map[string][]byte
	pageSize int
	loop     bool
	listErr  string
	readErrs map[string]string // by URI: the message of the error a read answers with
	gets     map[string]int
	lists    int
}

// extListResult and extGetResult are written as the server means them,
// entries raw, so that a test can serve anything.
type extListResult struct {
	mcp.ResultBase
	ResultType string            `json:"resultType"`
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
	TTLMs      int64             `json:"ttlMs"`
	CacheScope string            `json:"cacheScope"`
}

type extGetResult struct {
	mcp.ResultBase
	ResultType string          `json:"resultType"`
	Skill      json.RawMessage `json:"skill"`
	TTLMs      int64           `json:"ttlMs"`
	CacheScope string          `json:"cacheScope"`
}

// NewExt returns a server with no skills.
func NewExt() *ExtServer {
	s := &ExtServer{
		entries: make(map[string]json.RawMessage),
		files:   make(map[string][]byte),
		gets:    make(map[string]int),
	}
	caps := &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{ListChanged: true}}
	caps.AddExtension(skillsext.ExtensionID, nil)
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "mcpfake-ext", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	for _, scheme := range []string{"skill", "github"} {
		s.srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: scheme + "://{+path}", Name: scheme}, s.read)
	}
	// Both fail only for the name of a standard method.
	if err := mcp.AddReceivingCustomMethod(s.srv, skillsext.MethodList, s.list); err != nil {
		panic(err)
	}
	if err := mcp.AddReceivingCustomMethod(s.srv, skillsext.MethodGet, s.get); err != nil {
		panic(err)
	}
	return s
}

// MCPServer returns the underlying SDK server.
func (s *ExtServer) MCPServer() *mcp.Server { return s.srv }

// Digest is the digest of content as an entry writes it.
func Digest(content string) string {
	return skillsext.FormatDigest(sha256.Sum256([]byte(content)))
}

// SkillMarkdown renders a SKILL.md: frontmatter as YAML between "---"
// lines, then body.
func SkillMarkdown(frontmatter map[string]any, body string) string {
	y, err := yaml.Marshal(frontmatter)
	if err != nil {
		panic(err) // plain values only
	}
	return "---\n" + string(y) + "---\n" + body
}

// SetSkill adds or replaces a skill: its files and a correct entry (the
// frontmatter verbatim, every file once with its digest and size), listed
// after the skills already listed. It returns the entry.
func (s *ExtServer) SetSkill(sk ExtSkill) string {
	root, ok := strings.CutSuffix(sk.URI, "/SKILL.md")
	if !ok {
		panic("mcpfake: ExtSkill.URI must end in /SKILL.md: " + sk.URI)
	}
	files := map[string]string{sk.URI: SkillMarkdown(sk.Frontmatter, sk.Body)}
	for path, content := range sk.Files {
		files[root+"/"+path] = content
	}
	type resource struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
		Size   int    `json:"size"`
	}
	var res []resource
	for uri, content := range files {
		res = append(res, resource{URI: uri, Digest: Digest(content), Size: len(content)})
	}
	slices.SortFunc(res, func(a, b resource) int { return strings.Compare(a.URI, b.URI) })
	entry, err := json.Marshal(map[string]any{"uri": sk.URI, "frontmatter": sk.Frontmatter, "resources": res})
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri, content := range files {
		s.files[uri] = []byte(content)
	}
	s.setEntryLocked(sk.URI, entry)
	return string(entry)
}

// SetEntry makes raw the entry served for the SKILL.md at uri, by
// skills/list (after the skills already listed, unless uri is listed) and
// skills/get, whatever the files are.
func (s *ExtServer) SetEntry(uri, raw string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setEntryLocked(uri, json.RawMessage(raw))
}

func (s *ExtServer) setEntryLocked(uri string, raw json.RawMessage) {
	if _, ok := s.entries[uri]; !ok {
		s.order = append(s.order, uri)
	}
	s.entries[uri] = raw
}

// Entry returns the entry served for uri.
func (s *ExtServer) Entry(uri string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.entries[uri])
}

// Unlist keeps the skill at uri out of skills/list; skills/get still
// serves it.
func (s *ExtServer) Unlist(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.order = slices.DeleteFunc(s.order, func(u string) bool { return u == uri })
}

// RemoveSkill stops serving the entry at uri (skills/get answers -32602);
// its files stay.
func (s *ExtServer) RemoveSkill(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.order = slices.DeleteFunc(s.order, func(u string) bool { return u == uri })
	delete(s.entries, uri)
}

// AddRawListing appends raw to every listing, as it is, after the entries.
func (s *ExtServer) AddRawListing(raw string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw = append(s.raw, json.RawMessage(raw))
}

// SetFile serves content at uri, leaving every entry as it is.
func (s *ExtServer) SetFile(uri, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[uri] = []byte(content)
}

// RemoveFile stops serving uri (reads answer "resource not found").
func (s *ExtServer) RemoveFile(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.files, uri)
}

// SetPageSize makes skills/list answer n items a page (0: all in one).
func (s *ExtServer) SetPageSize(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pageSize = n
}

// FailList makes skills/list answer with an internal error carrying
// message; an empty message makes it answer again.
func (s *ExtServer) FailList(message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listErr = message
}

// FailRead makes every read of uri answer with a JSON-RPC internal error
// carrying message, as a hostile or broken server might; an empty message
// makes reads of uri answer again.
func (s *ExtServer) FailRead(uri, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if message == "" {
		delete(s.readErrs, uri)
		return
	}
	if s.readErrs == nil {
		s.readErrs = make(map[string]string)
	}
	s.readErrs[uri] = message
}

// SetCursorLoop makes every skills/list page name the same next cursor.
func (s *ExtServer) SetCursorLoop(loop bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loop = loop
}

// ListChanged sends notifications/resources/list_changed to connected
// clients (shortly after the call: the SDK debounces it).
func (s *ExtServer) ListChanged() {
	s.srv.AddResource(&mcp.Resource{URI: "skill://list-changed", Name: "list-changed"}, s.read)
}

// Gets returns how many skills/get requests for uri the server handled.
func (s *ExtServer) Gets(uri string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gets[uri]
}

// Lists returns how many skills/list pages the server answered.
func (s *ExtServer) Lists() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists
}

func (s *ExtServer) list(_ context.Context, _ *mcp.ServerSession, params *skillsext.ListParams) (*extListResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
	if s.listErr != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: s.listErr}
	}
	items := make([]json.RawMessage, 0, len(s.order)+len(s.raw))
	for _, uri := range s.order {
		items = append(items, s.entries[uri])
	}
	items = append(items, s.raw...)
	start := 0
	if params != nil && params.Cursor != "" && params.Cursor != "loop" {
		n, err := strconv.Atoi(strings.TrimPrefix(params.Cursor, "after:"))
		if err != nil || n < 0 || n > len(items) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
		start = n
	}
	res := &extListResult{ResultType: skillsext.ResultTypeComplete, Skills: items[start:], CacheScope: "private"}
	if s.pageSize > 0 && len(items)-start > s.pageSize {
		res.Skills = items[start : start+s.pageSize]
		res.NextCursor = "after:" + strconv.Itoa(start+s.pageSize)
	}
	if s.loop {
		res.NextCursor = "loop"
	}
	return res, nil
}

func (s *ExtServer) get(_ context.Context, _ *mcp.ServerSession, params *skillsext.GetParams) (*extGetResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets[params.URI]++
	raw, ok := s.entries[params.URI]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "No skill is served at " + params.URI}
	}
	return &extGetResult{ResultType: skillsext.ResultTypeComplete, Skill: raw, CacheScope: "private"}, nil
}

func (s *ExtServer) read(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	s.count(uri)
	s.mu.Lock()
	data, ok := s.files[uri]
	failure := s.readErrs[uri]
	s.mu.Unlock()
	if failure != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: failure}
	}
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	rc := &mcp.ResourceContents{URI: uri, Text: string(data)}
	if !utf8.Valid(data) {
		rc.Text, rc.Blob = "", data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
}

// InMemoryTransport connects a new server session over an in-memory pipe
// and returns the client's end.
func (s *ExtServer) InMemoryTransport(ctx context.Context) (mcp.Transport, error) {
	client, server := mcp.NewInMemoryTransports()
	if _, err := s.srv.Connect(ctx, server, nil); err != nil {
		return nil, fmt.Errorf("mcpfake: connecting in-memory session: %w", err)
	}
	return client, nil
}

// HTTPHandler returns a streamable HTTP handler for the server.
func (s *ExtServer) HTTPHandler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
}

// ListenHTTP serves s over streamable HTTP on addr (for example
// "127.0.0.1:0").
func (s *ExtServer) ListenHTTP(addr string) (*HTTPServer, error) {
	h := &HTTPServer{handler: s.HTTPHandler, addr: addr}
	if err := h.Start(); err != nil {
		return nil, err
	}
	return h, nil
}
