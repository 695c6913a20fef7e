package mcpskills

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// IndexURI is the discovery document's resource URI.
const IndexURI = skillsext.IndexURI

// SkillURI is the canonical URI of a skill's SKILL.md.
func SkillURI(name string) string { return skillsext.SkillURI(name) }

// BaseURI is the resource base of a skill: the prefix of its child URIs.
func BaseURI(name string) string { return skillsext.BaseURI(name) }

// ValidateChildURI reports whether uri is a canonical resource of the skill
// named skillName: exactly "skill://<skillName>/<path>", where path is one or
// more non-empty segments made of ASCII letters, digits, "-", ".", "_", "~"
// and percent-encoded octets. It rejects another package, any other scheme
// (including a differently cased one), userinfo, ports, queries, fragments,
// "." and ".." segments, empty segments (a leading, doubled or trailing "/"),
// backslashes, and percent-encodings that are not canonical or that hide a
// separator or a control character: an encoded unreserved character such as
// %2e, an encoded "/" or "\", lower-case hex digits, or encoded bytes that
// are not UTF-8. Hosts that let the model read skill resources call it
// before routing a read to the server.
func ValidateChildURI(skillName, uri string) error {
	if !skill.ValidBoundedName(skillName) {
		return fmt.Errorf("mcpskills: invalid skill name %q", clip(skillName, skill.MaxNameLength))
	}
	bad := func(why string) error {
		return errors.New(clip(fmt.Sprintf("mcpskills: resource URI %q is not a canonical resource of skill %q: %s", clip(uri, 128), skillName, why), MaxErrorBytes))
	}
	if len(uri) > skillsext.MaxURIBytes {
		return bad(fmt.Sprintf("longer than %d bytes", skillsext.MaxURIBytes))
	}
	rest, ok := strings.CutPrefix(uri, skillsext.Scheme)
	if !ok {
		return bad("not a skill:// URI")
	}
	authority, path, ok := strings.Cut(rest, "/")
	if !ok {
		return bad("no resource path")
	}
	if authority != skillName {
		return bad("another package")
	}
	if path == "" {
		return bad("no resource path")
	}
	for seg := range strings.SplitSeq(path, "/") {
		if err := validSegment(seg); err != nil {
			return bad(err.Error())
		}
	}
	return nil
}

func validSegment(seg string) error {
	if seg == "" {
		return errors.New("empty path segment")
	}
	if seg == "." || seg == ".." {
		return errors.New("dot segment")
	}
	decoded, err := skillsext.DecodeSegment(seg)
	if err != nil {
		return err
	}
	for _, b := range decoded {
		switch {
		case b == '/' || b == '\\':
			return errors.New("percent-encoded separator")
		case b < 0x20 || b == 0x7f:
			return errors.New("percent-encoded control character")
		}
	}
	if !utf8.Valid(decoded) {
		return errors.New("percent-encoded bytes are not UTF-8")
	}
	return nil
}
