package agentskills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Scope says where a skill root comes from.
type Scope string

const (
	// ScopeProject roots sit in the working directory or one of its
	// ancestors up to the repository root.
	ScopeProject Scope = "project"
	// ScopeUser roots sit in the home directory, or are extra roots.
	ScopeUser Scope = "user"
)

// skillFileName is the file that makes a directory a skill.
const skillFileName = "SKILL.md"

// rootSpec is one skill root to scan.
type rootSpec struct {
	path   string // absolute, cleaned, as configured or derived (not resolved)
	anchor string // the highest directory whose entry changes can affect path
	scope  Scope
	level  int // project roots: 0 for the working directory, 1 for its parent, ...
	// extra is set for Options.ExtraRoots, which may also be one skill's
	// own directory.
	extra bool
}

// layout is where a working directory's project skills may live.
type layout struct {
	projectRoot string     // "" without a working directory
	roots       []rootSpec // project roots, nearest level first
}

// projectLayout walks upward from cwd to the nearest directory holding .git
// (at most maxDepth directories, cwd included). Without one, the project is
// cwd alone.
func (c *config) projectLayout(cwd string) layout {
	if cwd == "" {
		return layout{}
	}
	levels := []string{cwd}
	found := false
	for dir := cwd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			found = true
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir || len(levels) >= c.maxDepth {
			break
		}
		dir = parent
		levels = append(levels, dir)
	}
	if !found {
		levels = levels[:1]
	}
	l := layout{projectRoot: levels[len(levels)-1]}
	for i, dir := range levels {
		for _, cd := range c.clientDirs {
			l.roots = append(l.roots, rootSpec{
				path:   filepath.Join(dir, cd, "skills"),
				anchor: dir,
				scope:  ScopeProject,
				level:  i,
			})
		}
	}
	return l
}

// candidate is a parsed, valid skill found in one root.
type candidate struct {
	dir  string // root path joined with the entry name
	file string // dir's SKILL.md
	real string // resolved directory
	fm   Frontmatter
	// searchText is the start of the body's prose (skill.SearchTextOf).
	searchText string
}

// rootScan is the result of scanning one root.
type rootScan struct {
	spec     rootSpec
	lenience lenience
	real     string // resolved root; "" when the root does not exist
	entries  int    // entries examined, counted against MaxDirs
	cands    []candidate
	diags    []Diagnostic
	complete bool
	// cacheable is false when the result must not outlive this List: it is
	// incomplete, truncated by the budget, or not fully watched.
	cacheable bool
	// unwatched is true when a watch could not be set up, so changes would
	// go unnoticed.
	unwatched bool
	// absent is true when nothing is at the root's path.
	absent bool
	// why says what made the scan incomplete, one line each.
	why []string
}

func (s *rootScan) fail(path, skill, format string, args ...any) {
	s.complete = false
	s.cacheable = false
	d := Diagnostic{Path: path, Skill: skill, Severity: SeverityError, Message: fmt.Sprintf(format, args...)}
	s.diags = append(s.diags, d)
	s.why = append(s.why, d.reason())
}

