package digest

// Entry is one published catalog summary: a skill name and its normalized, capped description,
// exactly as recorded in the durable catalog record (not XML-escaped).
type Entry struct{ Name, Description string }
