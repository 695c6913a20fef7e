package plugin

import (
	"context"
	"slices"
	"strconv"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/skill"
)

// activation is what a step's touched paths activated: each skill scoped
// by `paths` that entered the catalog at this step, with the first file
// that matched it.
type activation struct {
	names []string
	files []string
}

// gate applies `paths` to a step's view. Skills scoped by `paths` are
// left out of the catalog until the session touches a matching file
// (contract.StepRequest.TouchedPaths, relative to its working directory:
// skill.TouchedRelative, skill.MatchPaths); the skills activated so far
// are those the newest catalog record names (events.Baseline.Activated)
// and those this step's paths match, and the catalog the step compares and
// publishes names them, so the activation is durable the moment it
// changes the catalog. listed is the agent's complete snapshot's view, nil
// when the step did not read one (its `skill` tool hidden): then nothing
// new is activated, and the empty view still carries what was.
func (e *engine) gate(cur, listed *view.View, base events.Baseline, req contract.StepRequest, cfg contract.MountOptions) (*view.View, activation) {
	if listed == nil {
		if len(base.Activated) == 0 {
			return cur, activation{}
		}
		return view.Gate(cur, base.Activated, cfg.DescriptionMaxLength), activation{}
	}
	full := listed.Unfitted()
	gated := full.Gated()
	if len(gated) == 0 && len(base.Activated) == 0 {
		return cur, activation{}
	}
	act := matchTouched(gated, base.Activated, req)
	activated := base.Activated
	if len(act.names) > 0 {
		activated = slices.Clone(base.Activated)
		for _, n := range act.names {
			if len(activated) < events.MaxActivated {
				activated = append(activated, n)
			}
		}
		slices.Sort(activated)
		activated = slices.Compact(activated)
		// What did not fit the record's bound is not activated.
		kept := act
		act = activation{}
		for i, n := range kept.names {
			if _, ok := slices.BinarySearch(activated, n); ok {
				act.names, act.files = append(act.names, n), append(act.files, kept.files[i])
			}
		}
	}
	v := view.GateFit(full, activated, cfg.DescriptionMaxLength, cfg.CatalogBudget)
	if v == full {
		v = cur
	}
	return v, act
}

// matchTouched returns the gated skills, not already activated, that one of
// the step's touched paths matches, in name order, each with the first
// path that did.
func matchTouched(gated []view.Gated, activated []string, req contract.StepRequest) activation {
	if len(req.TouchedPaths) == 0 || len(gated) == 0 {
		return activation{}
	}
	touched := req.TouchedPaths
	if len(touched) > contract.MaxTouchedPaths {
		touched = touched[len(touched)-contract.MaxTouchedPaths:]
	}
	rels := make([]string, 0, len(touched))
	files := make([]string, 0, len(touched))
	for _, p := range touched {
		if rel, ok := skill.TouchedRelative(req.Cwd, p); ok {
			rels, files = append(rels, rel), append(files, p)
		}
	}
	var act activation
	for _, g := range gated {
		if _, done := slices.BinarySearch(activated, g.Name); done {
			continue
		}
		for i, rel := range rels {
			if skill.MatchPaths(g.Patterns, rel) {
				act.names, act.files = append(act.names, g.Name), append(act.files, files[i])
				break
			}
		}
	}
	return act
}

// withActivation adds to a step's answer what its touched paths activated:
// a reason and a diagnostic naming each skill and the file.
func withActivation(resp contract.StepResponse, act activation) contract.StepResponse {
	for i, n := range act.names {
		resp.Reasons = append(resp.Reasons, contract.Reason{Code: contract.ReasonPathsActivated,
			Detail: "skill " + strconv.Quote(n) + " enters the catalog: the session touched " + strconv.Quote(act.files[i]) + ", which its paths match"})
		resp.Diagnostics = append(resp.Diagnostics, "paths: skill "+strconv.Quote(n)+" activated by "+strconv.Quote(act.files[i]))
	}
	return resp
}

// scopedOut returns the skills of v scoped by `paths` that the session
// has not activated (those the newest catalog record does not name), for
// the skill-search tool, which does not offer them; nil when v has none.
func (e *engine) scopedOut(ctx context.Context, host contract.Host, v *view.View, session string) (map[string]bool, error) {
	gated := v.Unfitted().Gated()
	if len(gated) == 0 {
		return nil, nil
	}
	base, _, err := e.baseline(ctx, host, session, nil, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(gated))
	for _, g := range gated {
		if _, ok := slices.BinarySearch(base.Activated, g.Name); !ok {
			out[g.Name] = true
		}
	}
	return out, nil
}

// namesBytes is what a list of names keeps alive, for the caches' byte
// bounds.
func namesBytes(names []string) int {
	n := 0
	for _, s := range names {
		n += len(s) + 16
	}
	return n
}
