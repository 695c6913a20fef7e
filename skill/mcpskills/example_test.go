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
// `skillcatalog serve-mcp`'s server (package skillserver), in this process
// over HTTP, behind a bearer token. A host that builds its own registry
// attaches the provider, and closes it itself; the skills are listed
// under the label the host gave the server, and one loads when the model
// asks for it.
func ExampleNew() {
	tree := fstest.MapFS{
		"incident-review/SKILL.md": {Data: []byte("---\nname: incident-review\ndescription: Review an incident and write its report.\n---\nStart from the timeline.\n")},
	}
	handler, err := skillserver.New(tree).HTTPHandler(nil)
	if err != nil {
		log.Fatal(err)
	}
	const token = "s3cret"
	server := httptest.NewServer(skillserver.RequireBearerToken(handler, token))
	defer server.Close()

	remote, err := mcpskills.New(&mcpskills.Options{
		URL:     server.URL,
		Headers: map[string]string{"Authorization": "Bearer " + token},
		Label:   "ops",
	})
	if err != nil {
		log.Fatal(err)
	}
	defer remote.Close()
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	registry.AddProvider("global", remote, nil)

	ctx := context.Background()
	q := skills.Query{SessionID: "session-1", Chain: []string{"global"}}
	snap, err := registry.Snapshot(ctx, q)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range snap.Skills {
		fmt.Printf("%s (from %s): %s\n", s.Name, s.Origin, s.Description)
	}
	def, found, err := registry.Get(ctx, q, "incident-review")
	if err != nil || !found {
		log.Fatal(found, err)
	}
	fmt.Println(def.Content)
	// Output:
	// incident-review (from ops): Review an incident and write its report.
	// Start from the timeline.
}
