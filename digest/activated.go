package digest

import (
	"encoding/binary"

	"github.com/zeebo/xxh3"
)

// activatedDomain separates the digest of a catalog with activated skills
// from every other use of XXH3.
const activatedDomain = "skillcatalog/activated/v1\x00"

// WithActivated returns the digest of a catalog whose record also names
// the skills a session's touched files activated (skills scoped by
// `paths`), given sorted without repeats: d itself when there are none, so
// every catalog without them keeps the digest it always had; otherwise the
// XXH3-128 of the domain, d, the count and each name length-prefixed. A
// catalog that lists the same entries after another activation has another
// digest, so the activation is published, and durable, at once.
func WithActivated(d Digest, activated []string) Digest {
	if len(activated) == 0 {
		return d
	}
	var h xxh3.Hasher
	var c [binary.MaxVarintLen64]byte
	h.WriteString(activatedDomain)
	h.Write(d[:])
	h.Write(binary.AppendUvarint(c[:0], uint64(len(activated))))
	for _, n := range activated {
		h.Write(binary.AppendUvarint(c[:0], uint64(len(n))))
		h.WriteString(n)
	}
	return Digest(h.Sum128().Bytes())
}
