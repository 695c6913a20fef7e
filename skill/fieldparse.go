package skill

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Shells a skill may ask for (`shell`), as Claude Code spells them.
const (
	// ShellBash is the default shell of `!` command blocks: asking for it
	// asks for nothing.
	ShellBash = "bash"
	// ShellPowerShell runs the blocks in PowerShell.
	ShellPowerShell = "powershell"
)

// Efforts are the effort levels a skill may ask for (`effort`), lowest
// first, as Claude Code spells them.
var efforts = [...]string{"low", "medium", "high", "xhigh", "max"}

// Efforts returns the effort levels a skill may ask for, lowest first.
func Efforts() []string { return efforts[:] }

// HookEvents are the hook events Claude Code documents. A skill's hooks
// for another event are kept, and reported.
var hookEvents = [...]string{
	"Notification", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "PreCompact", "PreToolUse",
	"SessionEnd", "SessionStart", "Stop", "SubagentStart", "SubagentStop", "UserPromptSubmit",
}

// Bounds on the later directive and argument fields.
const (
	// MaxHooksBytes bounds the JSON text of a skill's hooks; larger hooks
	// are reported and not read.
	MaxHooksBytes = 64 << 10
	// MaxArgumentNames bounds the names of `arguments`; later ones are not
	// read.
	MaxArgumentNames = 64
	// MaxArgumentNameBytes bounds one argument name.
	MaxArgumentNameBytes = 64
)

// parseShell reads the `shell` field.
func parseShell(v any) (string, string) {
	switch v := v.(type) {
	case nil:
		return "", ""
	case string:
		switch v {
		case "", ShellBash:
			return "", ""
		case ShellPowerShell:
			return v, ""
		}
		return "", fmt.Sprintf("shell %s is not %q or %q; ignored", quoteValue(v), ShellBash, ShellPowerShell)
	}
	return "", fmt.Sprintf("shell is %s, not a string; ignored", kindOf(v))
}

// parseEffort reads the `effort` field.
func parseEffort(v any) (string, string) {
	switch v := v.(type) {
	case nil:
		return "", ""
	case string:
		if v == "" || slices.Contains(efforts[:], v) {
			return v, ""
		}
		return "", fmt.Sprintf("effort %s is not one of %s; ignored", quoteValue(v), strings.Join(efforts[:], ", "))
	}
	return "", fmt.Sprintf("effort is %s, not a string; ignored", kindOf(v))
}

// parseHooks reads the `hooks` field: a mapping whose values are lists,
// kept as its JSON text. An entry that is not a list is left out; an event
// Claude Code does not document is kept and reported.
func parseHooks(v any) (string, []string) {
	var m map[string]any
	switch v := v.(type) {
	case nil:
		return "", nil
	case map[string]any:
		m = v
	case map[any]any:
		m = make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = e
		}
	default:
		return "", []string{fmt.Sprintf("hooks is %s, not a mapping of hook events; ignored", kindOf(v))}
	}
	var diags []string
	kept := make(map[string]any, len(m))
	for _, event := range sortedKeys(m) {
		switch list := m[event]; {
		case !utf8.ValidString(event) || strings.IndexFunc(event, isControl) >= 0:
			diags = append(diags, fmt.Sprintf("hooks event %s is not printable UTF-8; ignored", quoteValue(event)))
		case !isList(list):
			diags = append(diags, fmt.Sprintf("hooks event %s is %s, not a list; ignored", quoteValue(event), kindOf(list)))
		default:
			if !slices.Contains(hookEvents[:], event) {
				diags = append(diags, fmt.Sprintf("hooks event %s is not one Claude Code documents; passed on as written", quoteValue(event)))
			}
			kept[event] = list
		}
	}
	if len(kept) == 0 {
		return "", diags
	}
	b, err := json.Marshal(kept)
	switch {
	case err != nil:
		return "", append(diags, fmt.Sprintf("hooks cannot be written as JSON (%v); ignored", err))
	case len(b) > MaxHooksBytes:
		return "", append(diags, fmt.Sprintf("hooks are %d bytes long as JSON; the limit is %d; ignored", len(b), MaxHooksBytes))
	case !utf8.Valid(b):
		return "", append(diags, "hooks hold text that is not valid UTF-8; ignored")
	}
	return string(b), diags
}

func isList(v any) bool {
	switch v.(type) {
	case []any, []string:
		return true
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// HookEventsOf returns the events of hooks, the JSON text of
// Directives.Hooks, in name order; nil for "" or text that is not a JSON
// object.
func HookEventsOf(hooks string) []string {
	if hooks == "" {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(hooks), &m) != nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseArgumentNames reads the `arguments` field, decoded as
// ParseDirectives takes its fields: a YAML list of names, or one string of
// names separated by spaces or commas. The names bind, in order, to the
// positional arguments a user passes after `/name`: the skill's
// instructions write `$name` for the argument at the name's position. A
// name is a letter or underscore followed by letters, digits and
// underscores, at most MaxArgumentNameBytes; "ARGUMENTS", a name already
// listed, a malformed one and those past MaxArgumentNames are reported and
// not read. It never fails.
func ParseArgumentNames(v any) (names, diags []string) {
	var raw []string
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		raw = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	case []string:
		raw = v
	case []any:
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				diags = append(diags, fmt.Sprintf("arguments entry %d is %s, not a string; ignored", i+1, kindOf(e)))
				continue
			}
			raw = append(raw, strings.TrimSpace(s))
		}
	default:
		return nil, []string{fmt.Sprintf("arguments is %s, not a string or a list; ignored", kindOf(v))}
	}
	for _, n := range raw {
		switch {
		case n == "":
		case !ValidArgumentName(n):
			diags = append(diags, fmt.Sprintf("arguments name %s is not a letter or underscore followed by letters, digits and underscores, within %d bytes; ignored", quoteValue(n), MaxArgumentNameBytes))
		case n == "ARGUMENTS":
			diags = append(diags, "arguments name \"ARGUMENTS\" is the placeholder of all the arguments; ignored")
		case slices.Contains(names, n):
			diags = append(diags, fmt.Sprintf("arguments name %s is listed more than once; the first is used", quoteValue(n)))
		case len(names) == MaxArgumentNames:
			return names, append(diags, fmt.Sprintf("arguments lists more than %d names; the rest are ignored", MaxArgumentNames))
		default:
			names = append(names, n)
		}
	}
	return names, diags
}

// ValidArgumentName reports whether n can name an argument: an ASCII
// letter or underscore followed by ASCII letters, digits and underscores,
// at most MaxArgumentNameBytes.
func ValidArgumentName(n string) bool {
	if n == "" || len(n) > MaxArgumentNameBytes || n[0] >= '0' && n[0] <= '9' {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
