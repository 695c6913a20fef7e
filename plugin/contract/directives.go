package contract

import "github.com/skillcatalog/skillcatalog/skill"

// Invocation is a skill the user invoked by name in a step: the step
// appends the message that carries its instructions.
type Invocation struct {
	// Name is the skill's name, as the user wrote it.
	Name string
	// MessageID is the id of the appended message.
	MessageID string
	// Directives are what the skill asks of the runtime, with the kinds
	// the host said it acts on; nil when it asks for nothing. The message
	// ends with the notice of what is not acted on.
	Directives *skill.Directives
}
