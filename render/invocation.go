package render

import "strings"

// UserInvocationNote is the sentence every catalog text of a mount with
// user invocation on ends with: a skill the user invoked by name reaches
// the model as the `skill` tool's rendering of it (SkillContent), in a
// message of its own, and must not be loaded again.
const UserInvocationNote = "When the user invokes a skill by name, its full instructions appear in the conversation as its `<skill_content>` block; follow them, and do not load that skill again with the `skill` tool."

// reminderClose ends every catalog text.
const reminderClose = "\n</system-reminder>"

// WithUserInvocationNote returns a catalog text (the initial catalog, a
// replacement or the tombstone) with UserInvocationNote as its last
// sentence, after the closing instructions and before the closing
// </system-reminder>. A text without that closing tag is returned as it is.
func WithUserInvocationNote(catalog string) string {
	return withClosingSentence(catalog, UserInvocationNote)
}

// withClosingSentence adds sentence to a catalog text's closing
// instructions, before its closing </system-reminder>.
func withClosingSentence(catalog, sentence string) string {
	body, ok := strings.CutSuffix(catalog, reminderClose)
	if !ok {
		return catalog
	}
	return body + " " + sentence + reminderClose
}
