package plugin

import (
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// SnapshotDelta computes, for a Host that answers a SnapshotRequest with
// AcceptDelta, what changed between base (the snapshot the request named)
// and cur: the summaries that are new or changed, and the names cur no
// longer lists. Both listings must be sorted by name without repeats, as
// snapshots are. worth is false when the delta would not be much smaller
// than cur itself, and the host should send cur whole.
func SnapshotDelta(base, cur []skill.Summary) (upserts []skill.Summary, removed []string, worth bool) {
	i, j := 0, 0
	for i < len(base) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(base) && base[i].Name < cur[j].Name):
			removed = append(removed, base[i].Name)
			i++
		case i == len(base) || cur[j].Name < base[i].Name:
			upserts = append(upserts, cur[j])
			j++
		default:
			if base[i] != cur[j] {
				upserts = append(upserts, cur[j])
			}
			i++
			j++
		}
		if 2*(len(upserts)+len(removed)) > len(cur)+1 {
			return nil, nil, false
		}
	}
	return upserts, removed, true
}

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
