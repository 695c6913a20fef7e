package contract

import "github.com/skillcatalog/skillcatalog/skill"

// The names of the plugin's tools: part of the protocol, since a host
// registers them, resolves calls by them and forwards those calls to the
// plugin. They are written once, in package skill.
const (
	// SkillToolName is the name under which every mount registers the
	// `skill` tool.
	SkillToolName = skill.ToolName
	// ResourceToolName is the name under which a mount with the
	// resourceTool option registers the resource-read tool.
	ResourceToolName = skill.ResourceToolName
	// SearchToolName is the name under which a mount with the searchTool
	// option registers the skill-search tool.
	SearchToolName = skill.SearchToolName
)
