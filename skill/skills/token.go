package skills

import (
	"encoding/binary"
	"encoding/hex"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/zeebo/xxh3"
)

// tokenDomain separates this encoding from any other use of the hash and
// versions it: changing the encoding must change the tag.
const tokenDomain = "skillcatalog/skills.snapshot/v1"

// snapshotToken hashes the summaries with xxh3-128 over a length-prefixed
// encoding (count, then per skill: name, description, policy bits,
// provider, and for a remote skill, flagged by policy bit 4, its origin and
// qualified name, followed, flagged by bit 16, by its origin's kind when
// that is not an MCP server, and, flagged by bit 8, its argument hint, and,
// flagged by bit 32, what a search ranks it by: when to use it, its
// keywords and its search text), so no two
// different lists encode alike and the token depends on content alone. The
// encoding is written into a buffer and hashed a few KiB at a time: the
// hash of the stream is that of the whole encoding, with one call per chunk
// rather than per field.
func snapshotToken(skills []skill.Summary) string {
	return snapshotTokenOf(len(skills), func(i int) *skill.Summary { return &skills[i] })
}

// snapshotTokenOf is snapshotToken of the n summaries at(0) .. at(n-1), so
// a list held otherwise than as one slice hashes as that slice would.
func snapshotTokenOf(n int, at func(int) *skill.Summary) string {
	h := xxh3.New128()
	const chunk = 8 << 10
	buf := make([]byte, 0, chunk+512)
	buf = appendTokenString(buf, tokenDomain)
	buf = binary.AppendUvarint(buf, uint64(n))
	for i := range n {
		s := at(i)
		buf = appendTokenString(buf, s.Name)
		buf = appendTokenString(buf, s.Description)
		var bits byte
		if s.Invocation.ModelInvocable {
			bits |= 1
		}
		if s.Invocation.UserInvocable {
			bits |= 2
		}
		if s.Origin != "" {
			bits |= 4 // a remote skill: its origin follows
		}
		if s.ArgumentHint != "" {
			bits |= 8 // its argument hint follows (so a list without hints hashes as before)
		}
		if s.Origin != "" && s.OriginKind != skill.OriginMCPServer {
			bits |= 16 // its origin's kind follows (so a list of MCP servers' skills hashes as before)
		}
		search := s.WhenToUse != "" || s.Keywords != "" || s.SearchText != ""
		if search {
			bits |= 32 // its search fields follow (so a list without them hashes as before)
		}
		if s.Paths != "" {
			bits |= 64 // its paths follow (so a list without them hashes as before)
		}
		if s.ContentDigest != "" {
			bits |= 128 // its content digest follows (so a list without digests hashes as before)
		}
		buf = append(buf, bits)
		buf = appendTokenString(buf, s.Provider)
		if s.Origin != "" {
			buf = appendTokenString(buf, s.Origin)
			buf = appendTokenString(buf, s.QualifiedName)
			if s.OriginKind != skill.OriginMCPServer {
				buf = append(buf, byte(s.OriginKind))
			}
		}
		if s.ArgumentHint != "" {
			buf = appendTokenString(buf, s.ArgumentHint)
		}
		if search {
			buf = appendTokenString(buf, s.WhenToUse)
			buf = appendTokenString(buf, s.Keywords)
			buf = appendTokenString(buf, s.SearchText)
		}
		if s.Paths != "" {
			buf = appendTokenString(buf, s.Paths)
		}
		if s.ContentDigest != "" {
			buf = appendTokenString(buf, s.ContentDigest)
		}
		if len(buf) >= chunk {
			_, _ = h.Write(buf)
			buf = buf[:0]
		}
	}
	_, _ = h.Write(buf)
	sum := h.Sum128().Bytes()
	return hex.EncodeToString(sum[:])
}

func appendTokenString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
