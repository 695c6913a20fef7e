package skill

// The names of the plugin's tools. They are part of the protocol (a host
// registers the tools, resolves calls by these names and forwards them to
// the plugin, see plugin/contract) and of the text the model reads.
const (
	// ToolName is the name under which every mount registers the `skill`
	// tool.
	ToolName = "skill"
	// ResourceToolName is the name under which a mount with the
	// resourceTool option registers the resource-read tool.
	ResourceToolName = "skill_resource"
	// SearchToolName is the name under which a mount with the searchTool
	// option registers the skill-search tool.
	SearchToolName = "skill_search"
)

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
