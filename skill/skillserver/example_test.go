package skillserver_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// NewDir serves a directory of Agent Skills, one subdirectory per skill,
// as `skillcatalog serve-mcp` does (New serves an fs.FS). Sync scans the
// directory (Watch keeps scanning as files change); Survey says what the
// scan found, and Index is the skill://index.json document clients without
// the MCP Skills extension read.
func ExampleNewDir() {
	dir, err := os.MkdirTemp("", "skills")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Mkdir(filepath.Join(dir, "incident-review"), 0o755); err != nil {
		log.Fatal(err)
	}
	file := "---\nname: incident-review\ndescription: Review an incident and write its report.\n---\nStart from the timeline.\n"
	if err := os.WriteFile(filepath.Join(dir, "incident-review", "SKILL.md"), []byte(file), 0o644); err != nil {
		log.Fatal(err)
	}

	server := skillserver.NewDir(dir)
	server.Sync()
	survey := server.Survey()
	fmt.Println(survey.Loaded, "skill(s) served")
	index, err := server.Index()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(index))
	// Output:
	// 1 skill(s) served
	// {"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json","skills":[{"name":"incident-review","type":"skill-md","description":"Review an incident and write its report.","url":"skill://incident-review/SKILL.md"}]}
}

// HTTPHandler serves the skills over MCP's streamable HTTP transport; any
// MCP client reads them, here the go-sdk's, and package mcpskills is the
// provider that lists and loads them for a host.
func ExampleServer_HTTPHandler() {
	tree := fstest.MapFS{
		"incident-review/SKILL.md": {Data: []byte("---\nname: incident-review\ndescription: Review an incident and write its report.\n---\nStart from the timeline.\n")},
	}
	handler, err := skillserver.New(tree).HTTPHandler(nil)
	if err != nil {
		log.Fatal(err)
	}
	server := httptest.NewServer(handler)
	defer server.Close()

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: server.URL}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://incident-review/SKILL.md"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Contents[0].Text)
	// Output:
	// ---
	// name: incident-review
	// description: Review an incident and write its report.
	// ---
	// Start from the timeline.
}

// RequireBearerToken keeps a served directory to the clients that present
// the token; mcpskills.Options.Headers sends it.
func ExampleRequireBearerToken() {
	handler, err := skillserver.New(fstest.MapFS{}).HTTPHandler(nil)
	if err != nil {
		log.Fatal(err)
	}
	server := httptest.NewServer(skillserver.RequireBearerToken(handler, "s3cret"))
	defer server.Close()

	resp, err := http.Post(server.URL, "application/json", nil)
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Status)
	// Output:
	// 401 Unauthorized
}
