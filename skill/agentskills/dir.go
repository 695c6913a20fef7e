package agentskills

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

var _ skills.DirectoryOpener = (*Provider)(nil)

// skillDir is a skill's directory, opened once. Its SKILL.md and the files
// the host reads for the model are read through it, so they come from one
// directory whatever is renamed or swapped on its path meanwhile: a skill
// directory exchanged for a link to a directory that holds no skill of
// that name serves nothing from there.
type skillDir struct {
	root *os.Root
	// self is the directory's own descriptor, through which a SKILL.md
	// that is a link out of the directory is opened (os.Root refuses it).
	self *os.File
}

// openSkillDir opens the directory at dir, following a link as the scan
// follows links to skill directories.
func openSkillDir(dir string) (*skillDir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	self, err := root.Open(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	return &skillDir{root: root, self: self}, nil
}

func (d *skillDir) close() {
	d.self.Close()
	d.root.Close()
}

// openSkillFile opens the directory's SKILL.md (a link is followed
// wherever it leads, as the scan follows it) and returns it with the
// opened file's own FileInfo. Anything but a regular file or a link is
// refused unopened; what a link leads to is opened without blocking, so a
// FIFO cannot hang the call, and refused unless it is a regular file.
func (d *skillDir) openSkillFile() (*os.File, fs.FileInfo, error) {
	fi, err := d.root.Lstat(skillFileName)
	if err != nil {
		return nil, nil, err
	}
	if t := fi.Mode().Type(); t != fs.ModeSymlink && !fi.Mode().IsRegular() {
		return nil, nil, errNotRegular
	}
	if !d.exactSkillFileName() {
		return nil, nil, fs.ErrNotExist
	}
	f, err := openSkillFileIn(d)
	if err != nil {
		return nil, nil, err
	}
	return statRegular(f)
}

// exactSkillFileName is exactSkillFileName for the opened directory.
func (d *skillDir) exactSkillFileName() bool {
	switch runtime.GOOS {
	case "darwin", "ios", "windows":
	default:
		return true
	}
	f, err := d.root.Open(".")
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	return slices.Contains(names, skillFileName)
}

// readSkillFile reads the whole SKILL.md, for loading.
func (d *skillDir) readSkillFile() ([]byte, error) {
	f, _, err := d.openSkillFile()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSkillFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSkillFileBytes {
		return nil, fmt.Errorf("SKILL.md is larger than %d bytes", MaxSkillFileBytes)
	}
	return data, nil
}

// frontmatter returns the parse of the SKILL.md's frontmatter: fc's, when
// it holds a parse of the version opened (file is the path it is cached
// under), else one read now.
func (d *skillDir) frontmatter(file string, fc *frontCache) (*parsed, error) {
	readStart := fc.now()
	f, fi, err := d.openSkillFile()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if id, ok := fileid.Of(fi); ok {
		if pr := fc.get(file, id); pr != nil {
			return pr, nil
		}
	}
	return parseOpened(file, f, fi, fc, readStart)
}

// OpenSkillDirectory implements skills.DirectoryOpener: it opens the
// directory of the skill List offers as req.Name for req.Cwd, and returns
// it only if its SKILL.md, read through the opened directory, still
// declares a valid, model-invocable skill of that name. The host reads the
// file through the directory returned, so the file and the SKILL.md that
// vouched for it are of one directory.
func (p *Provider) OpenSkillDirectory(ctx context.Context, req skills.ResourceRequest) (*os.Root, error) {
	res, err := p.resolve(ctx, req.Cwd, false)
	if err != nil {
		return nil, err
	}
	i, ok := res.byName[req.Name]
	if !ok {
		return nil, skills.ErrSkillNotFound
	}
	sk := res.skills[i]
	d, err := openSkillDir(sk.Dir)
	if err != nil {
		if isAbsent(err) {
			return nil, skills.ErrSkillNotFound
		}
		return nil, fmt.Errorf("agentskills: opening skill %q at %s: %w", req.Name, sk.Dir, err)
	}
	pr, err := d.frontmatter(sk.File, p.files)
	switch {
	case err != nil && classifyReadError(err) == readTransient:
		d.close()
		return nil, fmt.Errorf("agentskills: reading skill %q from %s: %w", req.Name, sk.File, err)
	case err != nil:
		d.close()
		return nil, skills.ErrSkillNotFound
	}
	fm, _, err := p.cfg.lenience().interpret(pr, filepath.Base(sk.Dir))
	if err != nil || fm.Name != req.Name {
		d.close()
		return nil, skills.ErrSkillNotFound
	}
	if !fm.Invocation().ModelInvocable {
		d.close()
		return nil, skills.ErrNotModelInvocable
	}
	d.self.Close()
	return d.root, nil
}

// errSkillFileGone is Load's "not found" for a directory gone since the
// listing.
var errSkillFileGone = errors.New("the skill's directory or SKILL.md is gone")

// loadSkillFile reads the SKILL.md of the skill directory dir as
// ReadSkillFile does; errSkillFileGone when nothing is there.
func loadSkillFile(dir string) ([]byte, error) {
	data, err := ReadSkillFile(dir)
	if isAbsent(err) {
		return nil, errSkillFileGone
	}
	return data, err
}

// ReadSkillFile reads the whole SKILL.md of the skill directory dir as the
// provider's loads read it, so that a tool checking a skill (`skillcatalog
// validate`) reads exactly what a host would: through the directory,
// opened once; a link is followed; anything that is not a regular file in
// the end (a FIFO, a device, a directory) is refused without being opened
// for reading, so a FIFO cannot block the call; a file larger than
// MaxSkillFileBytes is refused. A missing directory or SKILL.md is an
// error matching fs.ErrNotExist.
func ReadSkillFile(dir string) ([]byte, error) {
	d, err := openSkillDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.close()
	data, err := d.readSkillFile()
	if errors.Is(err, errNotRegular) {
		return nil, fmt.Errorf("%s is %w", skillFileName, err)
	}
	return data, err
}

// parseOpened parses the frontmatter of the open SKILL.md f, which fi
// describes, and caches the parse in fc under file.
func parseOpened(file string, f *os.File, fi fs.FileInfo, fc *frontCache, readStart time.Time) (*parsed, error) {
	buf := make([]byte, min(fi.Size()+1, frontmatterPrefixBytes)) // +1 notices a file that grew
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	pr, cost := parsePrefix(buf[:n])
	if id, ok := fileid.Of(fi); ok {
		fc.put(file, id, pr, cost, readStart)
	}
	return pr, nil
}
