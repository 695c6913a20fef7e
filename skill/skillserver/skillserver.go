// Package skillserver serves a directory of Agent Skills over MCP, both as
// the MCP Skills extension (io.modelcontextprotocol/skills, SEP-2640)
// defines and in the older skill://index.json convention that
// skill/mcpskills reads from servers without the extension. It backs the
// `skillcatalog serve-mcp` command and is a starting point for hosts that
// publish skills to remote agents.
//
// # What is served
//
// A skill is a directory holding a SKILL.md, at any depth up to
// skill.MaxQualifiedSegments below the skills directory. Its path (the
// directories from the skills directory down to it) names it:
// acme/billing/refunds/SKILL.md is the skill refunds with the prefix
// acme/billing, served at skill://acme/billing/refunds/SKILL.md. The last
// segment must be a skill name (skill.ValidBoundedName) equal to the name in
// the frontmatter; every earlier one must be a prefix segment a host can
// put in a qualified name "<label>:<path>" (skill.ValidQualifiedName: ASCII
// letters, digits, '.', '_' and '-', starting with a letter or digit, at
// most 64 bytes), and the path holds at most 191 bytes, so that any host
// label (at most 64 bytes) fits. A skill inside another skill's directory is
// served as a skill of its own, and its files are also files of the
// enclosing skill.
//
// A skill is served when its SKILL.md is, links followed, a regular file of
// at most skill.MaxSkillFileBytes (8 MiB) that skillcatalog's Agent Skills
// provider loads (agentskills.CheckSkillFile, the definition every
// skillcatalog tool applies), whose frontmatter converts to JSON
// (skillsext.FrontmatterJSON), names the directory, has a description of at
// most 1,024 characters, a compatibility (if any) of 1 to 500 characters
// and string-valued metadata (if any), as the Agent Skills specification
// requires and hosts check, and does not keep the skill from the model
// (disable-model-invocation); and when it has at most
// skillsext.MaxSkillResources (512) files of at most skillsext.MaxSkillBytes
// (16 MiB) in all, and below its directory at most 2,048 folders and 4,096
// files and folders in all (hidden folders and what they hold aside): far
// more than 512 files need, so that a package or build tree left inside
// (a node_modules) costs a scan, or a skills/get that judges the skill
// alone, a bounded walk instead of a read of every folder. Every other skill is not served, with a diagnostic that
// names it and says why (see Diagnostics); Survey counts them by reason,
// and [CheckServable] judges one SKILL.md alone. The extension requires a
// served skill to meet the Agent Skills specification, so a skill that
// skillcatalog loads with a warning (a name that is not its folder's, a
// description over 1,024 characters) is not served.
//
// A served skill's files are its SKILL.md and every regular file below its
// directory of at most [MaxResourceBytes] (8 MiB), read through the skill
// directory itself (os.Root): no link or path swapped after a check leads
// out of it, and files are opened without blocking, so a FIFO cannot hang a
// request. The directory is opened once for each scan of the skill, read
// or directory listing, and its SKILL.md is read (or, for a listing,
// checked against the entry) through that same opened directory, so a
// skill directory swapped for a link elsewhere between the check and the
// reads serves nothing from there. Hidden files and directories (.git, .env) are not served, and
// neither are FIFOs, devices, links to directories, files reached only by
// a link that leaves the skill directory, or names no URI can spell
// (invalid UTF-8, control characters, backslashes); a diagnostic names the
// files left out of a skill that are not hidden. The SKILL.md itself may be
// a link to a regular file anywhere.
//
// # The MCP Skills extension
//
// The server declares the extension as
// capabilities.extensions["io.modelcontextprotocol/skills"] =
// {"directoryRead": true}, with the resources capability, and answers:
//
//   - skills/list: every served skill's entry, sorted by URI, at most 100
//     entries and 1 MiB of entries per page (an entry is never split; a
//     page holds at least one, however large). nextCursor is opaque; it
//     resumes after the last entry of the page, so a listing that changes
//     between pages neither repeats nor skips an entry that stayed. A
//     cursor the server did not write is -32602.
//   - skills/get {uri}: the entry of the served skill whose SKILL.md URI is
//     uri, listed or not; anything else is -32602 "No skill is served at
//     <uri>".
//   - resources/directory/read {uri, cursor}: the direct children of a
//     served skill's directory (skill://<path>, no trailing slash) or of any
//     directory below it, sorted by name, at most 500 per page.
//     Subdirectories carry mimeType "inode/directory", files their name,
//     size and (by extension) mimeType. The listing is live: what is on disk
//     now, as served. Any other URI is -32602: a file's, a prefix folder's
//     (skill://acme), a hidden or linked directory's.
//
// An entry's frontmatter is the SKILL.md frontmatter as JSON
// (skillsext.FrontmatterJSON: every field, YAML 1.2 core types), and its
// resources list every served file of the skill once, SKILL.md included,
// as skill://<path>/<file path> (each segment percent-encoded but for
// letters, digits, '-', '.', '_' and '~') with "sha256:<hex>" digests of the
// raw bytes and exact sizes. Every result carries resultType "complete",
// ttlMs 0 and cacheScope "private": files can change at any time, and a
// server behind a bearer token must not be cached by intermediaries.
//
// # Reads agree with the entries
//
// resources/read serves the files of served skills, and only those; any
// other skill:// URI (and any URI spelled otherwise than the entries spell
// it) is -32602. The server hashes every file it is about to return. If the
// bytes differ from the entry it currently lists (the file changed), or the
// file is listed but gone, or present but not yet listed, the server first
// rescans the directory, so its listing changes and clients are told
// (notifications/resources/list_changed), and then answers from the new
// entry; if the file changed again meanwhile, the read fails with -32603 and
// a message saying so. A read therefore never returns bytes that disagree
// with the entry the server lists at that moment.
//
// Hashes are cached by file identity (device, inode, size, modification
// and change time), so a scan hashes only files that changed, and an
// unchanged file costs one stat. A file changed less than three seconds
// before it was read is read again at every scan until it has aged,
// because coarse time stamps could hide a same-size rewrite. Where the
// platform reports no inode or change time, every scan reads every file.
// SKILL.md parses are cached the same way.
//
// A server made with [NewDir] and watched (Watch) scans when files change and
// answers from its last scan. Any other server, and a watched one whose
// tree has more directories than Watch follows (4,096), scans again for
// every listing (the first page of skills/list, whose later pages come from
// that scan or a newer one; the index), so edits are served at once. For
// skills/get and resources/directory/read it does not scan the tree: it
// judges the skill asked about alone, as a scan would (its directory and
// files only), and scans the whole tree again only when that skill's
// entry differs from the last scan's, so these too are served as edited,
// at the cost of one skill rather than of the tree.
//
// # The older convention
//
// skill://index.json lists every served skill whose path has a single
// segment, sorted by name, as the index schema [IndexSchema] describes (name,
// type "skill-md", description, url skill://<name>/SKILL.md). Skills in
// nested folders are not in it, because that convention knows only
// skill://<name>/SKILL.md; their files are still readable at their URIs,
// and the extension lists them. resources/list holds the index and every
// served skill's SKILL.md.
//
// # Protocol revisions and transports
//
// HTTPHandler serves clients of both base revisions at one endpoint.
// Requests that carry the Mcp-Protocol-Version header 2026-07-28 (or later)
// and no Mcp-Session-Id go to a stateless streamable HTTP handler, the only
// one on which go-sdk offers 2026-07-28: such clients discover the server
// with server/discover and receive list-changed notifications on a
// subscriptions/listen stream. Every other request (initialize, and every
// request of a session it opened) goes to a stateful handler, which speaks
// 2025-11-25 and earlier revisions with sessions, so those clients keep
// their standalone event stream and list-changed notifications as before.
// Over stdio (ServeStdio) one session speaks whichever revision the client
// opens with. Sessions over HTTP are bounded in number and closed when idle
// ([HTTPOptions]).
//
// What the stateless handler changes for 2026-07-28 clients: no session
// (every request is served by a fresh one, and GET and DELETE are refused
// with 405), so no standalone event stream and no resources/subscribe;
// those clients ask for list-changed and resource-updated notifications
// with subscriptions/listen instead, which holds its request open. The
// server never sends requests to clients, so nothing else is lost.
package skillserver

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// IndexSchema is the discovery schema the index declares.
const IndexSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// cacheScope is the cacheScope of every result: the catalog may sit behind
// a bearer token, so only the requesting client may cache it.
const cacheScope = "private"

