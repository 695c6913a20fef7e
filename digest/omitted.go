package digest

// omittedTrailer starts what a budgeted catalog's digest hashes after its
// entries. The entry list before it is self-delimiting (count first, every
// field length-prefixed), so a trailer can never be mistaken for entries.
const omittedTrailer = "omitted\x00"

// OfOmitting returns the digest of a catalog that publishes entries and
// says that omitted more skills were left out of it (a catalog budget):
// with omitted 0 it is Of(entries); otherwise the encoding Of hashes is
// followed by "omitted\x00" uvarint(omitted), so the same entries with a
// different count of left-out skills have another digest.
func OfOmitting(entries []Entry, omitted int) Digest {
	if omitted <= 0 {
		return Of(entries)
	}
	encoded := make([][]byte, len(entries))
	for i := range entries {
		encoded[i] = AppendEntry(nil, entries[i])
	}
	return ofEncoded(len(entries), encoded, omitted)
}
