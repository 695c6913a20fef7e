package skill

import (
	"fmt"
	"strings"
)

// OriginKind says what kind of remote source an Origin labels, and so what
// the texts a model reads call it. It means nothing for a skill without an
// Origin (the host's own).
type OriginKind uint8

const (
	// OriginMCPServer is an MCP server. It is the zero value, so every
	// remote skill described without a kind (by a host or provider written
	// before kinds existed) keeps meaning one.
	OriginMCPServer OriginKind = iota
	// OriginWebsite is a website that publishes an Agent Skills Discovery
	// index.
	OriginWebsite
)

// websiteText is OriginWebsite's spelling in JSON ("origin_kind").
const websiteText = "website"

// Valid reports whether k is a kind this package defines. A skill whose
// kind is not is refused as one whose label is invalid is: the model
// must never be told a source is something it is not.
func (k OriginKind) Valid() bool { return k <= OriginWebsite }

// String names the kind as the texts a model or a person reads do: "MCP
// server" or "website".
func (k OriginKind) String() string {
	switch k {
	case OriginMCPServer:
		return "MCP server"
	case OriginWebsite:
		return "website"
	}
	return fmt.Sprintf("OriginKind(%d)", uint8(k))
}

// MarshalText spells k as JSON carries it: "website", or "mcp_server"
// (which ToolValue never writes: its origin_kind is omitted for an MCP
// server).
func (k OriginKind) MarshalText() ([]byte, error) {
	switch k {
	case OriginMCPServer:
		return []byte("mcp_server"), nil
	case OriginWebsite:
		return []byte(websiteText), nil
	}
	return nil, fmt.Errorf("unknown origin kind %d", uint8(k))
}

// UnmarshalText reads what MarshalText writes.
func (k *OriginKind) UnmarshalText(text []byte) error {
	switch string(text) {
	case "mcp_server":
		*k = OriginMCPServer
	case websiteText:
		*k = OriginWebsite
	default:
		return fmt.Errorf("unknown origin kind %q", text)
	}
	return nil
}

// QualifierSeparator joins a remote skill's origin label and its path in a
// qualified name: "docs:acme/billing/refunds".
const QualifierSeparator = ':'

// Bounds on qualified names. A prefix segment of a server's skill path is at
// most MaxNameLength bytes, like the name that ends it, and a qualified name
// holds at most MaxQualifiedSegments segments after its label.
const (
	MaxQualifiedSegments   = 16
	MaxQualifiedNameLength = 256
)

// ValidLabel reports whether label can name the origin of remote skills: a
// host-assigned label (never a server's self-reported name) in the skill-name
// grammar, at most MaxNameLength bytes, so that "<label>:<path>" splits at
// its first colon.
func ValidLabel(label string) bool {
	return ValidBoundedName(label)
}

// QualifiedName returns the name under which a remote skill stays listed and
// loadable when its plain name collides with another visible skill: its
// origin label, QualifierSeparator, and its path on that server (the
// segments that locate the skill, ending in its name). It does not check its
// parts; ValidQualifiedName does.
func QualifiedName(label, path string) string {
	return label + string(QualifierSeparator) + path
}

// ValidQualifiedName reports whether name is a qualified name: a label
// (ValidLabel), QualifierSeparator, then one to MaxQualifiedSegments
// slash-separated segments of which the last is a skill name
// (ValidBoundedName) and the earlier ones are organizational prefix
// segments (ASCII letters, digits, '.', '_' and '-', starting with a letter
// or digit, at most MaxNameLength bytes), MaxQualifiedNameLength bytes in
// all.
func ValidQualifiedName(name string) bool {
	if len(name) > MaxQualifiedNameLength {
		return false
	}
	label, path, ok := strings.Cut(name, string(QualifierSeparator))
	if !ok || !ValidLabel(label) || path == "" {
		return false
	}
	segments := 0
	for {
		segments++
		if segments > MaxQualifiedSegments {
			return false
		}
		seg, rest, more := strings.Cut(path, "/")
		if !more {
			return ValidBoundedName(seg)
		}
		if !validPrefixSegment(seg) {
			return false
		}
		path = rest
	}
}

// ValidListedName reports whether name can be listed in a catalog and passed
// to the `skill` tool: a plain skill name (ValidName) or a qualified name
// (ValidQualifiedName).
func ValidListedName(name string) bool {
	return ValidName(name) || ValidQualifiedName(name)
}

func validPrefixSegment(seg string) bool {
	if seg == "" || len(seg) > MaxNameLength {
		return false
	}
	for i := 0; i < len(seg); i++ {
		switch c := seg[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '.' || c == '_' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}
