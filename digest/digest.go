package digest

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/zeebo/xxh3"
)

// domain separates this encoding from any other use of XXH3 and versions it.
const domain = "skillcatalog/digest/v1\x00"

// Digest is the XXH3-128 fingerprint of an ordered entry list, in big-endian byte order.
type Digest [16]byte

// Of returns the digest of entries in their given order. It streams the encoding into the
// hasher, so its allocations do not grow with the number of entries.
func Of(entries []Entry) Digest {
	var h xxh3.Hasher
	var n [binary.MaxVarintLen64]byte
	h.WriteString(domain)
	h.Write(binary.AppendUvarint(n[:0], uint64(len(entries))))
	for i := range entries {
		e := &entries[i]
		h.Write(binary.AppendUvarint(n[:0], uint64(len(e.Name))))
		h.WriteString(e.Name)
		h.Write(binary.AppendUvarint(n[:0], uint64(len(e.Description))))
		h.WriteString(e.Description)
	}
	return Digest(h.Sum128().Bytes())
}

// String returns the digest as 32 lowercase hexadecimal digits.
func (d Digest) String() string {
	return hex.EncodeToString(d[:])
}

// Parse reads the form produced by String. Only the canonical spelling is accepted (exactly
// 32 lowercase hexadecimal digits), so every digest has one textual form.
func Parse(s string) (Digest, error) {
	var d Digest
	if len(s) != 2*len(d) {
		return Digest{}, fmt.Errorf("parse digest %q: length %d, want 32 lowercase hexadecimal digits", s, len(s))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return Digest{}, fmt.Errorf("parse digest %q: byte %d is not a lowercase hexadecimal digit", s, i)
		}
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return Digest{}, fmt.Errorf("parse digest %q: %w", s, err)
	}
	return d, nil
}
