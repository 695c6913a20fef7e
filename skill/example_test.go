package skill_test

import (
	"fmt"

	"github.com/skillcatalog/skillcatalog/skill"
)

// A skill's name follows one grammar everywhere: lowercase letters and
// digits in groups joined by single hyphens, at most MaxNameLength bytes.
func ExampleValidName() {
	for _, name := range []string{"pdf-forms", "PDF-Forms", "pdf--forms", "release-notes-2"} {
		fmt.Println(name, skill.ValidName(name))
	}
	// Output:
	// pdf-forms true
	// PDF-Forms false
	// pdf--forms false
	// release-notes-2 true
}

// A host that lets users invoke skills finds the `/name` tokens of a
// message with Invocations; a path or a trailing period is ordinary text.
func ExampleInvocations() {
	text := "/pdf-forms fill in the form, then /release-notes. Files are in /usr/share."
	for name := range skill.Invocations(text) {
		fmt.Println(name)
	}
	// Output:
	// pdf-forms
}

// Mentions yields each invocation with the text that follows it, what
// `/name args` passes to the skill.
func ExampleMentions() {
	text := "/review-pr 1234 $release-notes v1.2"
	for m := range skill.Mentions(text, string([]byte{skill.InvocationPrefix, skill.MentionPrefix})) {
		fmt.Printf("%s %q\n", m.Name, m.Args)
	}
	// Output:
	// review-pr "1234"
	// release-notes "v1.2"
}
