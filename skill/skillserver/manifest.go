package skillserver

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// skillTree reaches the files of one skill directory and nothing outside
// it.
type skillTree struct {
	fsys fs.FS                             // ReadDir, Stat and Lstat, relative to the skill directory
	open func(rel string) (fs.File, error) // opens a file without blocking on a FIFO
	// openSkill opens the directory's SKILL.md, which may be a link to a
	// regular file anywhere, without blocking on a FIFO where it can;
	// statSkill describes what it leads to (see openChecked).
	openSkill func() (fs.File, error)
	statSkill func() (fs.FileInfo, error)
	close     func()
}

// fsTree is the tree of the skill directory at skillPath in fsys, for a
// server made with New: resolved by path at every call, as fsys resolves.
func fsTree(fsys fs.FS, skillPath string) (*skillTree, error) {
	if !fs.ValidPath(skillPath) {
		return nil, &fs.PathError{Op: "open", Path: skillPath, Err: fs.ErrInvalid}
	}
	sub := subFS{fsys, skillPath}
	return &skillTree{
		fsys:      sub,
		open:      sub.Open,
		openSkill: func() (fs.File, error) { return sub.Open(skillFileName) },
		statSkill: func() (fs.FileInfo, error) { return sub.Stat(skillFileName) },
		close:     func() {},
	}, nil
}

// subFS is the directory dir of fsys. Unlike fs.Sub's, it passes stats on
// to fsys, which may answer them without opening the file.
type subFS struct {
	fsys fs.FS
	dir  string
}

func (s subFS) full(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return path.Join(s.dir, name), nil
}

func (s subFS) Open(name string) (fs.File, error) {
	full, err := s.full("open", name)
	if err != nil {
		return nil, err
	}
	return s.fsys.Open(full)
}

func (s subFS) Stat(name string) (fs.FileInfo, error) {
	full, err := s.full("stat", name)
	if err != nil {
		return nil, err
	}
	return fs.Stat(s.fsys, full)
}

func (s subFS) ReadDir(name string) ([]fs.DirEntry, error) {
	full, err := s.full("readdir", name)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(s.fsys, full)
}

// maxListedExclusions bounds the files one diagnostic names.
const maxListedExclusions = 5

// candidate is a file the manifest walk found, before it is hashed.
type candidate struct {
	rel string
	fi  fs.FileInfo // of the file a link leads to, for a link
}

// manifest lists every file of the skill at path, read through tree, the
// directory its SKILL.md was read from: SKILL.md (whose version v was read
// already) and every other regular file below the directory,
// nested skills' files included, with sizes and digests. Hidden files and
// directories are not served, and neither is a file that is not regular
// (a FIFO, a device, a link to a directory), larger than MaxResourceBytes,
// reached only through a link that leaves the skill directory, or named so
// that no URI can spell it; a diagnostic names those. A skill of more than
// skillsext.MaxSkillResources files or skillsext.MaxSkillBytes bytes in all
// is not served.
func (sc *scanner) manifest(tree *skillTree, p string, v *fileVersion) (map[string]fileDigest, error) {
	found, excluded, err := sc.walkTree(p, tree)
	if err != nil {
		return nil, err
	}
	total := v.size
	for _, c := range found {
		total += c.fi.Size()
	}
	switch {
	case len(found)+1 > skillsext.MaxSkillResources:
		return nil, &skipError{ReasonOverLimits, fmt.Errorf("it has more than %d files, the MCP Skills extension's limit per skill", skillsext.MaxSkillResources)}
	case total > skillsext.MaxSkillBytes:
		return nil, &skipError{ReasonOverLimits, fmt.Errorf("its files hold %d bytes, more than the MCP Skills extension's limit of %d (16 MiB) per skill", total, skillsext.MaxSkillBytes)}
	}
	files := map[string]fileDigest{skillFileName: {size: v.size, digest: v.digest}}
	total = v.size
	for _, c := range found {
		d, why := sc.digest(tree, p, c)
		if why != "" {
			excluded = append(excluded, why)
			continue
		}
		files[c.rel] = d
		total += d.size
	}
	if total > skillsext.MaxSkillBytes { // a file grew while it was hashed
		return nil, &skipError{ReasonOverLimits, fmt.Errorf("its files hold %d bytes, more than the MCP Skills extension's limit of %d (16 MiB) per skill", total, skillsext.MaxSkillBytes)}
	}
	if len(excluded) > 0 {
		sc.diags = append(sc.diags, exclusionDiagnostic(p, excluded))
	}
	return files, nil
}

