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
// qualified name, and, flagged by bit 8, an argument hint), so no two different lists encode alike and the token
// depends on content alone.
func snapshotToken(skills []skill.Summary) string {
	h := xxh3.New128()
	var scratch [binary.MaxVarintLen64 + 1]byte
	writeString := func(s string) {
		_, _ = h.Write(binary.AppendUvarint(scratch[:0], uint64(len(s))))
		_, _ = h.WriteString(s)
	}
	writeString(tokenDomain)
	_, _ = h.Write(binary.AppendUvarint(scratch[:0], uint64(len(skills))))
	for _, s := range skills {
		writeString(s.Name)
		writeString(s.Description)
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
		scratch[0] = bits
		_, _ = h.Write(scratch[:1])
		writeString(s.Provider)
		if s.Origin != "" {
			writeString(s.Origin)
			writeString(s.QualifiedName)
		}
		if s.ArgumentHint != "" {
			writeString(s.ArgumentHint)
		}
	}
	sum := h.Sum128().Bytes()
	return hex.EncodeToString(sum[:])
}
