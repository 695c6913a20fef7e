// Package digest computes the catalog digest: a 128-bit fingerprint of the ordered
// (name, description, origin, origin kind) entries that a catalog message publishes.
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
//	    [0x00 [0x00 kind] uvarint(len(origin)) origin]   only for an entry with an origin;
//	                                                    0x00 kind only for a kind other
//	                                                    than an MCP server
//	    uvarint(len(name)) name uvarint(len(description)) description
//
// where uvarint is the unsigned LEB128 varint of encoding/binary, lengths count bytes and
// kind is one byte, the [OriginKind] (1: a website).
// A remote skill's entry carries the label of the source it comes from ([Entry.Origin]); the
// zero byte before it is the length of an empty name, which no published entry has, so an
// entry of the host's own skills encodes exactly as before remote skills had origins, and a
// skill that moves between origins changes the digest. An origin is never empty, so a second
// zero byte cannot be its length: it announces the kind ([Entry.OriginKind]) that follows.
// An MCP server's entry has no kind byte, and encodes exactly as before origins had kinds; a
// website's entry differs from the same entry of an MCP server of the same label.
// A catalog that a budget fitted, and that says how many skills it left out, hashes
// "omitted\x00" uvarint(count) after its entries ([OfOmitting]); with nothing left out there
// is no trailer, so every other catalog keeps the digest above.
// Every field is length-prefixed, so distinct entry lists never share an encoding, unlike a
// separator-joined string where {"a", "b\nc"} and {"a\nb", "c"} would collide. [Entry] order
// is significant: callers sort entries before hashing when order should not matter.
//
// The textual form is 32 lowercase hexadecimal digits of the big-endian 128-bit value
// (high 64 bits first), the canonical XXH3-128 byte order.
//
// # Why it is public
//
// The digest is recorded in sessions and compared across processes,
// releases and implementations, so anything that must agree with the
// plugin on whether a catalog changed (another runtime, a migration tool,
// a test of a host) computes it with this package rather than a copy of
// the encoding.
package digest