// errEnough stops a walk that found all it needs.
var errEnough = errors.New("enough")

// Bounds of the walk of one skill's files. A skill of the extension's
// MaxSkillResources (512) files needs far fewer folders and entries, even
// with every file in a folder of its own two levels down; a tree of many
// more is a package or build tree left inside (a node_modules), and
// walking it would cost every scan, and every skills/get that judges the
// skill alone, a read of each of its folders. A skill past either bound
// is not served, and its walk stops there.
const (
	// maxSkillFolders bounds the folders below a skill's directory that
	// the walk reads (hidden ones, which it does not read, aside).
	maxSkillFolders = 4 * skillsext.MaxSkillResources
	// maxSkillEntries bounds the entries, of every kind, of the folders
	// the walk reads, the skill's directory among them.
	maxSkillEntries = 8 * skillsext.MaxSkillResources
)

// walkTree finds the files of a skill directory other than its SKILL.md,
// stopping past the per-skill file limit. It returns them and why others
// are left out. A skill of more than maxSkillFolders folders or
// maxSkillEntries entries is not served, and its walk stops there.
func (sc *scanner) walkTree(p string, tree *skillTree) (found []candidate, excluded []string, err error) {
	folders, entriesLeft := 0, maxSkillEntries
	var walk func(dir string) error
	walk = func(dir string) error {
		if dir != "" {
			if folders++; folders > maxSkillFolders {
				return overWalkLimit(fmt.Sprintf("more than %d folders", maxSkillFolders))
			}
		}
		entries, err := sc.readDir(tree, p, dir, entriesLeft)
		var skip *skipError
		if errors.As(err, &skip) {
			return err
		}
		entriesLeft -= len(entries)
		if err != nil {
			if dir == "" {
				return err // an unreadable skill directory fails the skill
			}
			excluded = append(excluded, fmt.Sprintf("%s/ (%s)", dir, reason(err)))
			return nil
		}
		for _, d := range entries {
			if !sc.visit(1) {
				return errEnough
			}
			name := d.Name()
			rel := path.Join(dir, name)
			switch {
			case strings.HasPrefix(name, "."):
				continue
			case !servableName(name):
				excluded = append(excluded, fmt.Sprintf("%q (a name no URI can spell)", clip(rel, 80)))
				continue
			case len(fileURI(p, rel)) > skillsext.MaxURIBytes:
				excluded = append(excluded, fmt.Sprintf("%s (a URI longer than %d bytes)", clip(rel, 80), skillsext.MaxURIBytes))
				continue
			case d.IsDir():
				if err := walk(rel); err != nil {
					return err
				}
				continue
			case rel == skillFileName:
				continue // read and judged as the skill's own
			}
			fi, err := d.Info()
			if err == nil && d.Type()&fs.ModeSymlink != 0 {
				fi, err = fs.Stat(tree.fsys, rel) // confined to the skill directory
			}
			if err != nil {
				excluded = append(excluded, fmt.Sprintf("%s (%s)", rel, linkReason(d, err)))
				continue
			}
			if why := checkFile(rel, fi); why != "" {
				excluded = append(excluded, why)
				continue
			}
			found = append(found, candidate{rel, fi})
			if len(found)+1 > skillsext.MaxSkillResources {
				return errEnough
			}
		}
		return nil
	}
	var skip *skipError
	switch err := walk(""); {
	case errors.As(err, &skip):
		return nil, nil, skip
	case err != nil && !errors.Is(err, errEnough):
		return nil, nil, fmt.Errorf("cannot read its directory: %s", reason(err))
	}
	return found, excluded, nil
}

