package agentskills

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/lenientyaml"
	"github.com/skillcatalog/skillcatalog/skill"
	"go.yaml.in/yaml/v3"
)

// Limits taken from the Agent Skills format. Exceeding them is reported as a
// warning; the skill still loads (the plugin normalizes and caps
// descriptions itself).
const (
	MaxDescriptionLength   = 1024
	MaxCompatibilityLength = 500
)

// MaxFrontmatterBytes bounds the frontmatter block (from the opening to the
// closing delimiter line). Listing reads at most this much of each SKILL.md,
// so a huge body never slows discovery down.
const MaxFrontmatterBytes = 64 << 10

// MaxSkillFileBytes bounds a whole SKILL.md read when a skill is loaded.
const MaxSkillFileBytes = 8 << 20

// Frontmatter is the decoded YAML frontmatter of a SKILL.md file. Only Name
// and Description ever reach a model-facing catalog; everything else is
// metadata for the host.
type Frontmatter struct {
	// Name is the `name` field, verbatim.
	Name string
	// Description is the `description` field as the YAML decoder produced
	// it (folded and literal block scalars already applied). Whitespace
	// normalization and capping are left to the catalog renderer.
	Description string
	// License is the optional `license` field.
	License string
	// Compatibility is the optional `compatibility` field.
	Compatibility string
	// AllowedTools is the optional `allowed-tools` field: a YAML sequence,
	// or a string split on whitespace (the format's space-delimited form)
	// and commas outside parentheses (Claude Code's "Bash(git add *),
	// Read"), as Directives reads it.
	AllowedTools []string
	// Metadata is the optional `metadata` string map.
	Metadata map[string]string
	// WhenToUse is the optional `when_to_use` field (Claude Code's): when
	// the skill applies, beyond its description. The plugin's skill search
	// ranks by it.
	WhenToUse string
	// Keywords are the optional `keywords` and `tags` fields, top-level (a
	// list, or one string of comma-separated words) or in metadata (a
	// string of comma-separated words), in that order: words the plugin's
	// skill search should find the skill by.
	Keywords []string
	// Paths is the optional `paths` field (Claude Code's): glob patterns,
	// a list or one comma-separated string, as skill.ParsePaths keeps them
	// (braces expanded; malformed patterns left out with a warning). A
	// skill with patterns enters a session's catalog once the session
	// touched a file they match.
	Paths []string
	// ArgumentHint is the optional `argument-hint` field, which runtimes
	// show beside `/name` while the user types arguments.
	ArgumentHint string
	// DisableModelInvocation is `disable-model-invocation`; true keeps the
	// skill out of the model's catalog and the `skill` tool.
	DisableModelInvocation bool
	// UserInvocable is `user-invocable`; it defaults to true when the field
	// is absent.
	UserInvocable bool
	// ArgumentNames are the optional `arguments` field (Claude Code's), as
	// skill.ParseArgumentNames reads it: the names of the positional
	// arguments of `/name`, which the instructions write as `$name`.
	ArgumentNames []string
	// Extra holds every other top-level field, decoded generically;
	// context, agent, model, shell, effort and hooks among them, which
	// Directives reads too.
	Extra map[string]any
	// Directives are what the skill asks of the runtime (`context`,
	// `agent`, `model`, `allowed-tools`, `disallowed-tools`, `shell`,
	// `effort`, `hooks`, as skill.ParseDirectives reads
	// them); nil when it asks for nothing and nothing in them was
	// malformed. Their diagnostics are among the parse's warnings. They are
	// not Trusted: the provider marks those of the skills it loads.
	Directives *skill.Directives
}

// Invocation returns the invocation policy the frontmatter asks for.
func (f Frontmatter) Invocation() skill.InvocationPolicy {
	return skill.InvocationPolicy{
		ModelInvocable: !f.DisableModelInvocation,
		UserInvocable:  f.UserInvocable,
	}
}

