package skillserver

import (
	"errors"
	"fmt"
	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk/agentskills"
	"github.com/skillcatalog/skillcatalog/skill"
)

// fileID identifies one version of a file (see package fileid).
type fileID = fileid.ID

// racyWindow is how old a file's modification and change times must be,
// by the server's clock when it started reading the file, before the parse
// is cached. Time stamps are coarse (a kernel tick, or a second or two on
// some file systems), so a same-size rewrite right after a read can leave
// the identity unchanged; a file that recent is read again on every index
// request until it has aged.
const racyWindow = 3 * time.Second

func racy(id fileID, readStart time.Time) bool {
	limit := readStart.Add(-racyWindow).UnixNano()
	return id.MTime >= limit || id.CTime >= limit
}

// parsed is what an index request derives from one version of a SKILL.md:
// its frontmatter, or why the skill is left off the index.
type parsed struct {
	id  fileID
	fm  agentskills.Frontmatter
	why string
}

// errNoSkillFile marks a directory without SKILL.md: not a skill, and not
// worth a diagnostic.
var errNoSkillFile = errors.New("no SKILL.md")

// checkFile returns why fi cannot be served as a SKILL.md, or "".
func checkFile(fi fs.FileInfo) string {
	if !fi.Mode().IsRegular() {
		return fmt.Sprintf("SKILL.md is not a regular file but %s", describeType(fi.Mode()))
	}
	if fi.Size() > skill.MaxSkillFileBytes {
		return tooLarge(fi.Size())
	}
	return ""
}

func tooLarge(size int64) string {
	return fmt.Sprintf("SKILL.md of %d bytes exceeds the limit of %d bytes (skill.MaxSkillFileBytes, 8 MiB)", size, skill.MaxSkillFileBytes)
}

func describeType(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "an irregular file"
	}
}

// fileError is a per-skill problem with its SKILL.md: it is left off the
// index with this reason.
type fileError struct{ why string }

func (e *fileError) Error() string { return e.why }

// stat describes the file a SKILL.md path leads to, links followed, or
// says why it cannot be served.
func (s *Server) stat(name string) (fs.FileInfo, error) {
	fi, err := fs.Stat(s.fsys, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errNoSkillFile
	case err != nil:
		return nil, &fileError{"cannot stat SKILL.md: " + reason(err)}
	}
	if why := checkFile(fi); why != "" {
		return nil, &fileError{why}
	}
	return fi, nil
}

// openChecked opens name and checks the opened file itself, which is what
// will be read even if the path was replaced after an earlier check. A
// directory served with NewDir is opened without blocking, so a FIFO put in
// place after the check is refused here instead of hanging the request.
func (s *Server) openChecked(name string) (fs.File, fs.FileInfo, error) {
	f, err := s.open(name)
	if err != nil {
		return nil, nil, &fileError{"cannot open SKILL.md: " + reason(err)}
	}
	fi, err := f.Stat()
	if err == nil {
		if why := checkFile(fi); why != "" {
			err = &fileError{why}
		}
	} else {
		err = &fileError{"cannot stat the opened SKILL.md: " + reason(err)}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readFile reads a whole SKILL.md of at most skill.MaxSkillFileBytes. Only
// a regular file is opened (links are followed) and only what the bound
// allows is read. It returns the identity of the version read, if the file
// system gives one.
func (s *Server) readFile(name string) ([]byte, fileID, bool, error) {
	if _, err := s.stat(name); err != nil {
		return nil, fileID{}, false, err
	}
	f, fi, err := s.openChecked(name)
	if err != nil {
		return nil, fileID{}, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, skill.MaxSkillFileBytes+1))
	if err != nil {
		return nil, fileID{}, false, &fileError{"cannot read SKILL.md: " + reason(err)}
	}
	if len(data) > skill.MaxSkillFileBytes {
		// It grew after the check.
		return nil, fileID{}, false, &fileError{tooLarge(int64(len(data)))}
	}
	id, ok := fileid.Of(fi)
	return data, id, ok, nil
}

// reason is err without the path an os error quotes: diagnostics name the
// skill already.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}

// judge parses a SKILL.md read from directory dir and returns its
// frontmatter, or why the skill is left off the index.
func judge(dir string, data []byte) (agentskills.Frontmatter, string) {
	fm, _, _, err := agentskills.ParseSkillFile(data)
	switch {
	case err != nil:
		return fm, "SKILL.md has no usable frontmatter: " + err.Error()
	case fm.Name != dir:
		return fm, fmt.Sprintf("the name %q in SKILL.md does not match the directory", clip(fm.Name, skill.MaxNameLength))
	case strings.TrimSpace(fm.Description) == "":
		return fm, "SKILL.md has no description"
	case !fm.Invocation().ModelInvocable:
		// The index cannot express invocation policy, so a skill kept
		// from the model stays off it.
		return fm, "the skill is not model-invocable"
	}
	return fm, ""
}

// frontmatter returns the frontmatter of directory dir's SKILL.md, or why
// the skill is left off the index. An unchanged file (same identity as
// when it was last read, and read long enough after its last change) is
// not read again.
func (s *Server) frontmatter(dir string) (agentskills.Frontmatter, error) {
	name := dir + "/SKILL.md"
	fi, err := s.stat(name)
	if err != nil {
		return agentskills.Frontmatter{}, err
	}
	if id, ok := fileid.Of(fi); ok {
		s.mu.Lock()
		c := s.parsed[dir]
		s.mu.Unlock()
		if c != nil && c.id == id {
			return c.fm, whyErr(c.why)
		}
	}
	start := s.now()
	data, id, ok, err := s.readFile(name)
	if err != nil {
		return agentskills.Frontmatter{}, err
	}
	fm, why := judge(dir, data)
	if ok && !racy(id, start) {
		s.mu.Lock()
		s.parsed[dir] = &parsed{id: id, fm: fm, why: why}
		s.mu.Unlock()
	}
	return fm, whyErr(why)
}

func whyErr(why string) error {
	if why == "" {
		return nil
	}
	return &fileError{why}
}

// clip cuts s to at most n bytes, adding "..." when it cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
