package render

import (
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// maxNoticeTools bounds the tools a directives notice names; the rest are
// counted.
const maxNoticeTools = 16

// Sentences of a directives notice, one per kind of directive the host
// does not act on.
const (
	noticeOpen          = "<skill_directives name=\""
	noticeOpenEnd       = "\">\n"
	noticeClose         = "</skill_directives>"
	noticeForkStart     = "The skill asks to run in a sub-agent of its own (context: "
	noticeForkEnd       = "); this host runs it here instead: follow its instructions above in this conversation.\n"
	noticeModelStart    = "The skill asks to run on the model "
	noticeModelEnd      = "; this host keeps the current model.\n"
	noticeToolStart     = "The skill asks that the tool "
	noticeToolsStart    = "The skill asks that the tools "
	noticeToolsEnd      = " be usable without approval while it is active; this host has not pre-approved that, and its usual permission rules apply.\n"
	noticeMoreToolsJoin = " and "

	noticeDisallowedToolStart  = "The skill asks that the tool "
	noticeDisallowedToolsStart = "The skill asks that the tools "
	noticeDisallowedToolEnd    = " not be used while it is active; this host does not withhold it: do not call it while you follow the skill.\n"
	noticeDisallowedToolsEnd   = " not be used while it is active; this host does not withhold them: do not call them while you follow the skill.\n"
	noticeShellStart           = "The skill asks that its shell commands run in "
	noticeShellEnd             = "; this host runs them in its usual shell.\n"
	noticeEffortStart          = "The skill asks for the effort level "
	noticeEffortEnd            = "; this host keeps the current effort level.\n"
	noticeHooksStart           = "The skill asks for hooks on "
	noticeHooksEnd             = " while it is active; this host does not run them.\n"
)

// DirectivesNotice renders what the model is told about the directives of
// the skill listed as name that the host does not act on
// (d.Unhonoured()): a <skill_directives> block with one sentence for each
// kind (a fork it runs inline, a model it does not switch to, tools it does
// not pre-approve, tools it does not withhold, a shell it does not use, an
// effort level it does not set, hooks it does not run), so that the model is not misled into expecting what
// the skill asked for. It is "" when the host acts on everything d asks
// for, and for a nil d: a skill without directives is rendered as it
// always was.
//
// The name is escaped for its attribute; the agent, the model and the
// tools, which may come from a remote server, are shown as Go string
// literals, XML-escaped and capped at MaxEchoBytes each, and at most 16
// tools (or hook events) are named, the rest counted.
func DirectivesNotice(name string, d *skill.Directives) string {
	missing := d.Unhonoured()
	if missing == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(noticeOpen)
	writeEscaped(&b, name, attrSpecials)
	b.WriteString(noticeOpenEnd)
	if missing.Has(skill.DirectiveContext) {
		b.WriteString(noticeForkStart)
		b.WriteString(string(d.Context))
		if d.Agent != "" {
			b.WriteString(", agent ")
			writeValue(&b, d.Agent)
		}
		b.WriteString(noticeForkEnd)
	}
	if missing.Has(skill.DirectiveModel) {
		b.WriteString(noticeModelStart)
		writeValue(&b, d.Model)
		b.WriteString(noticeModelEnd)
	}
	if missing.Has(skill.DirectiveAllowedTools) {
		writeCounted(&b, d.AllowedTools, noticeToolStart, noticeToolsStart, noticeToolsEnd, noticeToolsEnd)
	}
	writeLaterNotices(&b, missing, d)
	b.WriteString(noticeClose)
	return b.String()
}

// writeLaterNotices writes the sentences of the later kinds of directive
// the host does not act on: tools it does not withhold, a shell, an
// effort level, hooks.
func writeLaterNotices(b *strings.Builder, missing skill.DirectiveSet, d *skill.Directives) {
	if missing.Has(skill.DirectiveDisallowedTools) {
		writeCounted(b, d.DisallowedTools, noticeDisallowedToolStart, noticeDisallowedToolsStart, noticeDisallowedToolEnd, noticeDisallowedToolsEnd)
	}
	if missing.Has(skill.DirectiveShell) {
		b.WriteString(noticeShellStart)
		writeValue(b, d.Shell)
		b.WriteString(noticeShellEnd)
	}
	if missing.Has(skill.DirectiveEffort) {
		b.WriteString(noticeEffortStart)
		writeValue(b, d.Effort)
		b.WriteString(noticeEffortEnd)
	}
	if missing.Has(skill.DirectiveHooks) {
		b.WriteString(noticeHooksStart)
		writeToolList(b, skill.HookEventsOf(d.Hooks))
		b.WriteString(noticeHooksEnd)
	}
}

// writeCounted writes a sentence about list: opening with one or many,
// the list, and ending with oneEnd or manyEnd.
func writeCounted(b *strings.Builder, list []string, one, many, oneEnd, manyEnd string) {
	if len(list) == 1 {
		b.WriteString(one)
		writeToolList(b, list)
		b.WriteString(oneEnd)
		return
	}
	b.WriteString(many)
	writeToolList(b, list)
	b.WriteString(manyEnd)
}

// WithDirectivesNotice returns text, the rendering of the skill listed as
// name (its <skill_content> block), followed on the next line by its
// DirectivesNotice; text itself when there is none.
func WithDirectivesNotice(text, name string, d *skill.Directives) string {
	notice := DirectivesNotice(name, d)
	if notice == "" {
		return text
	}
	return text + "\n" + notice
}

// writeValue writes a directive's value as a capped Go string literal,
// escaped as prose.
func writeValue(b *strings.Builder, s string) {
	writeEscaped(b, strconv.Quote(echo(s)), textSpecials)
}

// writeToolList writes "A", "A" and "B", or "A", "B" and "C", naming at
// most maxNoticeTools and counting the rest ("A", ... "P" and 3 more).
func writeToolList(b *strings.Builder, tools []string) {
	shown := min(len(tools), maxNoticeTools)
	for i := range shown {
		switch {
		case i == 0:
		case i == shown-1 && shown == len(tools):
			b.WriteString(noticeMoreToolsJoin)
		default:
			b.WriteString(", ")
		}
		writeValue(b, tools[i])
	}
	if rest := len(tools) - shown; rest > 0 {
		b.WriteString(noticeMoreToolsJoin)
		b.WriteString(strconv.Itoa(rest))
		b.WriteString(" more")
	}
}
