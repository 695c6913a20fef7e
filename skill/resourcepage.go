package skill

import (
	"bytes"
	"unicode/utf8"
)

// MaxResourceBytes bounds a skill resource that the resource-read tool
// reads: a larger file is refused as too large rather than read. It is the
// bound of a SKILL.md document and of what the skills MCP server sends
// (MaxSkillFileBytes, 8 MiB).
const MaxResourceBytes = MaxSkillFileBytes

// ResourcePage is the canonical value of a successful resource-read tool
// call: one page of a skill resource's text. Its JSON form is the tool's
// structured result, {name, path, offset, nextOffset?, totalBytes, content}:
// nextOffset is present exactly when the resource continues after the page.
type ResourcePage struct {
	Name string `json:"name"`
	// Path is the resource's path relative to the skill's resource base.
	Path string `json:"path"`
	// Offset is the byte position of the page's first byte.
	Offset int64 `json:"offset"`
	// NextOffset is where the next page starts, or nil on the last page.
	NextOffset *int64 `json:"nextOffset,omitempty"`
	// TotalBytes is the size of the whole resource.
	TotalBytes int64 `json:"totalBytes"`
	// Content is the page's text, whole UTF-8 characters.
	Content string `json:"content"`
}

// IsText reports whether a resource's bytes are text the resource-read tool
// shows: valid UTF-8 without a NUL byte. Anything else is binary.
func IsText(b []byte) bool {
	return bytes.IndexByte(b, 0) < 0 && utf8.Valid(b)
}
