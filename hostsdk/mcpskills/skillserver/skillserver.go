// Package skillserver serves Agent Skills directories as MCP resources in
// the shape hostsdk/mcpskills reads: skill://index.json lists every skill
// (name, type "skill-md", description, url) and skill://<name>/SKILL.md is
// each skill's file. It backs the `skillcatalog serve-mcp` command and is a
// starting point for hosts that publish skills to remote agents.
//
// Skill directories are untrusted input (often a git checkout, which can
// carry symbolic links). A SKILL.md is served only if it is, links
// followed, a regular file of at most skill.MaxSkillFileBytes (8 MiB): it is
// checked before it is opened, the opened file is checked again, and at
// most the bound is read. A directory served with NewDir is opened without
// blocking, so a FIFO cannot hang a request. Any other SKILL.md (a link to a
// device, a FIFO, an oversized or unreadable file, one that does not
// parse, names another skill or is kept from the model) leaves its skill off
// the index, with a diagnostic (see Diagnostics); the other skills are
// served.
//
// The index is built on every request, so edits are served at once, but a
// SKILL.md is read again only when it changed: the parse is cached by the
// file's identity (device, inode, size, modification and change time), and
// an unchanged file costs one stat per request. A file changed less than
// three seconds before it was read is read again until it has aged, because
// coarse time stamps could hide a same-size rewrite. Where the platform
// reports no inode or change time, every request reads every file. Skill
// bodies are read on every request for them, with the same checks.
package skillserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/hostsdk/mcpskills"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// IndexSchema is the discovery schema the index declares.
const IndexSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// Server serves the skills of one directory tree (one subdirectory per
// skill, each holding SKILL.md).
type Server struct {
	fsys fs.FS
	dir  string // the directory on disk, for NewDir; "" for New
	open func(name string) (fs.File, error)
	// openChild opens a file below a skill's directory without leaving it.
	openChild func(skillDir, rel string) (fs.File, error)
	srv       *mcp.Server
	now       func() time.Time // the clock of the racy-window test; tests move it

	mu     sync.Mutex
	parsed map[string]*parsed // by directory, for the directories last listed
	diags  []string
	// watchDiag says what Watch could not follow, if anything.
	watchDiag string

	syncMu sync.Mutex      // serializes Sync
	listed map[string]bool // the skill URIs in the resource list, under syncMu
}

// New returns a server for the skills in fsys. Files are opened through
// fsys, which cannot open without blocking: to serve a directory on disk,
// use NewDir.
func New(fsys fs.FS) *Server {
	return newServer(fsys, "", fsys.Open, func(skillDir, rel string) (fs.File, error) {
		return fsys.Open(skillDir + "/" + rel)
	})
}

// NewDir returns a server for the skills in the directory dir on disk.
func NewDir(dir string) *Server {
	return newServer(os.DirFS(dir), dir, func(name string) (fs.File, error) {
		// name is a checked skill directory and "SKILL.md".
		return openNonblocking(filepath.Join(dir, filepath.FromSlash(name)))
	}, func(skillDir, rel string) (fs.File, error) {
		return openBelow(filepath.Join(dir, skillDir), rel)
	})
}

func newServer(fsys fs.FS, dir string, open func(string) (fs.File, error), openChild func(string, string) (fs.File, error)) *Server {
	s := &Server{fsys: fsys, dir: dir, open: open, openChild: openChild, now: time.Now, parsed: make(map[string]*parsed)}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "skillcatalog-skills", Version: "1"}, nil)
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "skill://{name}/{+path}",
		Name:        "skill-file",
		Description: "A file of a skill: its SKILL.md, or a file below the skill's directory that SKILL.md refers to.",
	}, s.readResource)
	s.Sync()
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

// maxDiagnostics bounds the diagnostics kept from one index.
const maxDiagnostics = 100

// maxIndexDescription bounds an index description, in characters. The
// description is normalized as the plugin normalizes catalog descriptions
// (control and format characters removed, whitespace collapsed), and the
// bound is the Agent Skills limit on a description, so clients that cap
// lower still cut a clean string.
const maxIndexDescription = 1024

// Index returns the current index document: every model-invocable skill
// whose SKILL.md is a regular file within the bound, parses, and names its
// directory, sorted by name. Other skills are left out, with a diagnostic.
func (s *Server) Index() ([]byte, error) {
	entries, err := s.index()
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Schema string       `json:"$schema"`
		Skills []indexEntry `json:"skills"`
	}{IndexSchema, entries})
}

// index lists the skills the index serves, sorted by name.
func (s *Server) index() ([]indexEntry, error) {
	dirs, err := fs.ReadDir(s.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read skills directory: %w", err)
	}
	entries := []indexEntry{}
	var diags []string
	listed := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		dir := d.Name()
		if !validDir(dir) || d.Type().IsRegular() {
			continue // not a skill directory
		}
		listed[dir] = true
		fm, err := s.frontmatter(dir)
		if err != nil {
			if !errors.Is(err, errNoSkillFile) {
				diags = append(diags, clip(fmt.Sprintf("skill %s left off the index: %v", dir, err), 300))
			}
			continue
		}
		entries = append(entries, indexEntry{Name: dir, Type: "skill-md", Description: render.NormalizeDescription(fm.Description, maxIndexDescription), URL: mcpskills.SkillURI(dir)})
	}
	if n := len(diags) - maxDiagnostics; n > 0 {
		diags = append(diags[:maxDiagnostics], fmt.Sprintf("%d more skills left off the index", n))
	}
	s.mu.Lock()
	for dir := range s.parsed {
		if !listed[dir] {
			delete(s.parsed, dir)
		}
	}
	s.diags = diags
	s.mu.Unlock()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}

// Diagnostics says why skills were left off the most recent index, one
// line per skill.
func (s *Server) Diagnostics() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.diags)
	if s.watchDiag != "" {
		out = append(out, s.watchDiag)
	}
	return out
}

// validDir reports whether dir can name a skill; only skills whose name
// matches their directory are served, so a URL always names its directory.
func validDir(dir string) bool {
	return dir == path.Clean(dir) && !strings.ContainsAny(dir, "/\\") && skill.ValidBoundedName(dir)
}

func (s *Server) readIndex(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	data, err := s.Index()
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}}, nil
}