// Validate checks the frontmatter of a skill found in a directory named
// dirName. A non-nil error means the skill cannot be offered (it is skipped
// with a diagnostic); warnings describe problems that do not prevent
// loading. An empty dirName skips the directory comparison.
func (f Frontmatter) Validate(dirName string) (warnings []string, err error) {
	if f.Name == "" {
		return nil, skipped(ReasonMissingName, errors.New("frontmatter has no name"))
	}
	if !skill.ValidName(f.Name) {
		return nil, skipped(ReasonInvalidName, fmt.Errorf("name %q is not kebab-case (lowercase letters, digits and single hyphens), so it cannot be addressed", f.Name))
	}
	if strings.TrimSpace(f.Description) == "" {
		return nil, skipped(ReasonMissingDescription, errors.New("description is missing or empty"))
	}
	if n := len(f.Name); n > skill.MaxNameLength {
		warnings = append(warnings, fmt.Sprintf("name is %d characters long; the limit is %d", n, skill.MaxNameLength))
	}
	if dirName != "" && f.Name != dirName {
		warnings = append(warnings, fmt.Sprintf("name %q does not match directory name %q", f.Name, dirName))
	}
	if n := utf8.RuneCountInString(f.Description); n > MaxDescriptionLength {
		warnings = append(warnings, fmt.Sprintf("description is %d characters long; the limit is %d", n, MaxDescriptionLength))
	}
	if n := utf8.RuneCountInString(f.Compatibility); n > MaxCompatibilityLength {
		warnings = append(warnings, fmt.Sprintf("compatibility is %d characters long; the limit is %d", n, MaxCompatibilityLength))
	}
	return warnings, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// errNoFrontmatter is returned for a file that does not start with a
// frontmatter block.
var errNoFrontmatter = errors.New("no frontmatter: the file must start with a '---' line")

// errFrontmatterTooLarge is returned when no closing delimiter line ends
// within MaxFrontmatterBytes.
var errFrontmatterTooLarge = fmt.Errorf("frontmatter is not closed within %d bytes", MaxFrontmatterBytes)

// frontmatterPrefixBytes is enough of a file to split off any frontmatter
// that splitFrontmatter accepts: the limit, a byte order mark, and one byte
// more to tell a line ending exactly at the limit from a longer one.
const frontmatterPrefixBytes = MaxFrontmatterBytes + 3 + 1

// splitFrontmatter separates the frontmatter block from the body. It returns
// the frontmatter text with CRLF line ends turned into LF, and the body
// untouched. closed is false when the data ends before a closing line. The
// whole block, delimiter lines included, must fit in MaxFrontmatterBytes
// (not counting a byte order mark), so that a prefix of
// frontmatterPrefixBytes splits exactly like the whole file.
func splitFrontmatter(data []byte) (front string, body []byte, closed bool, err error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	line, rest, _ := bytes.Cut(data, []byte{'\n'})
	if !isDelimiter(line) {
		return "", nil, false, errNoFrontmatter
	}
	start := len(data) - len(rest)
	for off := start; off < len(data); {
		end, next := len(data), len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end, next = off+i, off+i+1
		}
		if next > MaxFrontmatterBytes {
			return "", nil, false, errFrontmatterTooLarge
		}
		if isDelimiter(data[off:end]) {
			front = strings.ReplaceAll(string(data[start:off]), "\r\n", "\n")
			return front, data[next:], true, nil
		}
		off = next
	}
	return "", nil, false, nil
}

// isDelimiter reports whether a line is a frontmatter delimiter: "---" with
// optional trailing blanks and an optional CR.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// ParseSkillFile parses a SKILL.md file: YAML frontmatter between "---"
// lines (a UTF-8 byte order mark and CRLF line ends are accepted), then a
// Markdown body, returned trimmed of surrounding whitespace. YAML that does
// not parse is retried once with unquoted top-level values that contain ": "
// (or otherwise need quoting) treated as plain strings; the retry is
// reported as a warning. Warnings also report fields of an unexpected type,
// which are ignored. err is non-nil when there is no usable frontmatter.
//
// ParseSkillFile does not judge the name or description; see
// Frontmatter.Validate.
func ParseSkillFile(data []byte) (fm Frontmatter, body string, warnings []string, err error) {
	front, rest, closed, err := splitFrontmatter(data)
	if err != nil {
		return Frontmatter{}, "", nil, err
	}
	if !closed {
		return Frontmatter{}, "", nil, errNotClosed
	}
	fm, warnings, err = parseFrontmatter(front)
	if err != nil {
		return Frontmatter{}, "", nil, err
	}
	return fm, strings.TrimSpace(string(rest)), warnings, nil
}

// parseWhole parses a whole SKILL.md for a load: its frontmatter as a
// scan reads it, and its body trimmed of surrounding whitespace (the
// whole file when it has no frontmatter).
func parseWhole(data []byte) (*parsed, string) {
	pr, _ := parsePrefix(data)
	if pr.noFront {
		return pr, strings.TrimSpace(string(bytes.TrimPrefix(data, utf8BOM)))
	}
	_, body, _, err := ParseSkillFile(data)
	if err != nil {
		return pr, ""
	}
	return pr, body
}

