package skillserver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// skillFileName is the file that makes a directory a skill.
const skillFileName = skillsext.SkillFileName

// MaxResourceBytes bounds every file the server sends, as the MCP provider
// bounds what it reads (skill.MaxSkillFileBytes, 8 MiB).
const MaxResourceBytes = skill.MaxSkillFileBytes

// readResource serves a file of a served skill, as its entry lists it; see
// the package documentation for the rule that keeps reads and entries in
// agreement.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	segs, err := parseSkillURI(uri)
	if err != nil || len(segs) < 2 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	for attempt := 0; ; attempt++ {
		c := s.cat.Load()
		got, stale := s.readListed(c, segs)
		switch {
		case got != nil:
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{contents(uri, segs[len(segs)-1], got)}}, nil
		case stale == staleNo:
			return nil, mcp.ResourceNotFoundError(uri)
		case attempt == 0:
			// The files changed since the last scan: scan again (which
			// tells clients when the listing changed), then answer from
			// the new entry.
			_, _ = s.refresh(false)
		case stale == staleChanged:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: clip(uri, 512) + " changed while it was read; read it again"}
		default:
			return nil, mcp.ResourceNotFoundError(uri)
		}
	}
}

// Why a read found no bytes that agree with the catalog.
type staleness int

const (
	staleNo      staleness = iota // not a served file, as far as the files on disk tell
	staleChanged                  // listed, but its bytes now differ or it is gone
	staleNew                      // not listed, but a file changed since the scan is there
)

// readListed reads the file at segs and returns its bytes if a served
// skill of c lists it with their size and digest. Otherwise it says whether
// a scan could change that.
func (s *Server) readListed(c *catalog, segs []string) ([]byte, staleness) {
	skills, rels := c.owners(segs)
	if len(skills) == 0 {
		return nil, staleNo
	}
	for i, sk := range skills {
		want, listed := sk.files[rels[i]]
		if !listed {
			continue
		}
		data, _, err := s.readServed(sk, rels[i])
		if err != nil {
			return nil, staleChanged
		}
		if int64(len(data)) != want.size || sha256.Sum256(data) != want.digest {
			return nil, staleChanged
		}
		return data, staleNo
	}
	// Not listed: a file added or changed since the scan makes the
	// deepest skill that holds it stale; any other file stays unserved.
	_, id, err := s.readServed(skills[0], rels[0])
	if err == nil && (id == nil || racy(*id, c.started)) {
		return nil, staleNew
	}
	return nil, staleNo
}

// readServed reads the file rel (below the skill's directory) as the
// scan does, through the skill's directory opened once: SKILL.md through
// its own checks, any other file confined to the directory. It returns the identity of the version read, if the
// file system gives one.
func (s *Server) readServed(sk *servedSkill, rel string) ([]byte, *fileid.ID, error) {
	tree, err := s.openTree(sk.path)
	if err != nil {
		return nil, nil, err
	}
	defer tree.close()
	read := readSkillFile
	if rel != skillFileName {
		read = func(tree *skillTree) ([]byte, fileID, bool, error) { return readChild(tree, rel) }
	}
	data, id, ok, err := read(tree)
	return data, idPtr(id, ok), err
}

func idPtr(id fileid.ID, ok bool) *fileid.ID {
	if !ok {
		return nil
	}
	return &id
}

// contents is a file as MCP resource contents: text when it is UTF-8,
// otherwise a blob (base64 on the wire).
func contents(uri, name string, data []byte) *mcp.ResourceContents {
	if !utf8.Valid(data) {
		return &mcp.ResourceContents{URI: uri, MIMEType: "application/octet-stream", Blob: data}
	}
	t, ok := mimeType(name)
	if !ok {
		t = "text/plain"
	}
	return &mcp.ResourceContents{URI: uri, MIMEType: t, Text: string(data)}
}

// textMIMETypes names text files by extension.
var textMIMETypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".py": "text/x-python", ".sh": "text/x-shellscript",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml", ".html": "text/html",
	".css": "text/css", ".js": "text/javascript", ".mjs": "text/javascript", ".csv": "text/csv", ".xml": "text/xml",
	".txt": "text/plain",
}

// mimeType names the type of a text file by its extension, if it is known.
func mimeType(name string) (string, bool) {
	t, ok := textMIMETypes[strings.ToLower(path.Ext(name))]
	return t, ok
}

// notServed is the -32602 error of a URI the server does not serve.
func notServed(format string, uri string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, clip(uri, 512))}
}