// overWalkLimit is why a skill whose walk went past a bound is not
// served.
func overWalkLimit(what string) error {
	return &skipError{ReasonOverLimits, fmt.Errorf("it has %s (a node_modules or build tree left inside?), more than a skill of at most %d files needs", what, skillsext.MaxSkillResources)}
}

// readDir lists the directory dir ("" for the root) of the skill at p,
// sorted by name: as the discovery walk listed it, when it did (a real
// directory, so the same entries), or through the skill's tree, in
// batches, so that a directory of more than limit entries is refused
// (overWalkLimit) without reading it all.
func (sc *scanner) readDir(tree *skillTree, p, dir string, limit int) ([]fs.DirEntry, error) {
	tooMany := overWalkLimit(fmt.Sprintf("more than %d files and folders", maxSkillEntries))
	if entries, ok := sc.listings[path.Join(p, dir)]; ok {
		if len(entries) > limit {
			return nil, tooMany
		}
		return entries, nil
	}
	if dir == "" {
		dir = "."
	}
	f, err := tree.open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		entries, err := fs.ReadDir(tree.fsys, dir)
		if len(entries) > limit {
			return nil, tooMany
		}
		return entries, err
	}
	var entries []fs.DirEntry
	for {
		batch, err := rd.ReadDir(256)
		entries = append(entries, batch...)
		switch {
		case len(entries) > limit:
			return nil, tooMany
		case errors.Is(err, io.EOF) || err == nil && len(batch) == 0:
			slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
			return entries, nil
		case err != nil:
			return nil, err
		}
	}
}

func linkReason(d fs.DirEntry, err error) string {
	if d.Type()&fs.ModeSymlink != 0 {
		return "a link that leads out of the skill directory or nowhere"
	}
	return reason(err)
}

// digest returns the size and digest of a file found by walkTree, hashing
// it only when its identity changed since it was last hashed.
func (sc *scanner) digest(tree *skillTree, p string, c candidate) (fileDigest, string) {
	key := p + "/" + c.rel
	sc.seen[key] = true
	if id, ok := fileid.Of(c.fi); ok {
		if v := sc.s.cached(key, id); v != nil {
			return fileDigest{v.size, v.digest}, ""
		}
	}
	start := sc.s.now()
	data, id, ok, err := readChild(tree, c.rel)
	if err != nil {
		return fileDigest{}, err.Error()
	}
	v := &fileVersion{id: id, size: int64(len(data)), digest: sha256.Sum256(data)}
	if ok {
		sc.s.remember(key, v, start)
	}
	return fileDigest{v.size, v.digest}, ""
}

// readChild reads the file at rel in tree: a regular file of at most
// MaxResourceBytes (links followed only while they stay in the tree). It
// returns the identity of the version opened, if the file system gives
// one.
func readChild(tree *skillTree, rel string) ([]byte, fileID, bool, error) {
	f, err := tree.open(rel)
	if err != nil {
		return nil, fileID{}, false, fmt.Errorf("%s (cannot be opened: %s)", rel, reason(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fileID{}, false, fmt.Errorf("%s (cannot stat the opened file: %s)", rel, reason(err))
	}
	if why := checkFile(rel, fi); why != "" {
		return nil, fileID{}, false, errors.New(why)
	}
	data, err := readBounded(f)
	if err != nil {
		return nil, fileID{}, false, fmt.Errorf("%s (%s)", rel, err)
	}
	id, ok := fileid.Of(fi)
	return data, id, ok, nil
}

// exclusionDiagnostic says which files of the skill at p are not served.
func exclusionDiagnostic(p string, excluded []string) string {
	count, noun, more := len(excluded), "files are", ""
	if count == 1 {
		noun = "file is"
	}
	if n := count - maxListedExclusions; n > 0 {
		excluded, more = excluded[:maxListedExclusions], fmt.Sprintf("; and %d more", n)
	}
	return clip(fmt.Sprintf("skill %s: %d %s not served: %s%s", p, count, noun, strings.Join(excluded, "; "), more), 600)
}
