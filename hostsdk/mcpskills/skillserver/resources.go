package skillserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/hostsdk/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill"
)

// skillFileName is the file that makes a directory a skill.
const skillFileName = "SKILL.md"

// MaxResourceBytes bounds every file the server sends, as the MCP provider
// bounds what it reads (skill.MaxSkillFileBytes, 8 MiB).
const MaxResourceBytes = skill.MaxSkillFileBytes

// readResource serves skill://<name>/<path>: the skill's SKILL.md, or any
// other file below the skill's directory.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, rel, err := s.resolveURI(uri)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if rel == skillFileName {
		return s.readSkill(uri, name)
	}
	// Only skills the index serves have files to serve.
	if _, err := s.frontmatter(name); err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	data, err := s.readChild(name, rel)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{contents(uri, rel, data)}}, nil
}

// resolveURI splits a canonical skill://<name>/<path> URI into the skill's
// directory and the decoded slash-separated path below it. Everything
// mcpskills.ValidateChildURI rejects is rejected (another scheme, dot
// segments, empty segments, backslashes, encoded separators or control
// characters), and so is any segment that starts with "." after decoding:
// hidden files and directories (.git, .env) are not published.
func (s *Server) resolveURI(uri string) (name, rel string, err error) {
	rest, ok := strings.CutPrefix(uri, "skill://")
	if !ok {
		return "", "", errors.New("not a skill:// URI")
	}
	name, _, _ = strings.Cut(rest, "/")
	if !validDir(name) {
		return "", "", errors.New("not a skill directory")
	}
	if err := mcpskills.ValidateChildURI(name, uri); err != nil {
		return "", "", err
	}
	segs := strings.Split(strings.TrimPrefix(rest, name+"/"), "/")
	for i, seg := range segs {
		dec, err := url.PathUnescape(seg)
		if err != nil || dec == "" || dec[0] == '.' || strings.ContainsAny(dec, "/\\\x00") {
			return "", "", fmt.Errorf("path segment %q is not served", seg)
		}
		segs[i] = dec
	}
	rel = strings.Join(segs, "/")
	if !fs.ValidPath(rel) {
		return "", "", fmt.Errorf("path %q is not served", rel)
	}
	return name, rel, nil
}

// readSkill serves a skill's SKILL.md, byte for byte (frontmatter
// included, as the skill-md type defines), if the index serves the skill.
func (s *Server) readSkill(uri, name string) (*mcp.ReadResourceResult, error) {
	// The file served is the one judged: read once, then checked.
	data, _, _, err := s.readFile(name + "/" + skillFileName)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if _, why := judge(name, data); why != "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(data)}}}, nil
}

// readChild reads the file at rel below skill directory name: a regular
// file (links followed only while they stay inside the skill's directory)
// of at most MaxResourceBytes.
func (s *Server) readChild(name, rel string) ([]byte, error) {
	f, err := s.openChild(name, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file but %s", rel, describeType(fi.Mode()))
	}
	if fi.Size() > MaxResourceBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", rel, MaxResourceBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxResourceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxResourceBytes {
		return nil, fmt.Errorf("%s grew past %d bytes", rel, MaxResourceBytes)
	}
	return data, nil
}

// contents is a file as MCP resource contents: text when it is UTF-8,
// otherwise a blob (base64 on the wire).
func contents(uri, rel string, data []byte) *mcp.ResourceContents {
	if !utf8.Valid(data) {
		return &mcp.ResourceContents{URI: uri, MIMEType: "application/octet-stream", Blob: data}
	}
	return &mcp.ResourceContents{URI: uri, MIMEType: textMIMEType(rel), Text: string(data)}
}

// textMIMETypes names text files by extension; anything else is
// text/plain.
var textMIMETypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".py": "text/x-python", ".sh": "text/x-shellscript",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml", ".html": "text/html",
	".css": "text/css", ".js": "text/javascript", ".mjs": "text/javascript", ".csv": "text/csv", ".xml": "text/xml",
}

// textMIMEType names the type of a text file by its extension.
func textMIMEType(rel string) string {
	if t, ok := textMIMETypes[strings.ToLower(path.Ext(rel))]; ok {
		return t
	}
	return "text/plain"
}