func (s *rootScan) warn(path, skill, format string, args ...any) {
	s.diags = append(s.diags, Diagnostic{Path: path, Skill: skill, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
}

// skip records that the skill at path does not load, for reason (see
// SkipReason).
func (s *rootScan) skip(path, skill, reason, format string, args ...any) {
	s.diags = append(s.diags, Diagnostic{Path: path, Skill: skill, Severity: SeverityError, Message: fmt.Sprintf(format, args...), Reason: reason})
}

// isAbsent reports errors meaning "nothing is there".
func isAbsent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// readFailure is what an error reading one skill's SKILL.md means for the
// listing.
type readFailure int

const (
	// readAbsent: nothing is there, so the entry is not a skill.
	readAbsent readFailure = iota
	// readStable: the file is there but unusable, and stays so until
	// someone changes it (a change the watcher notices, since it watches
	// the skill directory for SKILL.md and the root for its entries). The
	// skill is skipped with an error diagnostic; the listing stays
	// complete, so one bad file cannot hold back every other skill.
	readStable
	// readTransient: retrying may succeed (an I/O error, a resource
	// shortage, an interrupted call, a canceled context), or the error is
	// not known to last. The listing is incomplete, so the last good
	// catalog stays in place and the next List tries again, rather than
	// dropping a skill from every session over a passing failure.
	readTransient
)

// classifyReadError decides what err, from reading a skill's SKILL.md or
// resolving its directory, means for the listing. Only errors that describe
// the file itself are stable; anything else is transient.
func classifyReadError(err error) readFailure {
	switch {
	case isAbsent(err):
		return readAbsent
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return readTransient
	case errors.Is(err, errNotRegular),
		errors.Is(err, fs.ErrPermission), // EACCES, EPERM
		errors.Is(err, syscall.ELOOP),    // a symbolic link cycle
		errors.Is(err, syscall.ENAMETOOLONG),
		errors.Is(err, syscall.EISDIR),
		errors.Is(err, syscall.ENXIO): // a socket or a device without a driver
		return readStable
	}
	return readTransient
}

// readFailed records that what (a SKILL.md, or a skill directory's link
// target) at path could not be read, as classifyReadError decides.
func (s *rootScan) readFailed(path, skill, what string, err error) {
	switch classifyReadError(err) {
	case readAbsent:
	case readStable:
		s.skip(path, skill, ReasonUnreadable, "%s cannot be used, so the skill is skipped: %v", what, err)
	default:
		s.fail(path, skill, "cannot read %s; this listing is incomplete and the next one tries again: %v", what, err)
	}
}

// scanRoot lists one root. budget is how many entries may still be
// examined in this List. w, when non-nil, receives the watches the root
// needs, set up before the corresponding reads so no change slips between
// a read and its watch. fc holds the parses of earlier scans.
func scanRoot(ctx context.Context, spec rootSpec, lz lenience, budget int, w *watchBuilder, fc *frontCache) *rootScan {
	s := &rootScan{spec: spec, lenience: lz, complete: true, cacheable: true}
	if w != nil {
		if err := w.watchRoot(spec); err != nil {
			s.unwatched = true
			s.cacheable = false
			s.warn(spec.path, "", "cannot watch skill root; changes are picked up only when the host lists again: %v", err)
		}
	}
	fi, err := os.Stat(spec.path)
	if err != nil {
		if isAbsent(err) {
			if _, lerr := os.Lstat(spec.path); lerr == nil {
				s.fail(spec.path, "", "skill root is a symbolic link whose target does not exist")
			} else {
				s.absent = true
			}
			return s
		}
		s.fail(spec.path, "", "cannot read skill root: %v", err)
		return s
	}
	if !fi.IsDir() {
		s.fail(spec.path, "", "skill root is not a directory")
		return s
	}
	real, err := filepath.EvalSymlinks(spec.path)
	if err != nil {
		s.fail(spec.path, "", "cannot resolve skill root: %v", err)
		return s
	}
	s.real = real
	if spec.extra && isSkillDir(spec.path) {
		// One skill's own directory, given as a root: that skill.
		s.entries = 1
		scanSkill(s, spec.path, real, filepath.Base(spec.path), w, fc)
		return s
	}

	entries, truncated, err := readEntries(spec.path, budget)
	if err != nil {
		s.fail(spec.path, "", "cannot read skill root: %v", err)
		return s
	}
	s.cands = make([]candidate, 0, len(entries))
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			s.complete, s.cacheable = false, false
			s.why = append(s.why, Diagnostic{Path: spec.path, Message: "the listing was cut short: " + err.Error()}.reason())
			return s
		}
		s.entries++
		scanEntry(s, e, w, fc)
	}
	if truncated {
		s.entries = budget + 1
		s.complete, s.cacheable = false, false
	}
	return s
}

// skippedName reports entries that are never skills and never counted.
func skippedName(name string) bool {
	return name == ".git" || name == "node_modules"
}

// readEntries returns the entries of dir sorted by name, without skipped
// names, stopping once more than budget entries have been read.
func readEntries(dir string, budget int) (entries []fs.DirEntry, truncated bool, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	for {
		batch, err := f.ReadDir(256)
		for _, e := range batch {
			if !skippedName(e.Name()) {
				entries = append(entries, e)
			}
		}
		if len(entries) > budget {
			// The scan is incomplete anyway; which entries made it in does
			// not matter.
			truncated = true
			break
		}
		if err == io.EOF || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if truncated {
		entries = entries[:budget]
	}
	return entries, truncated, nil
}

// scanEntry examines one entry of a root.
func scanEntry(s *rootScan, e fs.DirEntry, w *watchBuilder, fc *frontCache) {
	name := e.Name()
	dir := filepath.Join(s.spec.path, name)
	real := filepath.Join(s.real, name)
	if e.Type()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(dir)
		if err != nil {
			if isAbsent(err) {
				s.warn(dir, name, "symbolic link target does not exist; skipped")
			} else {
				s.warn(dir, name, "cannot resolve symbolic link (loop?); skipped: %v", err)
			}
			return
		}
		if target == s.real || strings.HasPrefix(s.real, target+string(filepath.Separator)) {
			s.warn(dir, name, "symbolic link points at the skill root or one of its ancestors (a loop); skipped")
			return
		}
		tfi, err := os.Stat(target)
		if err != nil {
			s.readFailed(dir, name, "symbolic link target", err)
			return
		}
		if !tfi.IsDir() {
			return
		}
		real = target
	} else if !e.IsDir() {
		return
	}
	scanSkill(s, dir, real, name, w, fc)
}

