package tools_test

import (
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// A host files its tools in a tree of scopes: the global scope, an agent
// below it. A name resolves nearest first, so the agent's own read_file
// shadows the global one, and a restriction hides a name from a scope and
// everything below it.
func ExampleNewTree() {
	tree := tools.NewTree()
	if err := tree.AddScope("agent:reviewer", tools.GlobalScope); err != nil {
		log.Fatal(err)
	}
	for _, r := range []struct {
		scope string
		def   tools.Definition
	}{
		{tools.GlobalScope, tools.Definition{Name: "read_file", Description: "Read a file."}},
		{tools.GlobalScope, tools.Definition{Name: "run_shell", Description: "Run a shell command."}},
		{"agent:reviewer", tools.Definition{Name: "read_file", Description: "Read a file of the change under review."}},
	} {
		if _, err := tree.Register(r.scope, r.def); err != nil {
			log.Fatal(err)
		}
	}
	if err := tree.Restrict("agent:reviewer", "run_shell"); err != nil {
		log.Fatal(err)
	}

	for _, t := range tree.Visible("agent:reviewer") {
		fmt.Printf("%s (%s): %s\n", t.Definition.Name, t.Scope, t.Definition.Description)
	}
	_, _, ok := tree.Resolve("agent:reviewer", "run_shell")
	fmt.Println("run_shell resolves:", ok)
	chain, err := tree.Chain("agent:reviewer")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(chain)
	// Output:
	// read_file (agent:reviewer): Read a file of the change under review.
	// run_shell resolves: false
	// [agent:reviewer global]
}