// Server serves the skills of one directory tree.
type Server struct {
	fsys fs.FS
	dir  string // the directory on disk, for NewDir; "" for New
	// openTree opens a skill's directory, confined to it; its SKILL.md
	// and files are read through it.
	openTree func(skillPath string) (*skillTree, error)
	srv      *mcp.Server
	now      func() time.Time // the clock of the racy-window test; tests move it

	mu    sync.Mutex
	files map[string]*fileVersion // by path below the skills directory
	// watchDiag says what Watch could not follow, if anything.
	watchDiag string

	refreshMu sync.Mutex // serializes scans and what they publish
	seq       atomic.Uint64
	cat       atomic.Pointer[catalog]
	watching  atomic.Bool
	listed    map[string]bool // the skill URIs in the resource list, under refreshMu
}

// New returns a server for the skills in fsys. Files are opened through
// fsys, which cannot open without blocking or confine links: to serve a
// directory on disk, use NewDir.
func New(fsys fs.FS) *Server {
	return newServer(fsys, "", func(skillPath string) (*skillTree, error) {
		return fsTree(fsys, skillPath)
	})
}

// NewDir returns a server for the skills in the directory dir on disk.
func NewDir(dir string) *Server {
	return newServer(os.DirFS(dir), dir, func(skillPath string) (*skillTree, error) {
		return openRootTree(dir, skillPath)
	})
}

