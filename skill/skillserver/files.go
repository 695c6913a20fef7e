package skillserver

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// fileID identifies one version of a file (see package fileid).
type fileID = fileid.ID

// racyWindow is how old a file's modification and change times must be,
// by the server's clock when it started reading the file, before what was
// derived from it is cached. Time stamps are coarse (a kernel tick, or a
// second or two on some file systems), so a same-size rewrite right after a
// read can leave the identity unchanged; a file that recent is read again
// on every scan until it has aged.
const racyWindow = 3 * time.Second

func racy(id fileID, readStart time.Time) bool {
	limit := readStart.Add(-racyWindow).UnixNano()
	return id.MTime >= limit || id.CTime >= limit
}

// fileVersion is what a scan derived from one version of a file: its size
// and digest, and for a SKILL.md read as one, its parse.
type fileVersion struct {
	id     fileID
	size   int64
	digest [sha256.Size]byte
	skill  *parsedSkill // nil for a file that was only hashed
}

// parsedSkill is a parsed SKILL.md: its frontmatter as the filesystem
// provider reads it (description, invocation policy), the entry's JSON
// object, and why the skill cannot be served, if it cannot.
type parsedSkill struct {
	fm       agentskills.Frontmatter
	obj      json.RawMessage
	warnings []string
	why      string
	reason   string // why's short cause
}

// cached returns the version cached for key if it is still id.
func (s *Server) cached(key string, id fileID) *fileVersion {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v := s.files[key]; v != nil && v.id == id {
		return v
	}
	return nil
}

// remember caches v for key unless the file changed too recently for its
// identity to be trusted (see racyWindow).
func (s *Server) remember(key string, v *fileVersion, readStart time.Time) {
	if racy(v.id, readStart) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[key] = v
}

// forgetExcept drops the cached versions of files a scan did not see.
func (s *Server) forgetExcept(seen map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key := range s.files {
		if !seen[key] {
			delete(s.files, key)
		}
	}
}

// errNoSkillFile marks a directory without SKILL.md: not a skill, and not
// worth a diagnostic.
var errNoSkillFile = errors.New("no SKILL.md")

// checkFile returns why fi cannot be served as a file of a skill, or "".
func checkFile(name string, fi fs.FileInfo) string {
	if !fi.Mode().IsRegular() {
		return fmt.Sprintf("%s is not a regular file but %s", name, describeType(fi.Mode()))
	}
	if fi.Size() > MaxResourceBytes {
		return tooLarge(name, fi.Size())
	}
	return ""
}

func tooLarge(name string, size int64) string {
	return fmt.Sprintf("%s of %d bytes exceeds the limit of %d bytes (skill.MaxSkillFileBytes, 8 MiB)", name, size, skill.MaxSkillFileBytes)
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

// fileError is a per-skill problem with one of its files.
type fileError struct{ why string }

func (e *fileError) Error() string { return e.why }

// statChecked describes the file the SKILL.md of a skill's directory
// leads to, links followed, or says why it cannot be served.
func statChecked(tree *skillTree) (fs.FileInfo, error) {
	fi, err := tree.statSkill()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errNoSkillFile
	case err != nil:
		return nil, &fileError{"cannot stat SKILL.md: " + reason(err)}
	}
	if why := checkFile(skillFileName, fi); why != "" {
		return nil, &fileError{why}
	}
	return fi, nil
}

