package agentskills_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// New makes a provider over skill roots on disk: every direct subdirectory
// of a root that holds a SKILL.md is a skill. Here one extra root, and a
// home directory with no skills of its own; a registry attaches the
// provider with skills.Registry.AddProvider.
func ExampleNew() {
	root, err := os.MkdirTemp("", "skills")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	writeSkill(root, "pdf-forms", "---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nUse the form's field names.\n")
	writeSkill(root, "release-notes", "---\nname: release-notes\ndescription: Write release notes.\n---\nList the merged changes.\n")
	writeSkill(root, "broken", "no frontmatter here\n")

	provider, err := agentskills.New(&agentskills.Options{HomeDir: root, ExtraRoots: []string{root}})
	if err != nil {
		log.Fatal(err)
	}
	defer provider.Close()
	found, complete, err := provider.Skills(context.Background(), root)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range found {
		fmt.Printf("%s: %s\n", s.Name, s.Description)
	}
	fmt.Println("every root read:", complete)
	for _, d := range provider.Diagnostics() {
		fmt.Println(d.Severity, d.Skill, d.Message)
	}
	// Output:
	// pdf-forms: Fill in PDF forms.
	// release-notes: Write release notes.
	// every root read: true
	// error broken skipped: no frontmatter: the file must start with a '---' line
}

// ParseSkillFile reads a SKILL.md's frontmatter and body, leniently: the
// unquoted ": " in the description is strict YAML's error and a warning
// here. Validate then judges the name and description against the name of
// the directory the file sits in.
func ExampleParseSkillFile() {
	data := []byte("---\nname: pdf-forms\ndescription: Fill in PDF forms: text fields and checkboxes.\n---\n\nUse the form's field names.\n")
	fm, body, warnings, err := agentskills.ParseSkillFile(data)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fm.Name)
	fmt.Println(fm.Description)
	fmt.Println(body)
	fmt.Println(warnings)
	warnings, err = fm.Validate("pdf")
	fmt.Println(warnings, err)
	// Output:
	// pdf-forms
	// Fill in PDF forms: text fields and checkboxes.
	// Use the form's field names.
	// [frontmatter is not valid YAML; read the unquoted value of "description" as a plain string (quote it to silence this warning)]
	// [name "pdf-forms" does not match directory name "pdf"] <nil>
}

// CheckSkillFile is what `skillcatalog validate` runs: the file against the
// Agent Skills specification, and whether the provider loads it anyway.
func ExampleCheckSkillFile() {
	data := []byte("---\nname: PDF Forms\ndescription: Fill in PDF forms.\n---\nUse the form's field names.\n")
	check, err := agentskills.CheckSkillFile("pdf-forms", data)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("valid:", check.Valid())
	for _, f := range check.Errors {
		fmt.Printf("error %s: %s\n", f.Field, f.Message)
	}
	fmt.Println("loads:", check.Loads)
	fmt.Println(check.NotLoaded)
	// Output:
	// valid: false
	// error name: "PDF Forms" may hold only lowercase letters a-z, digits and hyphens
	// error name: "PDF Forms" does not match the directory name "pdf-forms"
	// loads: false
	// name "PDF Forms" is not kebab-case (lowercase letters, digits and single hyphens), so it cannot be addressed
}

// writeSkill writes a skill's SKILL.md in its own directory under root.
func writeSkill(root, name, file string) {
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(file), 0o644); err != nil {
		log.Fatal(err)
	}
}
