package render_test

import (
	"fmt"

	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// NormalizeDescription is the description as a catalog shows it: runs of
// whitespace become one space, invisible characters go, and a description
// over the cap is cut to it, "..." included. A host that shows skills
// elsewhere (a menu, a settings page) shows the same text.
func ExampleNormalizeDescription() {
	description := "Fill in PDF forms:\n\ttext fields,\u200b checkboxes and signatures."
	fmt.Println(render.NormalizeDescription(description, 500))
	fmt.Println(render.NormalizeDescription(description, 20))
	// Output:
	// Fill in PDF forms: text fields, checkboxes and signatures.
	// Fill in PDF forms...
}

// DirectivesNotice is what follows a skill's instructions when the host
// does not act on all that the skill asks of it: here the host grants the
// tools but does not switch models, and the model is told so.
func ExampleDirectivesNotice() {
	d := &skill.Directives{Model: "opus", AllowedTools: []string{"Read", "Grep"}, Trusted: true, Honoured: skill.DirectiveAllowedTools}
	fmt.Println(render.DirectivesNotice("review", d))
	d.Honoured |= skill.DirectiveModel
	fmt.Printf("%q\n", render.DirectivesNotice("review", d))
	// Output:
	// <skill_directives name="review">
	// The skill asks to run on the model "opus"; this host keeps the current model.
	// </skill_directives>
	// ""
}
