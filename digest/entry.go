package digest

// Entry is one published catalog summary, exactly as recorded in the durable catalog record
// (not XML-escaped): a skill name, its normalized, capped description, and, for a remote
// skill, Origin, the host-assigned label of the server that serves it. Origin is empty for
// the host's own skills, and a catalog without remote skills digests as it always has.
type Entry struct{ Name, Description, Origin string }