func newServer(fsys fs.FS, dir string, openTree func(string) (*skillTree, error)) *Server {
	s := &Server{fsys: fsys, dir: dir, openTree: openTree, now: time.Now, files: make(map[string]*fileVersion)}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "skillcatalog-skills", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{
			Resources:  &mcp.ResourceCapabilities{ListChanged: true},
			Extensions: map[string]any{skillsext.ExtensionID: skillsext.Settings{DirectoryRead: true}},
		},
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
			c.TTLMs, c.CacheScope = 0, cacheScope
		},
	})
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "skill://{+path}",
		Name:        "skill-file",
		Description: "A file of a skill: skill://<skill path>/<file path>, the skill path ending in the skill's name. skills/list names every file of every skill.",
	}, s.readResource)
	addExtensionMethods(s)
	s.Sync()
	return s
}

// MCPServer returns the underlying MCP server, to run over any transport.
func (s *Server) MCPServer() *mcp.Server { return s.srv }

// ServeStdio serves one client over stdin and stdout.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.srv.Run(ctx, &mcp.StdioTransport{})
}

// current returns the catalog to answer a listing from: the last scan's for
// a watched server, a new scan's otherwise.
func (s *Server) current() *catalog {
	if s.watching.Load() {
		if c := s.cat.Load(); c != nil {
			return c
		}
	}
	c, _ := s.refresh(false)
	return c
}

// refresh scans the skills directory, unless a scan that began after the
// call did already, and publishes the result: the resource list and a
// list-changed notification when the catalog changed, or always when
// announce is set. An unreadable directory serves no skills.
func (s *Server) refresh(announce bool) (*catalog, error) {
	asked := s.seq.Load()
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	old := s.cat.Load()
	if !announce && old != nil && old.seq > asked {
		return old, nil
	}
	seq := s.seq.Add(1)
	c, err := s.scan(seq)
	if err != nil {
		c = &catalog{seq: seq, byPath: map[string]*servedSkill{}, byURI: map[string]*servedSkill{}, diags: []string{err.Error()}}
	}
	s.cat.Store(c)
	if announce || old == nil || old.fingerprint != c.fingerprint {
		s.publish(c)
	}
	return c, err
}

// publish brings the MCP resource list up to date with c: the index and
// each served skill's SKILL.md (other files are served through the
// skill://{+path} template, not listed). Re-adding the index announces a
// change (notifications/resources/list_changed, debounced) even when the
// set of skills is the same, and clients that subscribed to the index are
// told it was updated.
func (s *Server) publish(c *catalog) {
	var gone []string
	for uri := range s.listed {
		if c.byURI[uri] == nil {
			gone = append(gone, uri)
		}
	}
	s.srv.RemoveResources(gone...)
	s.srv.AddResource(&mcp.Resource{URI: skillsext.IndexURI, Name: "index", Title: "Skills index", MIMEType: "application/json",
		Description: "Every skill this server publishes at skill://<name>/SKILL.md: name, type, description and the URI of its SKILL.md."}, s.readIndex)
	s.listed = make(map[string]bool, len(c.skills))
	for _, sk := range c.skills {
		s.srv.AddResource(&mcp.Resource{URI: sk.uri, Name: sk.name(), Description: sk.description, MIMEType: "text/markdown"}, s.readResource)
		s.listed[sk.uri] = true
	}
	_ = s.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: skillsext.IndexURI})
}

type indexEntry struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// Index returns the current index document: every served skill whose path
// is a single segment, sorted by name. An unwatched server scans the
// directory first.
func (s *Server) Index() ([]byte, error) {
	var c *catalog
	if s.watching.Load() {
		c = s.cat.Load()
	}
	if c == nil {
		var err error
		if c, err = s.refresh(false); err != nil {
			return nil, err
		}
	}
	entries := []indexEntry{}
	for _, sk := range c.skills {
		if !strings.Contains(sk.path, "/") {
			entries = append(entries, indexEntry{Name: sk.path, Type: "skill-md", Description: sk.description, URL: sk.uri})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return json.Marshal(struct {
		Schema string       `json:"$schema"`
		Skills []indexEntry `json:"skills"`
	}{IndexSchema, entries})
}

// Diagnostics says, one line each, which skills the most recent scan did
// not serve and why, which files of served skills it left out, warnings
// about served skills, and what Watch could not follow.
func (s *Server) Diagnostics() []string {
	var out []string
	if c := s.cat.Load(); c != nil {
		out = slices.Clone(c.diags)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchDiag != "" {
		out = append(out, s.watchDiag)
	}
	return out
}

// Survey says what the most recent scan found, for one line at start
// (agentskills.Survey.Summary): the skills directory, how many skills it
// serves, and which skills it does not serve and why, counted by reason.
// A directory that cannot be read is in Absent.
func (s *Server) Survey() agentskills.Survey {
	sv := agentskills.Survey{Verb: "served"}
	dir := s.dir
	if dir == "" {
		dir = "."
	}
	c := s.cat.Load()
	if c == nil {
		return sv
	}
	if _, err := fs.Stat(s.fsys, "."); err != nil {
		sv.Absent = []string{dir}
	} else {
		sv.Dirs = []string{dir}
	}
	sv.Loaded = len(c.skills)
	sv.Skipped = slices.Clone(c.skipped)
	return sv
}

func (s *Server) readIndex(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	data, err := s.Index()
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}}, nil
}
