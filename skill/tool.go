package skill

// ToolValue is the canonical value of a successful `skill` tool call: the
// loaded skill's name, its provider, where its resources live (nil when the
// provider manages them), its instructions and, for a remote skill, the
// label of the server it comes from. Its JSON form is the tool's structured
// result, {name, provider, resourceBase?, content, origin?}.
type ToolValue struct {
	Name         string        `json:"name"`
	Provider     string        `json:"provider"`
	ResourceBase *ResourceBase `json:"resourceBase,omitempty"`
	Content      string        `json:"content"`
	Origin       string        `json:"origin,omitempty"`
}
