package contract

// The names of the plugin's tools: part of the protocol, since a host
// registers them, resolves calls by them and forwards those calls to the
// plugin.
const (
	// SkillToolName is the name under which every mount registers the
	// `skill` tool.
	SkillToolName = "skill"
	// ResourceToolName is the name under which a mount with the
	// resourceTool option registers the resource-read tool.
	ResourceToolName = "skill_resource"
	// SearchToolName is the name under which a mount with the searchTool
	// option registers the skill-search tool.
	SearchToolName = "skill_search"
)