// unmarshalFrontmatter decodes the YAML between the delimiters, retrying
// once with unquoted values that hold ": " quoted (with a warning).
func unmarshalFrontmatter(front string) (yaml.Node, []string, error) {
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(front), &doc)
	if err == nil {
		return doc, nil, nil
	}
	fixed, keys := lenientyaml.QuoteColonValues(front)
	if len(keys) == 0 {
		return doc, nil, skipped(ReasonInvalidYAML, fmt.Errorf("frontmatter is not valid YAML: %s", lenientyaml.InFile(err)))
	}
	doc = yaml.Node{}
	if err2 := yaml.Unmarshal([]byte(fixed), &doc); err2 != nil {
		return doc, nil, skipped(ReasonInvalidYAML, fmt.Errorf("frontmatter is not valid YAML (also after quoting %s): %s", strings.Join(keys, ", "), lenientyaml.InFile(err)))
	}
	return doc, []string{fmt.Sprintf("frontmatter is not valid YAML; read the unquoted value of %s as a plain string (quote it to silence this warning)", strings.Join(keys, ", "))}, nil
}

// parseFrontmatter decodes the YAML between the delimiters.
func parseFrontmatter(front string) (Frontmatter, []string, error) {
	doc, warnings, err := unmarshalFrontmatter(front)
	if err != nil {
		return Frontmatter{}, nil, err
	}
	fm := Frontmatter{UserInvocable: true}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fm, warnings, nil // empty frontmatter; Validate reports it
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return fm, warnings, nil
	}
	if root.Kind != yaml.MappingNode {
		return Frontmatter{}, nil, errNotMapping
	}
	seen := make(map[string]int, len(root.Content)/2)
	directives := map[string]any{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key := root.Content[i].Value
		val := root.Content[i+1]
		if seen[key] == 1 { // once per key, however often it repeats
			warnings = append(warnings, fmt.Sprintf("field %q appears more than once; the last one is used", key))
		}
		seen[key]++
		if val.Kind == yaml.AliasNode && val.Alias != nil {
			val = val.Alias
		}
		switch key {
		case "name":
			fm.Name, warnings = stringField(key, val, warnings)
		case "description":
			fm.Description, warnings = stringField(key, val, warnings)
		case "license":
			fm.License, warnings = stringField(key, val, warnings)
		case "compatibility":
			fm.Compatibility, warnings = stringField(key, val, warnings)
		case "disable-model-invocation":
			var ok bool
			if fm.DisableModelInvocation, ok = boolField(val); !ok {
				warnings = append(warnings, fmt.Sprintf("field %q is not a boolean; ignored", key))
			}
		case "user-invocable":
			v, ok := boolField(val)
			if !ok {
				warnings = append(warnings, fmt.Sprintf("field %q is not a boolean; ignored", key))
				v = true
			}
			fm.UserInvocable = v
		case "metadata":
			fm.Metadata, warnings = metadataField(key, val, warnings)
		case "argument-hint":
			fm.ArgumentHint, warnings = hintField(key, val, warnings)
		case "when_to_use":
			fm.WhenToUse, warnings = stringField(key, val, warnings)
		case "paths":
			fm.Paths, warnings = pathsField(key, val, warnings)
		case "arguments":
			warnings = fm.arguments(val, warnings)
		case "keywords", "tags":
			var words []string
			words, warnings = wordsField(key, val, warnings)
			fm.Keywords = append(fm.Keywords, words...)
		default:
			warnings = fm.other(key, val, directives, warnings)
		}
	}
	for _, k := range []string{"keywords", "tags"} {
		if v, ok := fm.Metadata[k]; ok {
			fm.Keywords = append(fm.Keywords, strings.Split(v, ",")...)
		}
	}
	if fm.Directives = skill.ParseDirectives(directives); fm.Directives != nil {
		fm.AllowedTools = slices.Clone(fm.Directives.AllowedTools)
		warnings = append(warnings, fm.Directives.Diagnostics...)
	}
	return fm, warnings, nil
}

// stringField reads a scalar as text. Non-string scalars (numbers, booleans)
// keep their source spelling; null becomes "".
func stringField(key string, n *yaml.Node, warnings []string) (string, []string) {
	if n.Kind != yaml.ScalarNode {
		return "", append(warnings, fmt.Sprintf("field %q is not a string; ignored", key))
	}
	if n.Tag == "!!null" {
		return "", warnings
	}
	return n.Value, warnings
}

// hintField reads `argument-hint`. Skills write it as documented,
// `argument-hint: [issue-number]`, which YAML reads as a one-element flow
// sequence: a flow sequence of scalars is taken back as the text it was
// written as ("[issue-number]", "[from, to]").
func hintField(key string, n *yaml.Node, warnings []string) (string, []string) {
	if n.Kind != yaml.SequenceNode || n.Style&yaml.FlowStyle == 0 {
		return stringField(key, n, warnings)
	}
	parts := make([]string, len(n.Content))
	for i, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return "", append(warnings, fmt.Sprintf("field %q is not a string; ignored", key))
		}
		parts[i] = c.Value
	}
	return "[" + strings.Join(parts, ", ") + "]", warnings
}

