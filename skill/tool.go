package skill

// ToolValue is the canonical value of a successful `skill` tool call: the
// loaded skill's name, its provider, where its resources live (nil when the
// provider manages them), its instructions and, for a remote skill, the
// label of the source it comes from and what kind of source that is. Its
// JSON form is the tool's structured result, {name, provider,
// resourceBase?, content, origin?, origin_kind?}: origin_kind is "website"
// for a website's skill and absent otherwise (an MCP server's, or without
// origin the host's own).
type ToolValue struct {
	Name         string        `json:"name"`
	Provider     string        `json:"provider"`
	ResourceBase *ResourceBase `json:"resourceBase,omitempty"`
	Content      string        `json:"content"`
	Origin       string        `json:"origin,omitempty"`
	OriginKind   OriginKind    `json:"origin_kind,omitempty"`
}
