package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// directivesLine says on one line what a skill asks of the runtime (its
// directives), or "" when it asks for nothing: the execution context and
// its agent, the model, the tools to pre-approve, the tools to withhold,
// the shell, the effort level, the events of its hooks, each value quoted, and
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
		parts = append(parts, "allowed-tools "+quotedList(d.AllowedTools))
	}
	if len(d.DisallowedTools) > 0 {
		parts = append(parts, "disallowed-tools "+quotedList(d.DisallowedTools))
	}
	if d.Shell != "" {
		parts = append(parts, "shell "+strconv.Quote(d.Shell))
	}
	if d.Effort != "" {
		parts = append(parts, "effort "+strconv.Quote(d.Effort))
	}
	if d.Hooks != "" {
		parts = append(parts, "hooks on "+quotedList(skill.HookEventsOf(d.Hooks)))
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

// quotedList returns list's entries quoted, separated by spaces.
func quotedList(list []string) string {
	quoted := make([]string, len(list))
	for i, t := range list {
		quoted[i] = strconv.Quote(t)
	}
	return strings.Join(quoted, " ")
}

// argumentsLine says on one line which positional argument each of a
// skill's argument names binds, or "" when it names none.
func argumentsLine(names []string) string {
	if len(names) == 0 {
		return ""
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "$" + n + " is $" + strconv.Itoa(i)
	}
	return strings.Join(parts, ", ")
}

// explainDirectives keeps what each skill of list asks of the runtime, as
// a host would receive it: a local skill's from its frontmatter, as the
// provider loads it (trusted: the file is the host's own), when it is the
// one local lists under its name; a remote skill's loaded through the
// registry. Reading the local skills' directives from the one listing,
// not loading each, keeps explain linear in the skills.
func explainDirectives(ctx context.Context, reg *skills.Registry, q skills.Query, list []explainedSkill, local []agentskills.Skill) {
	byDir := make(map[string]*skill.Directives, len(local))
	args := make(map[string][]string, len(local))
	for _, s := range local {
		byDir[s.Dir], args[s.Dir] = s.Frontmatter.Directives, s.Frontmatter.ArgumentNames
	}
	for i, e := range list {
		switch {
		case e.Name == "":
		case e.Origin == "" && e.Path != "":
			list[i].ArgumentNames = args[e.Path]
			if d := byDir[e.Path]; d != nil {
				d = d.Clone()
				d.Trusted = true
				list[i].Directives = d
			}
		case e.Origin != "":
			def, found, err := reg.Get(ctx, q, e.Name)
			if err != nil || !found || def.Directives == nil || def.Origin != e.Origin {
				continue // another skill of that name wins
			}
			list[i].Directives = def.Directives
		}
	}
}
