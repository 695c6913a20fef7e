package skillserver

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// Scan bounds.
const (
	// maxDiagnostics bounds the diagnostics kept from one scan.
	maxDiagnostics = 100
	// maxScanEntries bounds the files and directories one scan visits;
	// past it, the rest of the tree is not served (a diagnostic says so).
	maxScanEntries = 1 << 18
	// maxIndexDescription bounds an index description, in characters. The
	// description is normalized as the plugin normalizes catalog
	// descriptions (control and format characters removed, whitespace
	// collapsed), and the bound is the Agent Skills limit on a description,
	// so clients that cap lower still cut a clean string.
	maxIndexDescription = 1024
)

// catalog is what one scan of the skills directory found: the served
// skills, sorted by URI, and why the others are not served.
type catalog struct {
	seq     uint64    // the scan's number, for coalescing requests that need one
	started time.Time // when the scan began, by the server's clock
	skills  []*servedSkill
	byPath  map[string]*servedSkill
	byURI   map[string]*servedSkill
	diags   []string
	// skipped are the skills found and not served, with why.
	skipped []agentskills.SkippedSkill
	// truncated is set when the scan stopped at maxScanEntries: skills
	// past that point are not served.
	truncated bool
	// fingerprint changes whenever an entry or the index changes.
	fingerprint [sha256.Size]byte
}

// servedSkill is one skill the server serves, with its entry.
type servedSkill struct {
	path        string // slash-separated, below the skills directory: "acme/billing/refunds"
	uri         string
	description string // normalized, for the index
	entry       skillsext.Skill
	entrySize   int                   // the entry's encoded size, for page budgets
	files       map[string]fileDigest // by path below the skill directory
	parse       *parsedSkill          // of the SKILL.md version the entry was made from
}

type fileDigest struct {
	size   int64
	digest [sha256.Size]byte
}

// name is the skill's name, the last segment of its path.
func (sk *servedSkill) name() string { return sk.path[strings.LastIndexByte(sk.path, '/')+1:] }

// owners returns the served skills whose directory holds the file or
// directory at segs (decoded URI segments below skill://), deepest first,
// each with the path below it ("" for the skill's own directory).
func (c *catalog) owners(segs []string) (skills []*servedSkill, rels []string) {
	for i := len(segs); i >= 1; i-- {
		if sk := c.byPath[strings.Join(segs[:i], "/")]; sk != nil {
			skills = append(skills, sk)
			rels = append(rels, strings.Join(segs[i:], "/"))
		}
	}
	return skills, rels
}

// scanner builds one catalog.
type scanner struct {
	s       *Server
	last    *catalog // the previous scan's, whose unchanged entries are reused
	visited int
	full    bool            // maxScanEntries was reached
	seen    map[string]bool // cache keys of the files seen
	// listings holds the directories discover read, by path below the
	// skills directory, so that manifest walks do not read them again.
	listings map[string][]fs.DirEntry
	diags    []string
}

// visit counts n entries against maxScanEntries and reports whether the
// scan may go on.
func (sc *scanner) visit(n int) bool {
	sc.visited += n
	if sc.visited > maxScanEntries && !sc.full {
		sc.full = true
		sc.diags = append(sc.diags, fmt.Sprintf("more than %d files and directories below the skills directory: the rest are not served", maxScanEntries))
	}
	return !sc.full
}

// scan reads the skills directory and builds a catalog.
func (s *Server) scan(seq uint64) (*catalog, error) {
	started := s.now()
	sc := &scanner{s: s, last: s.cat.Load(), seen: make(map[string]bool), listings: make(map[string][]fs.DirEntry)}
	if sc.last == nil {
		sc.last = &catalog{}
	}
	paths, err := sc.discover()
	if err != nil {
		return nil, err
	}
	c := &catalog{seq: seq, started: started, byPath: make(map[string]*servedSkill), byURI: make(map[string]*servedSkill)}
	for _, p := range paths {
		sk, err := sc.serve(p)
		switch {
		case errors.Is(err, errNoSkillFile):
		case err != nil:
			sc.diags = append(sc.diags, clip(fmt.Sprintf("skill %s is not served: %v", p, err), 400))
			c.skipped = append(c.skipped, agentskills.SkippedSkill{Path: p, Skill: p[strings.LastIndexByte(p, '/')+1:], Reason: reasonOf(err), Detail: err.Error()})
		default:
			c.skills = append(c.skills, sk)
			c.byPath[sk.path] = sk
			c.byURI[sk.uri] = sk
		}
	}
	s.forgetExcept(sc.seen)
	sort.Slice(c.skills, func(i, j int) bool { return c.skills[i].uri < c.skills[j].uri })
	if n := len(sc.diags) - maxDiagnostics; n > 0 {
		sc.diags = append(sc.diags[:maxDiagnostics], fmt.Sprintf("%d more diagnostics", n))
	}
	c.diags, c.truncated = sc.diags, sc.full
	h := sha256.New()
	for _, sk := range c.skills {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", sk.uri, sk.entry.Frontmatter, sk.entry.Resources, sk.description)
	}
	h.Sum(c.fingerprint[:0])
	return c, nil
}

