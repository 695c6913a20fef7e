// Package skillcatalog is the root of the skill-catalog plugin module: a
// HashiCorp go-plugin that gives agent runtimes progressive-disclosure
// skills. The plugin lives in package plugin, the host SDK in package
// hostsdk. This package only carries the example Agent Skills that the demo
// command embeds.
package skillcatalog

import (
	"embed"
	"io/fs"
)

//go:embed testdata/skills
var exampleSkills embed.FS

// ExampleSkills returns the example Agent Skills directory tree
// (testdata/skills): one directory per skill, each holding a SKILL.md.
func ExampleSkills() fs.FS {
	sub, err := fs.Sub(exampleSkills, "testdata/skills")
	if err != nil {
		panic(err) // the path is fixed at compile time
	}
	return sub
}
