package plugin

import "github.com/skillcatalog/skillcatalog/skill"

// directivesOf returns the directives of a loaded skill as the plugin
// passes them on and states them: a copy, untrusted when the skill is shown
// as remote (origin, its definition's or its listing's) while its
// definition carries no origin. The host's trust is its answer for the
// skill it loaded; a listing that names a remote source the definition
// does not is not vouched for by it, and a remote source's requests are
// never acted on.
func directivesOf(def skill.Definition, origin string) *skill.Directives {
	d := def.Directives.Clone()
	if d != nil && origin != "" && def.Origin == "" {
		d.Trusted = false
	}
	return d
}
