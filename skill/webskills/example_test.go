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

// New reads a site's discovery index: here the site Publish writes,
// served over plain HTTP on the loopback interface (AllowHTTP). A host
// that builds its own registry attaches the provider, and closes it
// itself; the skills are listed under the label the host gave the site,
// and one loads when the model asks for it, its digest checked against the
// index.
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

	web, err := webskills.New(&webskills.Options{URL: site.URL, Label: "docs", AllowHTTP: true})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	registry.AddProvider("global", web, nil)

	ctx := context.Background()
	q := skills.Query{SessionID: "session-1", Chain: []string{"global"}}
	snap, err := registry.Snapshot(ctx, q)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range snap.Skills {
		fmt.Printf("%s (from %s): %s\n", s.Name, s.Origin, s.Description)
	}
	def, found, err := registry.Get(ctx, q, "code-review")
	if err != nil || !found {
		log.Fatal(found, err)
	}
	title, _, _ := strings.Cut(def.Content, "\n")
	fmt.Println(title)
	// Output:
	// code-review (from docs): Review code for bugs, security issues and best practices.
	// # Code review
}