// discover returns the directories below the skills directory that hold a
// SKILL.md, at most skill.MaxQualifiedSegments deep. Hidden directories are
// skipped, and links to directories are followed only where a skill
// directory itself is linked into the skills directory.
func (sc *scanner) discover() ([]string, error) {
	var found []string
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		entries, err := fs.ReadDir(sc.s.fsys, dir)
		if err != nil {
			if dir == "." {
				return fmt.Errorf("read skills directory: %w", err)
			}
			return nil // gone or unreadable: nothing below it is served
		}
		if !sc.visit(len(entries)) {
			return nil
		}
		sc.listings[dir] = entries
		for _, e := range entries {
			if e.Name() == skillFileName && dir != "." {
				found = append(found, dir)
			}
		}
		if depth >= skill.MaxQualifiedSegments {
			return nil
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || name == skillFileName {
				continue
			}
			isDir := e.IsDir()
			if !isDir && dir == "." && e.Type()&fs.ModeSymlink != 0 {
				fi, err := fs.Stat(sc.s.fsys, name)
				isDir = err == nil && fi.IsDir()
			}
			if isDir {
				if err := walk(path.Join(dir, name), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(".", 0); err != nil {
		return nil, err
	}
	return found, nil
}

// skipError is why a skill is not served, with its short reason.
type skipError struct {
	reason string
	err    error
}

func (e *skipError) Error() string { return e.err.Error() }
func (e *skipError) Unwrap() error { return e.err }

// reasonOf returns the short reason of serve's error: its own, or for an
// error reading the skill's files, agentskills.ReasonUnreadable.
func reasonOf(err error) string {
	var ns *skipError
	if errors.As(err, &ns) {
		return ns.reason
	}
	return agentskills.ReasonUnreadable
}

// serve builds the entry of the skill at path, or says why it is not
// served.
func (sc *scanner) serve(p string) (*servedSkill, error) {
	if why := skillPathProblem(p); why != "" {
		return nil, &skipError{ReasonFolderName, errors.New(why)}
	}
	sc.seen[p+"/"+skillFileName] = true
	tree, err := sc.s.openTree(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errNoSkillFile // gone since discovery
	case err != nil:
		return nil, fmt.Errorf("cannot open its directory: %s", reason(err))
	}
	defer tree.close()
	v, err := sc.s.skillVersion(tree, p)
	if err != nil {
		return nil, err
	}
	if v.skill.why != "" {
		return nil, &skipError{v.skill.reason, errors.New(v.skill.why)}
	}
	for _, w := range v.skill.warnings {
		sc.diags = append(sc.diags, clip(fmt.Sprintf("skill %s: %s", p, w), 400))
	}
	files, err := sc.manifest(tree, p, v)
	if err != nil {
		return nil, err
	}
	if sk := sc.previous(p, v, files); sk != nil {
		return sk, nil
	}
	sk := &servedSkill{
		path:        p,
		uri:         skillURI(p),
		description: render.NormalizeDescription(v.skill.fm.Description, maxIndexDescription),
		files:       files,
		parse:       v.skill,
	}
	resources := make([]skillsext.SkillResource, 0, len(files))
	for rel, f := range files {
		resources = append(resources, skillsext.SkillResource{URI: fileURI(p, rel), Digest: skillsext.FormatDigest(f.digest), Size: f.size})
	}
	sort.Slice(resources, func(i, j int) bool { return resources[i].URI < resources[j].URI })
	list, err := json.Marshal(resources)
	if err != nil {
		return nil, fmt.Errorf("encode its entry: %w", err)
	}
	sk.entry = skillsext.Skill{URI: sk.uri, Frontmatter: v.skill.obj, Resources: list}
	sk.entrySize = len(sk.uri) + len(v.skill.obj) + len(list) + 48
	return sk, nil
}

// previous returns the skill at p from the last catalog if its SKILL.md
// parse and its files are the same, so an unchanged entry is not encoded
// again.
func (sc *scanner) previous(p string, v *fileVersion, files map[string]fileDigest) *servedSkill {
	sk := sc.last.byPath[p]
	if sk == nil || sk.parse != v.skill || !maps.Equal(sk.files, files) {
		return nil
	}
	return sk
}
