package skillserver

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// URI bounds and spellings.
const (
	// maxSkillPathBytes bounds a skill path so that a host can qualify it
	// with any label: "<label>:<path>" stays within
	// skill.MaxQualifiedNameLength with a label of skill.MaxNameLength bytes.
	maxSkillPathBytes = skill.MaxQualifiedNameLength - skill.MaxNameLength - 1
)

// widestLabel is the longest label a host may put before a skill path.
var widestLabel = strings.Repeat("l", skill.MaxNameLength)

// skillPathProblem says why path (slash-separated directories below the
// skills directory) cannot be a served skill's path, or returns "". The
// last segment is the skill's name; the earlier ones are prefix segments of
// ASCII letters, digits, '.', '_' and '-' that start with a letter or a
// digit. A path has at most skill.MaxQualifiedSegments segments and
// maxSkillPathBytes bytes, so that every host can name the skill as
// "<label>:<path>" (skill.ValidQualifiedName).
func skillPathProblem(path string) string {
	segs := strings.Split(path, "/")
	switch {
	case len(segs) > skill.MaxQualifiedSegments:
		return fmt.Sprintf("its path has %d segments; at most %d are served", len(segs), skill.MaxQualifiedSegments)
	case len(path) > maxSkillPathBytes:
		return fmt.Sprintf("its path is %d bytes long; at most %d are served", len(path), maxSkillPathBytes)
	case !skill.ValidBoundedName(segs[len(segs)-1]):
		return fmt.Sprintf("the directory name %q is not a skill name (%s, at most %d bytes)", clip(segs[len(segs)-1], skill.MaxNameLength), skill.NamePattern, skill.MaxNameLength)
	}
	for _, seg := range segs[:len(segs)-1] {
		if !skill.ValidQualifiedName(skill.QualifiedName(widestLabel, seg+"/a")) {
			return fmt.Sprintf("the folder name %q cannot be a path segment (ASCII letters, digits, '.', '_' and '-', starting with a letter or digit, at most %d bytes)", clip(seg, skill.MaxNameLength), skill.MaxNameLength)
		}
	}
	if !skill.ValidQualifiedName(skill.QualifiedName(widestLabel, path)) {
		return "its path cannot be qualified by a host" // the checks above cover every rule
	}
	return ""
}

// skillURI is the URI of the SKILL.md of the skill at path.
func skillURI(path string) string { return skillsext.SkillURI(path) }

// fileURI is the URI of the file at rel (slash-separated, below the skill
// directory) of the skill at path, each segment percent-encoded.
func fileURI(path, rel string) string {
	var b strings.Builder
	b.WriteString(skillsext.Scheme)
	b.WriteString(path)
	for seg := range strings.SplitSeq(rel, "/") {
		b.WriteByte('/')
		b.WriteString(skillsext.EncodeSegment(seg))
	}
	return b.String()
}

// servableName reports whether a file or directory called name can be
// served: not hidden (a leading '.': .git, .env), valid UTF-8, and no
// control character or backslash, so its URI decodes to exactly it.
func servableName(name string) bool {
	if name == "" || name[0] == '.' || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '\\' || r == '/' {
			return false
		}
	}
	return true
}

// parseSkillURI splits a skill:// URI into its decoded path segments: the
// skill's path, then the file's path below it. Only the spelling fileURI
// writes is accepted: segments of unreserved characters and upper-case
// percent-encodings of other bytes, none of them empty, "." or "..", and
// every decoded segment a servable name. Anything else (another scheme,
// userinfo, a port, a query or fragment, a backslash, an encoded
// unreserved character or separator, a hidden name) is an error.
func parseSkillURI(uri string) ([]string, error) {
	if len(uri) > skillsext.MaxURIBytes {
		return nil, fmt.Errorf("longer than %d bytes", skillsext.MaxURIBytes)
	}
	rest, ok := strings.CutPrefix(uri, skillsext.Scheme)
	if !ok {
		return nil, errors.New("not a skill:// URI")
	}
	segs := strings.Split(rest, "/")
	for i, seg := range segs {
		dec, err := decodeSegment(seg)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", i+1, err)
		}
		segs[i] = dec
	}
	return segs, nil
}

func decodeSegment(seg string) (string, error) {
	b, err := skillsext.DecodeSegment(seg)
	if err != nil {
		return "", err
	}
	if !servableName(string(b)) {
		return "", errors.New("empty, hidden or not a servable name")
	}
	return string(b), nil
}

// Cursors are opaque to clients: a kind, then the key of the last item of
// the previous page, base64url-encoded. The next page starts after that key,
// so a cursor stays usable when the listing changes between pages.
const (
	cursorSkills    = "skills:"
	cursorDirectory = "dir:"
	maxCursorBytes  = 4 * skillsext.MaxURIBytes
)

func encodeCursor(kind, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + key))
}

// decodeCursor returns the key a cursor of kind resumes after; "" for the
// first page. A cursor this server did not write is an error.
func decodeCursor(kind, cursor string) (string, error) {
	if cursor == "" {
		return "", nil
	}
	if len(cursor) > maxCursorBytes {
		return "", errors.New("invalid cursor")
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil {
		return "", errors.New("invalid cursor")
	}
	key, ok := strings.CutPrefix(string(raw), kind)
	if !ok || key == "" {
		return "", errors.New("invalid cursor")
	}
	switch kind {
	case cursorSkills:
		segs, err := parseSkillURI(key)
		if err != nil || len(segs) < 2 || segs[len(segs)-1] != skillFileName {
			return "", errors.New("invalid cursor")
		}
	case cursorDirectory:
		if !servableName(key) {
			return "", errors.New("invalid cursor")
		}
	}
	return key, nil
}
