package skill

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The frontmatter fields that give directives, as Claude Code spells them.
const (
	FieldContext      = "context"
	FieldAgent        = "agent"
	FieldModel        = "model"
	FieldAllowedTools = "allowed-tools"
	// FieldDisallowedTools, FieldShell, FieldEffort and FieldHooks are
	// Claude Code's later directive fields.
	FieldDisallowedTools = "disallowed-tools"
	FieldShell           = "shell"
	FieldEffort          = "effort"
	FieldHooks           = "hooks"
)

// ModelInherit is the `model` value that keeps the current model, as
// Claude Code reads it: it asks for nothing.
const ModelInherit = "inherit"

// Bounds on directive values. A value past them is reported and not read.
const (
	// MaxDirectiveNameBytes bounds an agent or model name.
	MaxDirectiveNameBytes = 256
	// MaxAllowedTools bounds the entries of allowed-tools; later ones are
	// not read.
	MaxAllowedTools = 256
	// MaxAllowedToolBytes bounds one entry of allowed-tools.
	MaxAllowedToolBytes = 1024
)

// maxQuotedValueBytes bounds what a diagnostic repeats of a value.
const maxQuotedValueBytes = 64

// ParseDirectives reads a skill's directives from its frontmatter fields,
// decoded as a YAML or JSON decoder decodes them (strings, booleans,
// numbers, nil, []any, map[string]any; a []string is read as a list). It
// reads the fields as Claude Code writes them:
//
//   - context: "fork", or Eino's "fork_with_context"; absent, empty or null
//     is inline;
//   - agent: the sub-agent of a fork, a name without spaces;
//   - model: a model name without spaces; "inherit" asks for nothing;
//   - allowed-tools: a YAML list, or one string of tools separated by spaces
//     or commas, where a tool may hold either inside parentheses
//     ("Bash(git add *), Read");
//   - disallowed-tools: as allowed-tools;
//   - shell: "bash", the default, which asks for nothing, or "powershell";
//   - effort: "low", "medium", "high", "xhigh" or "max";
//   - hooks: a mapping of hook events to lists, kept as JSON text (see
//     Directives.Hooks); an event Claude Code does not document is kept
//     and reported.
//
// It never fails: a value of the wrong type, an unknown context, a name
// with spaces or control characters, an agent without a fork, an entry past
// the bounds are each reported in Diagnostics and not read (a context that
// is not read is inline). It returns nil when the fields ask for nothing
// and nothing was reported. The result is not Trusted: the caller says
// whether its source is.
func ParseDirectives(fields map[string]any) *Directives {
	var d Directives
	var diag string
	note := func(s string) {
		if s != "" {
			d.Diagnostics = append(d.Diagnostics, s)
		}
	}
	d.Context, diag = parseContext(fields[FieldContext])
	note(diag)
	agent, diag := parseDirectiveName(FieldAgent, fields[FieldAgent])
	note(diag)
	switch {
	case agent != "" && d.Context.IsFork():
		d.Agent = agent
	case agent != "":
		note(fmt.Sprintf("agent %s names the sub-agent of `context: fork`, which the skill does not ask for; ignored", quoteValue(agent)))
	}
	d.Model, diag = parseDirectiveName(FieldModel, fields[FieldModel])
	note(diag)
	if d.Model == ModelInherit {
		d.Model = ""
	}
	var diags []string
	d.AllowedTools, diags = parseToolList(FieldAllowedTools, fields[FieldAllowedTools])
	d.Diagnostics = append(d.Diagnostics, diags...)
	d.DisallowedTools, diags = parseToolList(FieldDisallowedTools, fields[FieldDisallowedTools])
	d.Diagnostics = append(d.Diagnostics, diags...)
	d.Shell, diag = parseShell(fields[FieldShell])
	note(diag)
	d.Effort, diag = parseEffort(fields[FieldEffort])
	note(diag)
	d.Hooks, diags = parseHooks(fields[FieldHooks])
	d.Diagnostics = append(d.Diagnostics, diags...)
	if d.Requested() == 0 && len(d.Diagnostics) == 0 {
		return nil
	}
	return &d
}

// parseContext reads the `context` field.
func parseContext(v any) (ExecutionContext, string) {
	switch v := v.(type) {
	case nil:
		return ContextInline, ""
	case string:
		switch c := ExecutionContext(v); c {
		case ContextInline, ContextFork, ContextForkWithConversation:
			return c, ""
		}
		return ContextInline, fmt.Sprintf("context %s is not %q or %q; the skill runs inline", quoteValue(v), ContextFork, ContextForkWithConversation)
	}
	return ContextInline, fmt.Sprintf("context is %s, not a string; the skill runs inline", kindOf(v))
}

