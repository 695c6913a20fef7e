package digest

// Entry is one published catalog summary, exactly as recorded in the durable catalog record
// (not XML-escaped): a skill name, its normalized, capped description, and, for a remote
// skill, Origin, the host-assigned label of the source that serves it, and OriginKind, what
// kind of source that is. Origin is empty for the host's own skills, and a catalog without
// remote skills digests as it always has; OriginKind is ignored without an Origin.
type Entry struct {
	Name, Description, Origin string
	OriginKind                OriginKind
	// ContentDigest is the digest of the skill's content the entry was
	// published with, where known (skill.Summary.ContentDigest). It is a
	// record of which version was listed, not part of what is published:
	// AppendEntry, Of and every digest of entries leave it out, so a
	// change of content alone never makes a catalog differ.
	ContentDigest string
}

// OriginKind says what an entry's Origin labels. Its values are part of the digest's
// encoding (see the package documentation) and so never change; a new kind takes a new
// value. It mirrors skill.OriginKind, which this package does not import.
type OriginKind uint8

const (
	// OriginMCPServer is an MCP server: the zero value, so that every entry recorded
	// before kinds existed keeps its meaning and its digest.
	OriginMCPServer OriginKind = 0
	// OriginWebsite is a website publishing an Agent Skills Discovery index.
	OriginWebsite OriginKind = 1
)
