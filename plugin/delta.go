package plugin

import (
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// sortedUniqueNames reports whether skills are sorted by name without
// repeats.
func sortedUniqueNames(skills []skill.Summary) bool {
	for i := 1; i < len(skills); i++ {
		if strings.Compare(skills[i-1].Name, skills[i].Name) >= 0 {
			return false
		}
	}
	return true
}
