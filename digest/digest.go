package digest

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"iter"

	"github.com/zeebo/xxh3"
)

// domain separates this encoding from any other use of XXH3 and versions it.
const domain = "skillcatalog/digest/v1\x00"

// Digest is the XXH3-128 fingerprint of an ordered entry list, in big-endian byte order.
type Digest [16]byte

// Of returns the digest of entries in their given order. It streams the encoding into the
// hasher in blocks, so its allocations do not grow with the number of entries.
func Of(entries []Entry) Digest {
	var h xxh3.Hasher
	begin(&h, len(entries))
	var buf [4096]byte
	b := buf[:0]
	for i := range entries {
		e := entries[i]
		// Four varints bound the marker, the kind's two bytes and the three lengths.
		if n := 4*binary.MaxVarintLen64 + len(e.Name) + len(e.Description) + len(e.Origin); len(b)+n > cap(b) {
			h.Write(b)
			b = buf[:0]
			if n > cap(b) {
				h.Write(AppendEntry(nil, e)) // an entry larger than a block
				continue
			}
		}
		b = AppendEntry(b, e)
	}
	h.Write(b)
	return Digest(h.Sum128().Bytes())
}

// ofEncoded returns the digest of a catalog of n entries whose encodings, each written by
// AppendEntry, lie back to back in the pieces of encoded, and that says omitted skills were
// left out of it: OfOmitting(entries, omitted) equals ofEncoded(len(entries), the
// AppendEntry encodings of entries however split into pieces, omitted), and with omitted 0
// both are Of(entries). A caller that keeps entries encoded hashes a catalog in one pass.
func ofEncoded(n int, encoded [][]byte, omitted int) Digest {
	var h xxh3.Hasher
	begin(&h, n)
	for _, p := range encoded {
		h.Write(p)
	}
	return sum(&h, omitted)
}

// OfEncodedSeq is ofEncoded for encodings held in pieces that encoded
// yields in order, so a caller that keeps them in its own structure need
// not gather them into a slice first.
func OfEncodedSeq(n int, encoded iter.Seq[[]byte], omitted int) Digest {
	var h xxh3.Hasher
	begin(&h, n)
	for p := range encoded {
		h.Write(p)
	}
	return sum(&h, omitted)
}

// sum finishes a digest of encoded entries with the count of skills left
// out, if any.
func sum(h *xxh3.Hasher, omitted int) Digest {
	if omitted > 0 {
		var c [len(omittedTrailer) + binary.MaxVarintLen64]byte
		h.Write(binary.AppendUvarint(append(c[:0], omittedTrailer...), uint64(omitted)))
	}
	return Digest(h.Sum128().Bytes())
}

// AppendEntry appends the encoding of one entry that the digest hashes:
// uvarint(len(name)) name uvarint(len(description)) description. An entry with an Origin is
// preceded by a zero byte (the length of an empty name) and uvarint(len(origin)) origin, so
// entries without one encode as they always have. Published names are never empty, so the
// zero byte always marks an origin and the list stays self-delimiting. An origin of any kind
// but an MCP server (OriginMCPServer) has a second zero byte and the kind's byte between
// the marker and its length: an origin is never empty, so after the marker a zero byte can
// only announce a kind, and an MCP server's entry encodes as it did before kinds existed.
// The kind is not encoded for an entry without an Origin.
func AppendEntry(dst []byte, e Entry) []byte {
	if e.Origin != "" {
		dst = append(dst, 0)
		if e.OriginKind != OriginMCPServer {
			dst = append(dst, 0, byte(e.OriginKind))
		}
		dst = binary.AppendUvarint(dst, uint64(len(e.Origin)))
		dst = append(dst, e.Origin...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(e.Name)))
	dst = append(dst, e.Name...)
	dst = binary.AppendUvarint(dst, uint64(len(e.Description)))
	return append(dst, e.Description...)
}

// begin feeds h the domain and the entry count, which precede the entries.
func begin(h *xxh3.Hasher, n int) {
	var c [binary.MaxVarintLen64]byte
	h.WriteString(domain)
	h.Write(binary.AppendUvarint(c[:0], uint64(n)))
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
