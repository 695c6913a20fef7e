package skillserver

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// Page sizes.
const (
	// listPageSkills and listPageBytes bound a skills/list page: at most
	// this many entries, and no entry past this many bytes of entries
	// (a page holds at least one).
	listPageSkills = 100
	listPageBytes  = 1 << 20
	// directoryPageSize bounds a resources/directory/read page.
	directoryPageSize = 500
)

// addExtensionMethods registers the methods of the MCP Skills extension.
func addExtensionMethods(s *Server) {
	for _, err := range []error{
		mcp.AddReceivingCustomMethod(s.srv, skillsext.MethodList, s.listSkills),
		mcp.AddReceivingCustomMethod(s.srv, skillsext.MethodGet, s.getSkill),
		mcp.AddReceivingCustomMethod(s.srv, skillsext.MethodDirectoryRead, s.readDirectory),
	} {
		if err != nil {
			panic(err) // the names are fixed and not standard MCP methods
		}
	}
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// listSkills answers skills/list: one page of entries, sorted by URI.
func (s *Server) listSkills(_ context.Context, _ *mcp.ServerSession, p *skillsext.ListParams) (*skillsext.ListResult, error) {
	var cursor string
	if p != nil {
		cursor = p.Cursor
	}
	after, err := decodeCursor(cursorSkills, cursor)
	if err != nil {
		return nil, invalidParams("skills/list: the cursor was not written by this server")
	}
	// A listing scans once, for its first page; later pages resume from
	// that scan's catalog, or a newer one.
	c := s.cat.Load()
	if cursor == "" || c == nil {
		c = s.current()
	}
	i := sort.Search(len(c.skills), func(i int) bool { return c.skills[i].uri > after })
	res := &skillsext.ListResult{ResultType: skillsext.ResultTypeComplete, Skills: []skillsext.Skill{}, CacheScope: cacheScope}
	size := 0
	for ; i < len(c.skills) && len(res.Skills) < listPageSkills; i++ {
		sk := c.skills[i]
		if len(res.Skills) > 0 && size+sk.entrySize > listPageBytes {
			break
		}
		res.Skills = append(res.Skills, sk.entry)
		size += sk.entrySize
	}
	if i < len(c.skills) {
		res.NextCursor = encodeCursor(cursorSkills, c.skills[i-1].uri)
	}
	return res, nil
}

// getSkill answers skills/get: the entry of one served skill.
func (s *Server) getSkill(_ context.Context, _ *mcp.ServerSession, p *skillsext.GetParams) (*skillsext.GetResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("skills/get: params.uri, the URI of a skill's SKILL.md, is required")
	}
	var c *catalog
	if segs, err := parseSkillURI(p.URI); err == nil && len(segs) >= 2 && segs[len(segs)-1] == skillFileName {
		c = s.settled(strings.Join(segs[:len(segs)-1], "/"))
	} else {
		c = s.settled() // no skill can be served there
	}
	sk := c.byURI[p.URI]
	if sk == nil {
		return nil, notServed("No skill is served at %s", p.URI)
	}
	return &skillsext.GetResult{ResultType: skillsext.ResultTypeComplete, Skill: sk.entry, CacheScope: cacheScope}, nil
}

// readDirectory answers resources/directory/read: the direct children of a
// served skill's directory or of a directory below it, as served now.
func (s *Server) readDirectory(_ context.Context, _ *mcp.ServerSession, p *skillsext.DirectoryReadParams) (*skillsext.DirectoryReadResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("resources/directory/read: params.uri, the URI of a directory, is required")
	}
	after, err := decodeCursor(cursorDirectory, p.Cursor)
	if err != nil {
		return nil, invalidParams("resources/directory/read: the cursor was not written by this server")
	}
	segs, err := parseSkillURI(p.URI)
	if err != nil {
		return nil, notServed("%s is not a directory resource", p.URI)
	}
	skills, rels := s.settled(ownerPaths(segs)...).owners(segs)
	if len(skills) == 0 {
		return nil, notServed("%s is not a directory resource", p.URI)
	}
	children, err := s.children(skills[0], rels[0], p.URI)
	if err != nil {
		return nil, notServed("%s is not a directory resource", p.URI)
	}
	i := sort.Search(len(children), func(i int) bool { return children[i].Name > after })
	res := &skillsext.DirectoryReadResult{ResultType: skillsext.ResultTypeComplete, Resources: children[i:min(i+directoryPageSize, len(children))], CacheScope: cacheScope}
	if i+directoryPageSize < len(children) {
		res.NextCursor = encodeCursor(cursorDirectory, res.Resources[len(res.Resources)-1].Name)
	}
	return res, nil
}

// children lists the directory rel ("" for the root) of a served skill as
// resources, sorted by name: the subdirectories and the files the server
// would serve there now. A path that is not a directory (a file, a link, a
// missing path) is an error.
func (s *Server) children(sk *servedSkill, rel, dirURI string) ([]*mcp.Resource, error) {
	tree, err := s.openTree(sk.path)
	if err != nil {
		return nil, err
	}
	defer tree.close()
	if !s.holdsSkill(tree, sk) {
		return nil, fmt.Errorf("%s no longer holds the skill's SKILL.md", sk.path)
	}
	dir := "."
	if rel != "" {
		dir = rel
		// Every component must be a directory, not a link: the manifest
		// never follows a link to a directory either.
		for i := range strings.Split(rel, "/") {
			prefix := strings.Join(strings.Split(rel, "/")[:i+1], "/")
			fi, err := fs.Lstat(tree.fsys, prefix)
			if err != nil || !fi.IsDir() {
				return nil, fmt.Errorf("%s is not a directory", prefix)
			}
		}
	}
	entries, err := fs.ReadDir(tree.fsys, dir)
	if err != nil {
		return nil, err
	}
	out := []*mcp.Resource{}
	for _, e := range entries {
		name := e.Name()
		if !servableName(name) {
			continue
		}
		child := dirURI + "/" + skillsext.EncodeSegment(name)
		if e.IsDir() {
			out = append(out, &mcp.Resource{URI: child, Name: name, MIMEType: skillsext.DirectoryMIMEType})
			continue
		}
		childRel := strings.TrimPrefix(rel+"/"+name, "/")
		if childRel == skillFileName {
			// The skill's own SKILL.md may be a link out of its directory.
			f := sk.files[skillFileName]
			out = append(out, &mcp.Resource{URI: child, Name: name, MIMEType: "text/markdown", Size: f.size})
			continue
		}
		fi, err := fs.Stat(tree.fsys, childRel) // links followed inside the directory only
		if err != nil || checkFile(name, fi) != "" {
			continue
		}
		r := &mcp.Resource{URI: child, Name: name, Size: fi.Size()}
		r.MIMEType, _ = mimeType(name)
		out = append(out, r)
	}
	return out, nil
}
