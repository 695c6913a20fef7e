package plugin

import (
	"slices"
	"sort"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// view is the model-facing projection of one complete snapshot under one
// description cap. Views are shared between sessions and never modified.
//
// Besides the entries and their digest, a view keeps each entry's rendered
// catalog line and encoded record member, so publishing a catalog is a
// concatenation, and the hash of each entry's raw description, so the next
// view of the same place reuses every entry whose skill did not change.
type view struct {
	entries   []digest.Entry // model-invocable skills with addressable names, sorted
	lines     []string       // render.EntryLine of each entry
	records   []string       // events.EncodeEntry of each entry
	rawHashes []xxh3.Uint128 // hash of each entry's description as listed
	digest    digest.Digest
	listed    []listedSkill // every listed skill, sorted by name
}

// listedSkill is what the `skill` tool checks before loading: that the
// snapshot lists the name and whether the model may invoke it.
type listedSkill struct {
	name           string
	modelInvocable bool
}

func emptyView() *view {
	return &view{digest: digest.Of(nil)}
}

// buildView applies rule 4: model-invocable skills with addressable names,
// one per name, sorted by name, descriptions normalized and capped. Entries
// whose name and raw description match prev's are taken from prev instead
// of being normalized, rendered and encoded again; prev may be nil.
func buildView(skills []skill.Summary, maxLen int, prev *view) *view {
	byName := func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) }
	if !slices.IsSortedFunc(skills, byName) {
		skills = slices.Clone(skills)
		slices.SortStableFunc(skills, byName)
	}
	v := &view{listed: make([]listedSkill, 0, len(skills))}
	v.entries = make([]digest.Entry, 0, len(skills))
	v.lines = make([]string, 0, len(skills))
	v.records = make([]string, 0, len(skills))
	v.rawHashes = make([]xxh3.Uint128, 0, len(skills))
	var from int // cursor into prev's entries, which are sorted too
	for i, s := range skills {
		if i > 0 && skills[i-1].Name == s.Name {
			continue // the host resolves duplicates; the first one listed wins
		}
		v.listed = append(v.listed, listedSkill{name: s.Name, modelInvocable: s.Invocation.ModelInvocable})
		if !s.Invocation.ModelInvocable || !skill.ValidName(s.Name) {
			continue
		}
		h := xxh3.HashString128(s.Description)
		if prev != nil {
			for from < len(prev.entries) && prev.entries[from].Name < s.Name {
				from++
			}
			if from < len(prev.entries) && prev.entries[from].Name == s.Name && prev.rawHashes[from] == h {
				v.entries = append(v.entries, prev.entries[from])
				v.lines = append(v.lines, prev.lines[from])
				v.records = append(v.records, prev.records[from])
				v.rawHashes = append(v.rawHashes, h)
				continue
			}
		}
		e := digest.Entry{Name: s.Name, Description: render.NormalizeDescription(s.Description, maxLen)}
		v.entries = append(v.entries, e)
		v.lines = append(v.lines, render.EntryLine(e))
		v.records = append(v.records, events.EncodeEntry(e))
		v.rawHashes = append(v.rawHashes, h)
	}
	v.digest = digest.Of(v.entries)
	return v
}

// lookup finds a listed skill by name.
func (v *view) lookup(name string) (listedSkill, bool) {
	i := sort.Search(len(v.listed), func(i int) bool { return v.listed[i].name >= name })
	if i < len(v.listed) && v.listed[i].name == name {
		return v.listed[i], true
	}
	return listedSkill{}, false
}
