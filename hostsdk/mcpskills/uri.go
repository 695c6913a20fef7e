package mcpskills

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

const (
	// IndexURI is the discovery document's resource URI.
	IndexURI = "skill://index.json"
	// maxChildURIBytes bounds a child resource URI.
	maxChildURIBytes = 2048
	uriScheme        = "skill://"
)

// SkillURI is the canonical URI of a skill's SKILL.md.
func SkillURI(name string) string { return uriScheme + name + "/SKILL.md" }

// BaseURI is the resource base of a skill: the prefix of its child URIs.
func BaseURI(name string) string { return uriScheme + name + "/" }

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
	if len(uri) > maxChildURIBytes {
		return bad(fmt.Sprintf("longer than %d bytes", maxChildURIBytes))
	}
	rest, ok := strings.CutPrefix(uri, uriScheme)
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
	var decoded []byte
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case isUnreserved(c):
			decoded = append(decoded, c)
		case c == '%':
			if i+2 >= len(seg) || !isUpperHex(seg[i+1]) || !isUpperHex(seg[i+2]) {
				return errors.New("malformed or non-canonical percent-encoding")
			}
			b := unhex(seg[i+1])<<4 | unhex(seg[i+2])
			switch {
			case isUnreserved(b):
				// %2E, %41, ...: the canonical form is the character itself, and
				// %2E%2E would be a dot segment after decoding.
				return errors.New("percent-encoded unreserved character")
			case b == '/' || b == '\\':
				return errors.New("percent-encoded separator")
			case b < 0x20 || b == 0x7f:
				return errors.New("percent-encoded control character")
			}
			decoded = append(decoded, b)
			i += 2
		case c == '\\':
			return errors.New("backslash")
		case c == '?':
			return errors.New("query")
		case c == '#':
			return errors.New("fragment")
		default:
			return fmt.Errorf("character %q not allowed", c)
		}
	}
	if !utf8.Valid(decoded) {
		return errors.New("percent-encoded bytes are not UTF-8")
	}
	return nil
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isUpperHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}
