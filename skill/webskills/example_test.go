package webskills_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// Publish writes the static site `skillcatalog publish` writes: a
// discovery index under .well-known/agent-skills/ and one artifact per
// skill, a SKILL.md alone or an archive of a skill with files beside it.
// Any web server serves it.
func ExamplePublish() {
	out, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	published, err := webskills.Publish(out, []webskills.PublishSkill{
		{Name: "code-review", Dir: "../../testdata/webskills/skills/code-review"},
		{Name: "wrangler", Dir: "../../testdata/webskills/skills/wrangler"},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range published {
		fmt.Println(p.Name, p.Type, p.URL, p.Files, "file(s)")
	}
	rel, err := filepath.Rel(out, webskills.IndexPath(out))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rel)
	// Output:
	// code-review skill-md code-review/SKILL.md 1 file(s)
	// wrangler archive wrangler.tar.gz 3 file(s)
	// .well-known/agent-skills/index.json
}

// New reads a site's discovery index and lists its skills under the label
// the host gave the site; a skill loads when the model asks for it, its
// digest checked against the index. The site here is the one Publish
// writes, served over plain HTTP on the loopback interface (AllowHTTP).
// A registry attaches the provider with skills.Registry.AddProvider.
func ExampleNew() {
	out, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	if _, err := webskills.Publish(out, []webskills.PublishSkill{{Name: "code-review", Dir: "../../testdata/webskills/skills/code-review"}}); err != nil {
		log.Fatal(err)
	}
	site := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer site.Close()

	provider, err := webskills.New(&webskills.Options{URL: site.URL, Label: "docs", AllowHTTP: true})
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
	def, found, err := provider.Load(ctx, skills.LoadRequest{SessionID: "session-1", Name: "code-review"})
	if err != nil || !found {
		log.Fatal(found, err)
	}
	title, _, _ := strings.Cut(def.Content, "\n")
	fmt.Println(title)
	// Output:
	// code-review (from docs): Review code for bugs, security issues and best practices.
	// # Code review
}