// openChecked opens the SKILL.md of a skill's directory through its tree,
// once a stat found it a regular file within the bound, and checks the
// opened file itself, which is what will be read even if the file was
// replaced after the stat. A directory served with NewDir is opened
// without blocking, so a FIFO put in place after the stat is refused here
// instead of hanging the request.
func openChecked(tree *skillTree) (fs.File, fs.FileInfo, error) {
	if _, err := statChecked(tree); err != nil {
		return nil, nil, err
	}
	f, err := tree.openSkill()
	if err != nil {
		return nil, nil, &fileError{"cannot open SKILL.md: " + reason(err)}
	}
	fi, err := f.Stat()
	if err == nil {
		if why := checkFile(skillFileName, fi); why != "" {
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

// readSkillFile reads the whole SKILL.md of a skill's directory through
// its tree, and returns the identity of the version read, if the file
// system gives one.
func readSkillFile(tree *skillTree) ([]byte, fileID, bool, error) {
	f, fi, err := openChecked(tree)
	if err != nil {
		return nil, fileID{}, false, err
	}
	defer f.Close()
	data, err := readBounded(f)
	if err != nil {
		return nil, fileID{}, false, &fileError{"cannot read SKILL.md: " + err.Error()}
	}
	id, ok := fileid.Of(fi)
	return data, id, ok, nil
}

// holdsSkill reports whether the opened directory tree holds the SKILL.md
// that sk's entry lists: the check that a path swapped since the scan does
// not lead a listing into a directory that is no skill.
func (s *Server) holdsSkill(tree *skillTree, sk *servedSkill) bool {
	want := sk.files[skillFileName]
	f, fi, err := openChecked(tree)
	if err != nil {
		return false
	}
	defer f.Close()
	if id, ok := fileid.Of(fi); ok {
		if v := s.cached(sk.path+"/"+skillFileName, id); v != nil {
			return v.size == want.size && v.digest == want.digest
		}
	}
	data, err := readBounded(f)
	return err == nil && int64(len(data)) == want.size && sha256.Sum256(data) == want.digest
}

// readBounded reads f to its end, failing past MaxResourceBytes (a file
// that grew after it was checked).
func readBounded(f io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxResourceBytes+1))
	if err != nil {
		return nil, errors.New(reason(err))
	}
	if len(data) > MaxResourceBytes {
		return nil, fmt.Errorf("it grew past %d bytes", MaxResourceBytes)
	}
	return data, nil
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

// skillVersion returns the version of the SKILL.md of the skill at path,
// read through its opened directory tree and parsed, reading the file only
// when its identity changed since it was last read (and it was read long
// enough after its last change).
func (s *Server) skillVersion(tree *skillTree, path string) (*fileVersion, error) {
	key := path + "/" + skillFileName
	fi, err := statChecked(tree)
	if err != nil {
		return nil, err
	}
	if id, ok := fileid.Of(fi); ok {
		if v := s.cached(key, id); v != nil && v.skill != nil {
			return v, nil
		}
	}
	start := s.now()
	data, id, ok, err := readSkillFile(tree)
	if err != nil {
		return nil, err
	}
	v := &fileVersion{id: id, size: int64(len(data)), digest: sha256.Sum256(data), skill: judge(path, data)}
	if ok {
		s.remember(key, v, start)
	}
	return v, nil
}

// Agent Skills bounds the extension requires of a served skill's
// frontmatter, in characters.
const (
	maxDescription   = 1024
	maxCompatibility = 500
)

// judge parses a SKILL.md read from the skill directory at path and says
// whether the skill can be served: it must load as skillcatalog's Agent
// Skills provider loads skills (agentskills.CheckSkillFile, the one
// definition every skillcatalog tool applies), and further its
// frontmatter must convert to JSON, name the directory, conform to the
// Agent Skills specification (as the MCP Skills extension requires of
// served skills), and leave the skill model-invocable.
func judge(path string, data []byte) *parsedSkill {
	sf := &parsedSkill{}
	sf.reason, sf.why = sf.judge(path[strings.LastIndexByte(path, '/')+1:], data)
	return sf
}

func (sf *parsedSkill) judge(dir string, data []byte) (reason, why string) {
	if check, err := agentskills.CheckSkillFile(dir, data); err != nil || !check.Loads {
		if err != nil {
			return agentskills.ReasonUnreadable, err.Error()
		}
		return check.SkipReason, "skillcatalog does not load it: " + check.NotLoaded
	}
	var err error
	sf.fm, _, _, err = agentskills.ParseSkillFile(data)
	if err == nil {
		sf.obj, sf.warnings, err = skillsext.FrontmatterJSON(data)
	}
	if err != nil {
		return ReasonNotJSON, "SKILL.md has no usable frontmatter: " + err.Error()
	}
	var fields map[string]any
	if err := json.Unmarshal(sf.obj, &fields); err != nil {
		return ReasonNotJSON, "SKILL.md frontmatter is not a JSON object: " + err.Error()
	}
	if reason, why := conformance(dir, fields); why != "" {
		return reason, why
	}
	if !sf.fm.Invocation().ModelInvocable {
		// The index cannot express invocation policy, so a skill kept
		// from the model is not served at all.
		return ReasonNotModelInvocable, "the skill is not model-invocable"
	}
	return "", ""
}

// CheckServable says why a server would not serve the skill whose
// SKILL.md holds data in a directory named dirName, judging the file
// alone (not the skill's other files or its path): the short reason (see
// the Reason constants and agentskills.SkipReason) and the message; both
// are "" when the file is servable. It is what `skillcatalog validate`
// reports of serve-mcp.
func CheckServable(dirName string, data []byte) (reason, why string) {
	return (&parsedSkill{}).judge(dirName, data)
}

// Reasons a skill that skillcatalog loads is not served, beside
// agentskills' reasons for a skill that does not load.
const (
	ReasonNameNotFolder     = "name differs from its folder"
	ReasonLongDescription   = "description over 1024 characters"
	ReasonBadDescription    = "description not a string"
	ReasonBadCompatibility  = "invalid compatibility"
	ReasonBadMetadata       = "invalid metadata"
	ReasonNotJSON           = "frontmatter JSON cannot carry"
	ReasonNotModelInvocable = "not model-invocable"
	ReasonFolderName        = "folder name not servable"
	ReasonOverLimits        = "over the extension's size limits"
)

// conformance says why frontmatter fields break a rule of the Agent
// Skills specification that hosts check, with its short reason, or
// returns "", "".
func conformance(dir string, fields map[string]any) (reason, why string) {
	name, ok := fields["name"].(string)
	switch {
	case !ok && fields["name"] != nil:
		return ReasonNameNotFolder, "the name in SKILL.md is not a string"
	case name != dir:
		return ReasonNameNotFolder, fmt.Sprintf("the name %q in SKILL.md does not match the directory, and the MCP Skills extension names a skill by its folder", clip(name, skill.MaxNameLength))
	}
	desc, ok := fields["description"].(string)
	switch {
	case !ok && fields["description"] != nil:
		return ReasonBadDescription, "the description in SKILL.md is not a string"
	case strings.TrimSpace(desc) == "":
		return agentskills.ReasonMissingDescription, "SKILL.md has no description"
	case utf8.RuneCountInString(desc) > maxDescription:
		return ReasonLongDescription, fmt.Sprintf("the description is %d characters long; the Agent Skills limit is %d, which the MCP Skills extension requires of a served skill", utf8.RuneCountInString(desc), maxDescription)
	}
	if v, present := fields["compatibility"]; present {
		if c, ok := v.(string); !ok || c == "" || utf8.RuneCountInString(c) > maxCompatibility {
			return ReasonBadCompatibility, fmt.Sprintf("compatibility must be a string of 1 to %d characters", maxCompatibility)
		}
	}
	if v, present := fields["metadata"]; present {
		m, ok := v.(map[string]any)
		if !ok {
			return ReasonBadMetadata, "metadata must map keys to strings"
		}
		for k, v := range m {
			if _, ok := v.(string); !ok {
				return ReasonBadMetadata, fmt.Sprintf("metadata %q is not a string; quote it", clip(k, 64))
			}
		}
	}
	return "", ""
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
