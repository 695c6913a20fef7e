package skills_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A runtime registers its own skills in scopes. A query names the scopes a
// session sees, nearest first: the agent's own "code-review" wins over the
// global one of the same name.
func ExampleNewRegistry() {
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range []struct {
		scope string
		skill skills.RuntimeSkill
	}{
		{"global", skills.RuntimeSkill{Name: "code-review", Description: "Review a change for bugs.", Content: "Read the diff..."}},
		{"global", skills.RuntimeSkill{Name: "release-notes", Description: "Write release notes.", Content: "List the merged changes..."}},
		{"agent:reviewer", skills.RuntimeSkill{Name: "code-review", Description: "Review a change against the team's checklist.", Content: "Open CHECKLIST.md..."}},
	} {
		if err := registry.Register(r.scope, r.skill); err != nil {
			log.Fatal(err)
		}
	}

	ctx := context.Background()
	q := skills.Query{SessionID: "session-1", Chain: []string{"agent:reviewer", "global"}}
	snap, err := registry.Snapshot(ctx, q)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range snap.Skills {
		fmt.Printf("%s: %s\n", s.Name, s.Description)
	}
	def, found, err := registry.Get(ctx, q, "code-review")
	if err != nil || !found {
		log.Fatal(found, err)
	}
	fmt.Println(def.Content)
	// Output:
	// code-review: Review a change against the team's checklist.
	// release-notes: Write release notes.
	// Open CHECKLIST.md...
}

// Providers attach skills the registry lists on every snapshot: here the
// Agent Skills directories on disk (package agentskills), in the global
// scope.
func ExampleRegistry_AddProvider() {
	root, err := os.MkdirTemp("", "skills")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	dir := filepath.Join(root, "pdf-forms")
	if err := os.Mkdir(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	file := "---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nUse the form's field names.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(file), 0o644); err != nil {
		log.Fatal(err)
	}

	disk, err := agentskills.New(&agentskills.Options{HomeDir: root, ExtraRoots: []string{root}})
	if err != nil {
		log.Fatal(err)
	}
	defer disk.Close()
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	remove := registry.AddProvider("global", disk, &skills.ProviderOptions{Label: "disk"})
	defer remove()

	snap, err := registry.Snapshot(context.Background(), skills.Query{SessionID: "session-1", Cwd: root, Chain: []string{"global"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range snap.Skills {
		fmt.Printf("%s (%s): %s\n", s.Name, s.Provider, s.Description)
	}
	fmt.Println("complete:", snap.Complete)
	// Output:
	// pdf-forms (agentskills): Fill in PDF forms.
	// complete: true
}
