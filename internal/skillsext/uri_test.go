package skillsext

import (
	"crypto/sha256"
	"strings"
	"testing"
)

func TestSegmentSpelling(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ raw, encoded string }{
		{"plain-name_1.md~", "plain-name_1.md~"},
		{"with space", "with%20space"},
		{"é", "%C3%A9"},
		{"a/b", "a%2Fb"},
		{"%", "%25"},
	} {
		if got := EncodeSegment(tc.raw); got != tc.encoded {
			t.Errorf("EncodeSegment(%q) = %q, want %q", tc.raw, got, tc.encoded)
		}
		if got, err := DecodeSegment(tc.encoded); err != nil || string(got) != tc.raw {
			t.Errorf("DecodeSegment(%q) = %q, %v; want %q", tc.encoded, got, err, tc.raw)
		}
	}
	for seg, want := range map[string]string{
		"%2e":     "malformed or non-canonical percent-encoding",
		"%2E":     "percent-encoded unreserved character",
		"%4":      "malformed or non-canonical percent-encoding",
		"a\\b":    "backslash",
		"a?b":     "query",
		"a#b":     "fragment",
		"a b":     `character ' ' not allowed`,
		"caf\xc3": "character 'Ã' not allowed",
	} {
		if _, err := DecodeSegment(seg); err == nil || err.Error() != want {
			t.Errorf("DecodeSegment(%q) = %v, want %q", seg, err, want)
		}
	}
}

func TestDigestSpelling(t *testing.T) {
	t.Parallel()
	sum := sha256.Sum256([]byte("skill"))
	s := FormatDigest(sum)
	if got, ok := ParseDigest(s); !ok || got != sum {
		t.Fatalf("ParseDigest(FormatDigest) = %x, %v", got, ok)
	}
	for _, bad := range []string{strings.ToUpper(s), "sha512:" + s[len(DigestPrefix):], s[:len(s)-1], s + "0", DigestPrefix + strings.Repeat("g", 64)} {
		if _, ok := ParseDigest(bad); ok {
			t.Errorf("ParseDigest(%q) accepted", bad)
		}
	}
}

func TestURIs(t *testing.T) {
	t.Parallel()
	if got := SkillURI("docs/pdf"); got != "skill://docs/pdf/SKILL.md" {
		t.Errorf("SkillURI = %q", got)
	}
	if got := BaseURI("pdf"); got != "skill://pdf/" {
		t.Errorf("BaseURI = %q", got)
	}
}