// parseDirectiveName reads an agent or model name.
func parseDirectiveName(field string, v any) (string, string) {
	switch v := v.(type) {
	case nil:
		return "", ""
	case string:
		if why := nameProblem(v); why != "" {
			return "", fmt.Sprintf("%s %s %s; ignored", field, quoteValue(v), why)
		}
		return v, ""
	}
	return "", fmt.Sprintf("%s is %s, not a string; ignored", field, kindOf(v))
}

// nameProblem says why s cannot name an agent or a model, or "".
func nameProblem(s string) string {
	switch {
	case s == "":
		return ""
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	case len(s) > MaxDirectiveNameBytes:
		return fmt.Sprintf("is %d bytes long; the limit is %d", len(s), MaxDirectiveNameBytes)
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return "holds a space or a control character"
		}
	}
	return ""
}

// parseToolList reads the `allowed-tools` or `disallowed-tools` field,
// named field.
func parseToolList(field string, v any) ([]string, []string) {
	var raw, diags []string
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		var unclosed bool
		raw, unclosed = SplitAllowedTools(v)
		if unclosed {
			diags = append(diags, fmt.Sprintf("%s %s opens a parenthesis it does not close; its last tool runs to the end", field, quoteValue(v)))
		}
	case []string:
		raw = trimmedEntries(v)
	case []any:
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				diags = append(diags, fmt.Sprintf("%s entry %d is %s, not a string; ignored", field, i+1, kindOf(e)))
				continue
			}
			raw = append(raw, trimmedEntries([]string{s})...)
		}
	default:
		return nil, []string{fmt.Sprintf("%s is %s, not a string or a list; ignored", field, kindOf(v))}
	}
	tools, more := checkedTools(field, raw)
	return tools, append(diags, more...)
}

func trimmedEntries(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// checkedTools keeps the entries of raw that can name a tool, once each,
// within the bounds, and says why it left any out.
func checkedTools(field string, raw []string) (tools, diags []string) {
	for _, t := range raw {
		switch {
		case !utf8.ValidString(t):
			diags = append(diags, fmt.Sprintf("%s entry %s is not valid UTF-8; ignored", field, quoteValue(t)))
		case len(t) > MaxAllowedToolBytes:
			diags = append(diags, fmt.Sprintf("%s entry %s is %d bytes long; the limit is %d; ignored", field, quoteValue(t), len(t), MaxAllowedToolBytes))
		case strings.IndexFunc(t, isControl) >= 0:
			diags = append(diags, fmt.Sprintf("%s entry %s holds a control character; ignored", field, quoteValue(t)))
		case indexOf(tools, t) >= 0:
		case len(tools) == MaxAllowedTools:
			diags = append(diags, fmt.Sprintf("%s lists more than %d tools; the rest are ignored", field, MaxAllowedTools))
			return tools, diags
		default:
			tools = append(tools, t)
		}
	}
	return tools, diags
}

func isControl(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// SplitAllowedTools splits an allowed-tools string into its tools: they
// are separated by spaces or commas, except inside parentheses, so
// "Bash(git add *), Read Grep" is "Bash(git add *)", "Read" and "Grep".
// unclosed reports a parenthesis that the string does not close; the tool
// it opens runs to the end.
func SplitAllowedTools(s string) (tools []string, unclosed bool) {
	depth, start := 0, -1
	for i, r := range s {
		switch {
		case depth == 0 && (r == ',' || unicode.IsSpace(r)):
			if start >= 0 {
				tools = append(tools, s[start:i])
				start = -1
			}
			continue
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		tools = append(tools, strings.TrimRightFunc(s[start:], unicode.IsSpace))
	}
	return tools, depth > 0
}

// quoteValue returns a value for a diagnostic: at most
// maxQuotedValueBytes of it, cut on a character boundary and ended with
// "...", as a Go string literal.
func quoteValue(s string) string {
	if len(s) > maxQuotedValueBytes {
		cut := maxQuotedValueBytes - 3
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
}

// kindOf names the kind of a decoded value.
func kindOf(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case int, int64, uint64, float64, float32, int32, uint, uint32, json.Number:
		return "a number"
	case []any, []string:
		return "a list"
	case map[string]any, map[any]any:
		return "a mapping"
	case string:
		return "a string"
	}
	return fmt.Sprintf("a %T", v)
}