// isSkillDir reports whether dir holds an entry spelled exactly SKILL.md.
func isSkillDir(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, skillFileName))
	return err == nil && exactSkillFileName(dir)
}

// scanSkill examines the skill directory dir, resolved to real and named
// name in its root, and adds it to the scan's candidates if it loads.
func scanSkill(s *rootScan, dir, real, name string, w *watchBuilder, fc *frontCache) {
	if w != nil {
		if err := w.watchSkill(real); err != nil && !isAbsent(err) {
			s.unwatched = true
			s.cacheable = false
			s.warn(dir, name, "cannot watch skill directory; changes are picked up only when the host lists again: %v", err)
		}
	}

	file := filepath.Join(dir, skillFileName)
	pr, err := readFrontmatter(file, fc)
	if err != nil {
		s.readFailed(file, name, skillFileName, err)
		return
	}
	fm, warnings, err := s.lenience.interpret(pr, name)
	skill := name
	if fm.Name != "" {
		skill = fm.Name
	}
	for _, m := range warnings {
		s.warn(file, skill, "%s", m)
	}
	if err != nil {
		s.skip(file, skill, SkipReason(err), "skipped: %v", err)
		return
	}
	s.cands = append(s.cands, candidate{dir: dir, file: file, real: real, fm: fm, searchText: pr.searchText})
}

var errNotRegular = errors.New("not a regular file")

// readFrontmatter returns the parse of a SKILL.md's frontmatter. When fc
// holds a parse of the same file version, the file is only stat'ed;
// otherwise as much of it is read as can hold the frontmatter (the whole
// file when it is small, else the first frontmatterPrefixBytes), and the
// parse is cached under the identity of the file that was read.
func readFrontmatter(file string, fc *frontCache) (*parsed, error) {
	readStart := fc.now()
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	if !exactSkillFileName(filepath.Dir(file)) {
		return nil, fs.ErrNotExist
	}
	if id, ok := fileid.Of(fi); ok {
		if pr := fc.get(file, id); pr != nil {
			return pr, nil
		}
	}
	f, fi, err := openStated(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseOpened(file, f, fi, fc, readStart)
}

// parsePrefix parses the frontmatter at the start of data. cost is the
// size of the frontmatter text, a measure of what the result keeps alive.
func parsePrefix(data []byte) (pr *parsed, cost int) {
	front, body, closed, err := splitFrontmatter(data)
	if errors.Is(err, errNoFrontmatter) {
		body := bytes.TrimPrefix(data, utf8BOM)
		para := firstParagraph(body)
		text := skill.SearchTextOf(string(body))
		return &parsed{err: err, noFront: true, firstParagraph: para, searchText: text}, len(para) + len(text)
	}
	if err == nil && !closed {
		err = errNotClosed
	}
	if err != nil {
		return &parsed{err: err}, 0
	}
	fm, warnings, err := parseFrontmatter(front)
	if err != nil {
		return &parsed{err: err}, len(front)
	}
	pr = &parsed{fm: fm, warnings: warnings, searchText: skill.SearchTextOf(string(body))}
	if strings.TrimSpace(fm.Description) == "" {
		pr.firstParagraph = firstParagraph(body)
	}
	return pr, len(front) + len(pr.firstParagraph) + len(pr.searchText)
}

// openStated opens a file that a stat found regular and returns the
// opened file's own FileInfo, which describes what will be read even if
// the path was replaced since.
func openStated(file string) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	return statRegular(f)
}

// statRegular returns the opened file f with its own FileInfo, or closes
// it and fails unless it is a regular file.
func statRegular(f *os.File) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, fi, nil
}

// exactSkillFileName checks, on file systems that ignore case, that the
// file opened as SKILL.md is spelled exactly so. Elsewhere the open itself
// was exact.
func exactSkillFileName(dir string) bool {
	switch runtime.GOOS {
	case "darwin", "ios", "windows":
	default:
		return true
	}
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	return slices.Contains(names, skillFileName)
}
