package skills

import (
	"context"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Lookup returns the summary of the skill that wins name under q, from q's
// snapshot (the cached one when available), without loading it: what a
// caller needs to judge a skill by its listing (its provider, its policy)
// before asking its provider for the body. found is false when the snapshot
// does not list name; an incomplete snapshot may then still be able to load
// it (see Get). The only error is ctx's.
func (r *Registry) Lookup(ctx context.Context, q Query, name string) (sum skill.Summary, found bool, err error) {
	if !skill.ValidListedName(name) {
		return skill.Summary{}, false, ctx.Err()
	}
	v, err := r.view(ctx, q)
	if err != nil {
		return skill.Summary{}, false, err
	}
	i, ok := slices.BinarySearchFunc(v.skills, name, func(s skill.Summary, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return skill.Summary{}, false, nil
	}
	return v.skills[i], true, nil
}
