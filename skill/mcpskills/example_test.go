package mcpskills_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"
	"testing/fstest"

	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// New connects to an MCP server that publishes skills: here
// skillcatalog serve-mcp's server (package skillserver), in this process
// over HTTP. The provider lists the server's skills under the label the
// host gave it, and loads one when the model asks for it; a registry
// attaches it with skills.Registry.AddProvider.
func ExampleNew() {
	tree := fstest.MapFS{
		"incident-review/SKILL.md": {Data: []byte("---\nname: incident-review\ndescription: Review an incident and write its report.\n---\nStart from the timeline.\n")},
	}
	handler, err := skillserver.New(tree).HTTPHandler(nil)
	if err != nil {
		log.Fatal(err)
	}
	server := httptest.NewServer(handler)
	defer server.Close()

	provider, err := mcpskills.New(&mcpskills.Options{URL: server.URL, Label: "ops"})
	if err != nil {
		log.Fatal(err)
	}
	defer provider.Close()
	ctx := context.Background()
	obs, err := provider.List(ctx, skills.ListRequest{SessionID: "session-1"})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range obs.Skills {
		fmt.Printf("%s (from %s): %s\n", s.Name, s.Origin, s.Description)
	}
	def, found, err := provider.Load(ctx, skills.LoadRequest{SessionID: "session-1", Name: "incident-review"})
	if err != nil || !found {
		log.Fatal(found, err)
	}
	fmt.Println(def.Content)
	// Output:
	// incident-review (from ops): Review an incident and write its report.
	// Start from the timeline.
}
