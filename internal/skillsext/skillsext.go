// Package skillsext holds the wire shapes of the MCP Skills extension
// (io.modelcontextprotocol/skills, SEP-2640): its identifier, method names,
// limits, and the params and results of skills/list, skills/get and
// resources/directory/read. The server (package skillserver) writes them and
// the client (package mcpskills) reads them, so both ends share one
// definition, as they share the skill:// URI spelling and the digest form
// (uri.go). The client decodes untrusted entries with its own checks; the
// types here say only what the specification names.
package skillsext

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExtensionID names the extension under capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/skills"

// Method names the extension defines.
const (
	MethodList          = "skills/list"
	MethodGet           = "skills/get"
	MethodDirectoryRead = "resources/directory/read"
)

// ProtocolRevision is the base protocol revision the extension is written
// against.
const ProtocolRevision = "2026-07-28"

// Per-skill limits every conforming host accepts: the entries of a skill's
// resources (SKILL.md included) and the sum of their sizes.
const (
	MaxSkillResources = 512
	MaxSkillBytes     = 16 << 20
)

// DigestPrefix starts every resource digest: "sha256:" and 64 lowercase
// hexadecimal digits of the SHA-256 of the file's raw bytes.
const DigestPrefix = "sha256:"

// DirectoryMIMEType marks a directory resource.
const DirectoryMIMEType = "inode/directory"

// ResultTypeComplete is the resultType of every result the extension
// defines.
const ResultTypeComplete = "complete"

// DynamicResources is the value of Skill.Resources for a skill whose content
// is generated, so that no digests can be published.
const DynamicResources = "dynamic"

// Settings is the extension's entry in capabilities.extensions.
type Settings struct {
	// DirectoryRead says the server implements resources/directory/read.
	DirectoryRead bool `json:"directoryRead,omitempty"`
}

// SkillResource is one file of a skill with the digest and size of its
// content.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Skill is the entry of one skill. Resources is a JSON array of
// SkillResource or the string "dynamic"; Frontmatter is the SKILL.md
// frontmatter as a JSON object, verbatim.
type Skill struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

// ListParams are the params of skills/list.
type ListParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// ListResult is the result of skills/list.
type ListResult struct {
	mcp.ResultBase
	ResultType string  `json:"resultType"`
	Skills     []Skill `json:"skills"`
	NextCursor string  `json:"nextCursor,omitempty"`
	TTLMs      int64   `json:"ttlMs"`
	CacheScope string  `json:"cacheScope"`
}

// GetParams are the params of skills/get.
type GetParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

// GetResult is the result of skills/get.
type GetResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	Skill      Skill  `json:"skill"`
	TTLMs      int64  `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
}

// DirectoryReadParams are the params of resources/directory/read.
type DirectoryReadParams struct {
	mcp.ParamsBase
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

// DirectoryReadResult is the result of resources/directory/read: the
// directory's direct children, subdirectories with DirectoryMIMEType.
type DirectoryReadResult struct {
	mcp.ResultBase
	ResultType string          `json:"resultType"`
	Resources  []*mcp.Resource `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
	// TTLMs and CacheScope are the caching fields of a 2026-07-28 result:
	// the specification's result names only pagination, but the official
	// TypeScript SDK requires both on this result at that revision.
	TTLMs      int64  `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
}
