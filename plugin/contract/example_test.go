package contract_test

import (
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// A step's answer is a list of edits to the messages the host proposed:
// Apply makes the decision the host then runs the step with. Here the
// plugin appends its catalog after the user's message.
func ExampleDecision_Apply() {
	proposed := contract.Decision{Messages: []contract.Message{
		{Role: contract.RoleUser, Content: []contract.ContentBlock{contract.TextBlock("Fill in the form.")}},
	}}
	edits := []contract.Edit{{Op: contract.EditAppend, Message: contract.Message{
		Role: contract.RoleUser, Content: []contract.ContentBlock{contract.TextBlock("<system-reminder>...</system-reminder>")},
	}}}
	decided, err := proposed.Apply(edits)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range decided.Messages {
		fmt.Println(m.Role, m.Text())
	}
	// Output:
	// user Fill in the form.
	// user <system-reminder>...</system-reminder>
}

// A mount's options cross the protocol as a JSON object: a Go host writes
// it with JSON, which leaves out what is not set, and a host in another
// language writes the same object itself.
func ExampleMountOptions_JSON() {
	opts := contract.MountOptions{CatalogBudget: 4000, SearchTool: true}
	fmt.Println(opts.JSON())
	fmt.Println(contract.MountOptions{}.JSON())
	// Output:
	// {"searchTool":true,"catalogBudget":4000}
	// {}
}
