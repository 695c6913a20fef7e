package skillserver

import (
	"bytes"
	"io/fs"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// settled returns the catalog to answer a request about the skills at
// paths from. A watched server answers from its last scan, which the
// watcher keeps current. Any other server (one made with New, or one whose
// tree has more directories than Watch follows) looks up each of those
// skills alone, as a scan would judge it now (lookup: the skill's own
// directory and files, never the rest of the tree), and answers from the
// last scan when it agrees on every one, or else from a new scan. So
// skills/get and resources/directory/read are as fresh as a scan would
// make them, while the whole tree is scanned only when one of the skills
// they ask about changed, not at every request.
func (s *Server) settled(paths ...string) *catalog {
	c := s.cat.Load()
	if c == nil {
		return s.current()
	}
	if s.watching.Load() {
		return c
	}
	for _, p := range paths {
		if !s.agrees(c, p) {
			c, _ = s.refresh(false)
			return c
		}
	}
	return c
}

// agrees reports whether the catalog c serves the skill at p as a scan
// would now: neither serves one, or both serve the same entry. A skill on
// disk that c does not serve agrees when c's scan stopped at
// maxScanEntries, since a scan would not reach it either.
func (s *Server) agrees(c *catalog, p string) bool {
	was, now := c.byPath[p], s.lookup(c, p)
	switch {
	case now == nil:
		return was == nil
	case was == nil:
		return c.truncated
	}
	return was == now || was.uri == now.uri && was.description == now.description &&
		bytes.Equal(was.entry.Frontmatter, now.entry.Frontmatter) && bytes.Equal(was.entry.Resources, now.entry.Resources)
}

// lookup returns the skill a scan would serve at p now, judged alone, or
// nil when a scan would serve none there. An unchanged skill comes back as
// last's own (scanner.previous).
func (s *Server) lookup(last *catalog, p string) *servedSkill {
	if skillPathProblem(p) != "" {
		return nil
	}
	entries, ok := s.discoverable(p)
	if !ok {
		return nil
	}
	sc := &scanner{s: s, last: last, seen: make(map[string]bool), listings: map[string][]fs.DirEntry{p: entries}}
	sk, err := sc.serve(p)
	if err != nil {
		return nil
	}
	return sk
}

// discoverable reports whether a scan's discovery walk would find a skill
// directory at p, and returns the directory's entries: p holds an entry
// named exactly SKILL.md, and every directory on the way is a directory, a
// link only for the first, as discovery follows links to directories only
// in the skills directory itself. A path without a SKILL.md costs one
// stat.
func (s *Server) discoverable(p string) ([]fs.DirEntry, bool) {
	if _, err := fs.Lstat(s.fsys, p+"/"+skillFileName); err != nil {
		return nil, false
	}
	for i := 0; i >= 0; {
		end := strings.IndexByte(p[i:], '/')
		prefix, next := p, -1
		if end >= 0 {
			prefix, next = p[:i+end], i+end+1
		}
		stat := fs.Lstat
		if i == 0 {
			stat = fs.Stat
		}
		if fi, err := stat(s.fsys, prefix); err != nil || !fi.IsDir() {
			return nil, false
		}
		i = next
	}
	entries, err := fs.ReadDir(s.fsys, p)
	if err != nil || !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == skillFileName }) {
		return nil, false
	}
	return entries, true
}

// ownerPaths returns the paths of the directories that could be skills
// holding the file or directory at segs (decoded URI segments), deepest
// first: the prefixes of at most skill.MaxQualifiedSegments segments.
func ownerPaths(segs []string) []string {
	var paths []string
	for i := min(len(segs), skill.MaxQualifiedSegments); i >= 1; i-- {
		paths = append(paths, strings.Join(segs[:i], "/"))
	}
	return paths
}
