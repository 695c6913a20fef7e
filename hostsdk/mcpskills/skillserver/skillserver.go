// Package skillserver serves Agent Skills directories as MCP resources in
// the shape hostsdk/mcpskills reads: skill://index.json lists every skill
// (name, type "skill-md", description, url) and skill://<name>/SKILL.md is
// each skill's file. Files are read on every request, so edits are served
// at once. It backs the `skillcatalog serve-mcp` command and is a starting
// point for hosts that publish skills to remote agents.
package skillserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/hostsdk/agentskills"
	"github.com/skillcatalog/skillcatalog/hostsdk/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill"
)

// IndexSchema is the discovery schema the index declares.
const IndexSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// Server serves the skills of one directory tree (one subdirectory per
// skill, each holding SKILL.md).
type Server struct {
	fsys fs.FS
	srv  *mcp.Server
}

// New returns a server for the skills in fsys.
func New(fsys fs.FS) *Server {
	s := &Server{fsys: fsys}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "skillcatalog-skills", Version: "1"}, nil)
	s.srv.AddResource(&mcp.Resource{URI: mcpskills.IndexURI, Name: "index", MIMEType: "application/json"}, s.readIndex)
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "skill://{name}/SKILL.md", Name: "skill", MIMEType: "text/markdown"}, s.readSkill)
	return s
}

// MCPServer returns the underlying MCP server, to run over any transport.
func (s *Server) MCPServer() *mcp.Server { return s.srv }

// ServeStdio serves one client over stdin and stdout.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.srv.Run(ctx, &mcp.StdioTransport{})
}

// HTTPHandler serves the streamable HTTP transport.
func (s *Server) HTTPHandler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
}

type indexEntry struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// Index returns the current index document: every model-invocable skill
// whose SKILL.md parses and whose name matches its directory, sorted by
// name. Other skills are left out.
func (s *Server) Index() ([]byte, error) {
	dirs, err := fs.ReadDir(s.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read skills directory: %w", err)
	}
	entries := []indexEntry{}
	for _, d := range dirs {
		name, fm, ok := s.skill(d.Name())
		if !ok {
			continue
		}
		entries = append(entries, indexEntry{Name: name, Type: "skill-md", Description: fm.Description, URL: mcpskills.SkillURI(name)})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return json.Marshal(struct {
		Schema string       `json:"$schema"`
		Skills []indexEntry `json:"skills"`
	}{IndexSchema, entries})
}

// skill parses one skill directory; only skills whose name matches their
// directory are served, so a URL always names its directory.
func (s *Server) skill(dir string) (string, agentskills.Frontmatter, bool) {
	if dir != path.Clean(dir) || strings.ContainsAny(dir, "/\\") || !skill.ValidBoundedName(dir) {
		return "", agentskills.Frontmatter{}, false
	}
	data, err := fs.ReadFile(s.fsys, path.Join(dir, "SKILL.md"))
	if err != nil {
		return "", agentskills.Frontmatter{}, false
	}
	fm, _, _, err := agentskills.ParseSkillFile(data)
	// The index cannot express invocation policy, so a skill kept from the
	// model stays off the index.
	if err != nil || fm.Name != dir || strings.TrimSpace(fm.Description) == "" || !fm.Invocation().ModelInvocable {
		return "", agentskills.Frontmatter{}, false
	}
	return dir, fm, true
}

func (s *Server) readIndex(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	data, err := s.Index()
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}}, nil
}

func (s *Server) readSkill(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := strings.CutSuffix(strings.TrimPrefix(uri, "skill://"), "/SKILL.md")
	if !ok || !strings.HasPrefix(uri, "skill://") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if _, _, ok := s.skill(name); !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	data, err := fs.ReadFile(s.fsys, path.Join(name, "SKILL.md"))
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(data)}}}, nil
}
