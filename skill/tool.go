package skill

// ToolValue is the canonical value of a successful `skill` tool call: the
// loaded skill's name, its provider, where its resources live (nil when the
// provider manages them) and its instructions. Its JSON form is the tool's
// structured result, {name, provider, resourceBase?, content}.
type ToolValue struct {
	Name         string        `json:"name"`
	Provider     string        `json:"provider"`
	ResourceBase *ResourceBase `json:"resourceBase,omitempty"`
	Content      string        `json:"content"`
}
