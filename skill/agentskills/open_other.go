//go:build !unix

package agentskills

import "os"

// openSkillFileIn opens the SKILL.md of d inside the directory. Without
// openat, a SKILL.md that is a link out of its directory cannot be opened
// relative to it on this platform, and is not loaded.
func openSkillFileIn(d *skillDir) (*os.File, error) {
	return d.root.Open(skillFileName)
}
