package skillsext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The discovery index of the Agent Skills Discovery RFC
// (/.well-known/agent-skills/index.json, v0.2.0, and its v0.1.0 ancestor at
// /.well-known/skills/index.json), which the older skill://index.json
// convention of MCP servers borrows: one JSON object with a "skills" array.
// The web provider (package webskills) reads and writes both versions;
// mcpskills reads the convention's entries with the same field rules.
const (
	// SchemaV2 is the $schema of a v0.2.0 index. A v0.1.0 index has none.
	SchemaV2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
	// WellKnownDir is where a site publishes a v0.2.0 index and its
	// artifacts; LegacyWellKnownDir is the v0.1.0 location.
	WellKnownDir       = "/.well-known/agent-skills/"
	LegacyWellKnownDir = "/.well-known/skills/"
	// IndexFileName is the index's name in either directory.
	IndexFileName = "index.json"
	// TypeSkillMD is an entry whose artifact is one SKILL.md; TypeArchive
	// one whose artifact is a .tar.gz or .zip of the skill's directory.
	TypeSkillMD = "skill-md"
	TypeArchive = "archive"
)

// IndexEntry is one skill of a v0.2.0 index, as written.
type IndexEntry struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Digest      string `json:"digest"`
}

// Index is a v0.2.0 index, as written.
type Index struct {
	Schema string       `json:"$schema"`
	Skills []IndexEntry `json:"skills"`
}

// LegacyIndexEntry is one skill of a v0.1.0 index: its files are paths
// relative to the skill's directory, SKILL.md first.
type LegacyIndexEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Files       []string `json:"files"`
}

// LegacyIndex is a v0.1.0 index, as written.
type LegacyIndex struct {
	Skills []LegacyIndexEntry `json:"skills"`
}

// ErrMalformedIndex marks an index that cannot be used at all.
var ErrMalformedIndex = errors.New("skillsext: malformed index")

// IndexItems reads an index document (a leading byte order mark allowed)
// and returns its members and the items of its "skills" array, each still
// raw: a document that is not a JSON object or has no "skills" array is
// ErrMalformedIndex.
func IndexItems(data []byte) (map[string]json.RawMessage, []json.RawMessage, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return nil, nil, fmt.Errorf("%w: not a JSON object", ErrMalformedIndex)
	}
	raw, ok := doc["skills"]
	if !ok {
		return nil, nil, fmt.Errorf("%w: no \"skills\" member", ErrMalformedIndex)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, nil, fmt.Errorf("%w: \"skills\" is not an array", ErrMalformedIndex)
	}
	return doc, items, nil
}

// EntryObject reads one item of "skills" as a JSON object, or says why it
// is not one.
func EntryObject(item json.RawMessage) (map[string]json.RawMessage, string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(item, &obj); err != nil || obj == nil {
		return nil, "not an object"
	}
	return obj, ""
}

// StringMember returns the string member key of obj, or says why there is
// none: missing, or not a string (null included).
func StringMember(obj map[string]json.RawMessage, key string) (string, string) {
	raw, ok := obj[key]
	if !ok {
		return "", fmt.Sprintf("no %q", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", fmt.Sprintf("%q is not a string", key)
	}
	return s, ""
}