func boolField(n *yaml.Node) (v, ok bool) {
	if n.Kind != yaml.ScalarNode {
		return false, false
	}
	if n.Tag == "!!null" {
		return false, true
	}
	if n.Tag != "!!bool" {
		return false, false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, false
	}
	return b, true
}

func metadataField(key string, n *yaml.Node, warnings []string) (map[string]string, []string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, warnings
	}
	if n.Kind != yaml.MappingNode {
		return nil, append(warnings, fmt.Sprintf("field %q is not a mapping; ignored", key))
	}
	out := make(map[string]string, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if v.Kind != yaml.ScalarNode {
			warnings = append(warnings, fmt.Sprintf("field %q entry %q is not a string; ignored", key, k))
			continue
		}
		out[k] = v.Value
	}
	return out, warnings
}

// other keeps a field Frontmatter has no place of its own for: a
// directive's in directives (allowed-tools there only), every other in
// Extra, decoded generically.
func (fm *Frontmatter) other(key string, val *yaml.Node, directives map[string]any, warnings []string) []string {
	var v any
	if err := val.Decode(&v); err != nil {
		return append(warnings, fmt.Sprintf("field %q could not be decoded; ignored: %v", key, err))
	}
	switch key {
	case skill.FieldAllowedTools, skill.FieldDisallowedTools:
		directives[key] = v
		return warnings
	case skill.FieldContext, skill.FieldAgent, skill.FieldModel, skill.FieldShell, skill.FieldEffort, skill.FieldHooks:
		directives[key] = v
	}
	if fm.Extra == nil {
		fm.Extra = make(map[string]any)
	}
	fm.Extra[key] = v
	return warnings
}

// arguments reads the `arguments` field into ArgumentNames, its problems
// among the warnings.
func (fm *Frontmatter) arguments(val *yaml.Node, warnings []string) []string {
	var v any
	if err := val.Decode(&v); err != nil {
		return append(warnings, fmt.Sprintf("field %q could not be decoded; ignored: %v", "arguments", err))
	}
	names, diags := skill.ParseArgumentNames(v)
	fm.ArgumentNames = names
	return append(warnings, diags...)
}

// wordsField reads a list of words: a sequence of strings, or one string of
// words separated by commas. Entries that are not strings are left out
// with a warning.
func wordsField(key string, n *yaml.Node, warnings []string) ([]string, []string) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return nil, warnings
	case n.Kind == yaml.ScalarNode:
		return strings.Split(n.Value, ","), warnings
	case n.Kind != yaml.SequenceNode:
		return nil, append(warnings, fmt.Sprintf("field %q is neither a list nor a string; ignored", key))
	}
	return sequenceStrings(key, n, warnings)
}

// sequenceStrings reads the string entries of a sequence node, aliases
// resolved; an entry that is not a string is left out with a warning.
func sequenceStrings(key string, n *yaml.Node, warnings []string) ([]string, []string) {
	var out []string
	for _, e := range n.Content {
		if e.Kind == yaml.AliasNode && e.Alias != nil {
			e = e.Alias
		}
		if e.Kind != yaml.ScalarNode {
			warnings = append(warnings, fmt.Sprintf("field %q holds an entry that is not a string; it is left out", key))
			continue
		}
		out = append(out, e.Value)
	}
	return out, warnings
}

// summary returns the summary a listing gives for the skill this
// frontmatter declares, named name, with searchText from its body.
func (f Frontmatter) summary(name, searchText string) skill.Summary {
	return skill.Summary{
		Name:         name,
		Description:  f.Description,
		Invocation:   f.Invocation(),
		Provider:     ProviderLabel,
		ArgumentHint: f.ArgumentHint,
		WhenToUse:    skill.CutText(f.WhenToUse, skill.MaxWhenToUseBytes),
		Keywords:     skill.CleanKeywords(f.Keywords),
		SearchText:   searchText,
		Paths:        skill.JoinPaths(f.Paths),
	}
}

// pathsField reads `paths`: one string or a list of strings, each a
// comma-separated list of glob patterns (skill.ParsePaths). Entries that
// are not strings, and patterns ParsePaths leaves out, are warnings.
func pathsField(key string, n *yaml.Node, warnings []string) ([]string, []string) {
	var values []string
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return nil, warnings
	case n.Kind == yaml.ScalarNode:
		values = []string{n.Value}
	case n.Kind == yaml.SequenceNode:
		values, warnings = sequenceStrings(key, n, warnings)
	default:
		return nil, append(warnings, fmt.Sprintf("field %q is neither a list nor a string; ignored", key))
	}
	patterns, diags := skill.ParsePaths(values)
	return patterns, append(warnings, diags...)
}
