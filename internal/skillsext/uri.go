package skillsext

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// The skill:// URI scheme both conventions use, and the names within it.
const (
	// Scheme starts every skill resource URI.
	Scheme = "skill://"
	// IndexURI is the older convention's discovery document.
	IndexURI = Scheme + "index.json"
	// SkillFileName is the file that holds a skill's instructions.
	SkillFileName = "SKILL.md"
	// MaxURIBytes bounds a resource URI either end accepts.
	MaxURIBytes = 2048
)

// SkillURI is the canonical URI of the SKILL.md of the skill at path (its
// name, or prefix segments and its name, joined by "/").
func SkillURI(path string) string { return Scheme + path + "/" + SkillFileName }

// BaseURI is the resource base of the skill at path: the prefix of its
// files' URIs.
func BaseURI(path string) string { return Scheme + path + "/" }

// Path segments are written in one spelling: the URI unreserved characters
// (ASCII letters, digits, '-', '.', '_', '~') as themselves, every other
// byte as '%' and two upper-case hexadecimal digits. A reader accepts only
// that spelling, so a URI names a file one way and no encoding hides a
// separator or a dot segment.

// EncodeSegment writes seg in the canonical spelling.
func EncodeSegment(seg string) string {
	clean := true
	for i := 0; i < len(seg); i++ {
		clean = clean && isUnreserved(seg[i])
	}
	if clean {
		return seg
	}
	const upperHex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		if c := seg[i]; isUnreserved(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		}
	}
	return b.String()
}

// DecodeSegment decodes a segment written in the canonical spelling, and
// refuses any other: a byte that is neither unreserved nor '%', a
// percent-encoding that is malformed or lower-case, or one of an
// unreserved character (%2E would hide a dot segment). What the decoded
// bytes may be (a separator, a control character, not UTF-8) is the
// caller's rule.
func DecodeSegment(seg string) ([]byte, error) {
	var b []byte
	for i := 0; i < len(seg); i++ {
		switch c := seg[i]; {
		case isUnreserved(c):
			b = append(b, c)
		case c == '%':
			if i+2 >= len(seg) || !isUpperHex(seg[i+1]) || !isUpperHex(seg[i+2]) {
				return nil, errors.New("malformed or non-canonical percent-encoding")
			}
			d := unhex(seg[i+1])<<4 | unhex(seg[i+2])
			if isUnreserved(d) {
				return nil, errors.New("percent-encoded unreserved character")
			}
			b = append(b, d)
			i += 2
		case c == '\\':
			return nil, errors.New("backslash")
		case c == '?':
			return nil, errors.New("query")
		case c == '#':
			return nil, errors.New("fragment")
		default:
			return nil, fmt.Errorf("character %q not allowed", c)
		}
	}
	return b, nil
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

// FormatDigest writes a SHA-256 digest as entries carry it: DigestPrefix
// and 64 lower-case hexadecimal digits.
func FormatDigest(sum [sha256.Size]byte) string {
	return DigestPrefix + hex.EncodeToString(sum[:])
}

// ParseDigest reads a digest FormatDigest writes, and nothing else (no
// upper-case digits, no other algorithm).
func ParseDigest(s string) ([sha256.Size]byte, bool) {
	var sum [sha256.Size]byte
	digits, ok := strings.CutPrefix(s, DigestPrefix)
	if !ok || len(digits) != 2*sha256.Size || strings.ToLower(digits) != digits {
		return sum, false
	}
	if _, err := hex.Decode(sum[:], []byte(digits)); err != nil {
		return sum, false
	}
	return sum, true
}
