package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/skill"
)

// directivesLine says on one line what a skill asks of the runtime (its
// directives), or "" when it asks for nothing: the execution context and
// its agent, the model, the tools to pre-approve, each value quoted, and
// whether the skill's source is one a host would act on.
func directivesLine(d *skill.Directives) string {
	if d == nil {
		return ""
	}
	var parts []string
	if d.Requested().Has(skill.DirectiveContext) {
		p := "context " + string(d.Context)
		if d.Agent != "" {
			p += " (agent " + strconv.Quote(d.Agent) + ")"
		}
		parts = append(parts, p)
	}
	if d.Model != "" {
		parts = append(parts, "model "+strconv.Quote(d.Model))
	}
	if len(d.AllowedTools) > 0 {
		quoted := make([]string, len(d.AllowedTools))
		for i, t := range d.AllowedTools {
			quoted[i] = strconv.Quote(t)
		}
		parts = append(parts, "allowed-tools "+strings.Join(quoted, " "))
	}
	if len(parts) == 0 {
		return ""
	}
	line := strings.Join(parts, "; ")
	if !d.Trusted {
		line += " (requests of a source the host does not trust: never acted on)"
	}
	return line
}

// explainDirectives loads each skill of list that the registry offers and
// keeps what it asks of the runtime, as a host would receive it.
func explainDirectives(ctx context.Context, reg *skills.Registry, q skills.Query, list []explainedSkill) {
	for i, e := range list {
		if e.Name == "" || e.Path == "" && e.Origin == "" {
			continue
		}
		def, found, err := reg.Get(ctx, q, e.Name)
		if err != nil || !found || def.Directives == nil {
			continue
		}
		if def.Origin != e.Origin || (e.Path != "" && def.ResourceBase != nil && def.ResourceBase.Path != e.Path) {
			continue // another skill of that name wins
		}
		list[i].Directives = def.Directives
	}
}
