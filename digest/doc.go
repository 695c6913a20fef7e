// Package digest computes the catalog digest: a 128-bit fingerprint of the ordered
// (name, description) entries that a catalog message publishes.
//
// The digest decides whether a new catalog must be published, and it is compared against
// entries recovered from durable session records written by earlier processes and earlier
// releases. It is therefore stable: the same entries in the same order yield the same digest
// in every process, on every platform, and in every release. The encoding below is part of
// that contract; changing it requires a new domain prefix and is a visible behaviour change,
// because every resumed session would republish its catalog once.
//
// # Encoding
//
// The digest is XXH3-128 (seed 0) over the byte string
//
//	"skillcatalog/digest/v1\x00"
//	uvarint(len(entries))
//	for each entry, in order:
//	    uvarint(len(name)) name uvarint(len(description)) description
//
// where uvarint is the unsigned LEB128 varint of encoding/binary and lengths count bytes.
// A catalog that a budget fitted, and that says how many skills it left out, hashes
// "omitted\x00" uvarint(count) after its entries (OfOmitting); with nothing left out there
// is no trailer, so every other catalog keeps the digest above.
// Every field is length-prefixed, so distinct entry lists never share an encoding, unlike a
// separator-joined string where {"a", "b\nc"} and {"a\nb", "c"} would collide. Entry order
// is significant: callers sort entries before hashing when order should not matter.
//
// The textual form is 32 lowercase hexadecimal digits of the big-endian 128-bit value
// (high 64 bits first), the canonical XXH3-128 byte order.
package digest
