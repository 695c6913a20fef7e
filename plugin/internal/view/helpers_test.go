package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// summary is a local skill as the host lists it.
func summary(name, desc string) skill.Summary {
	return skill.Summary{Name: name, Description: desc, Provider: "runtime", Invocation: skill.DefaultPolicy()}
}

// remoteSummary is a remote skill as the host lists it, served at path by
// the MCP server labelled origin.
func remoteSummary(name, desc, origin, path string) skill.Summary {
	s := summary(name, desc)
	s.Provider, s.Origin, s.QualifiedName = origin, origin, skill.QualifiedName(origin, path)
	return s
}

// websiteSummary is remoteSummary's skill, of a site rather than an MCP
// server.
func websiteSummary(name, desc, origin, path string) skill.Summary {
	s := remoteSummary(name, desc, origin, path)
	s.OriginKind = skill.OriginWebsite
	return s
}

// wantFitted is the reference of a budgeted catalog: the model-invocable
// skills with addressable names, their descriptions capped, fitted by
// render.FitCatalog.
func wantFitted(t *testing.T, skills []skill.Summary, maxLen, budget int) render.Fit {
	t.Helper()
	var entries []digest.Entry
	sorted := slices.Clone(skills)
	slices.SortFunc(sorted, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	for _, s := range sorted {
		if !s.Invocation.ModelInvocable || !skill.ValidListedName(s.Name) {
			continue
		}
		kind := digest.OriginMCPServer
		if s.Origin != "" && s.OriginKind == skill.OriginWebsite {
			kind = digest.OriginWebsite
		}
		entries = append(entries, digest.Entry{Name: s.Name, Description: render.NormalizeDescription(s.Description, maxLen), Origin: s.Origin, OriginKind: kind})
	}
	fit, err := render.FitCatalog(entries, budget)
	if err != nil {
		t.Fatal(err)
	}
	return fit
}

// snapshotDelta is the test oracle of a host's delta: what changed from
// base to cur, by name. Both are sorted without repeats.
func snapshotDelta(base, cur []skill.Summary) (upserts []skill.Summary, removed []string) {
	old := map[string]skill.Summary{}
	for _, s := range base {
		old[s.Name] = s
	}
	now := map[string]bool{}
	for _, s := range cur {
		now[s.Name] = true
		if o, ok := old[s.Name]; !ok || o != s {
			upserts = append(upserts, s)
		}
	}
	for _, s := range base {
		if !now[s.Name] {
			removed = append(removed, s.Name)
		}
	}
	return upserts, removed
}
