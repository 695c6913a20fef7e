package agentskills

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skillcatalog/skillcatalog/internal/lenientyaml"
	"github.com/skillcatalog/skillcatalog/skill"
)

// specFields are the frontmatter fields the Agent Skills specification
// allows, sorted.
var specFields = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

// claudeCodeFields are the frontmatter fields Claude Code documents beyond
// the specification; the value says what the provider does with each.
var claudeCodeFields = map[string]fieldUse{
	"agent": usedAsDirective, "argument-hint": honoured, "arguments": honoured, "context": usedAsDirective,
	"disable-model-invocation": honoured, "disallowed-tools": usedAsDirective, "effort": usedAsDirective,
	"hooks": usedAsDirective, "model": usedAsDirective, "paths": honoured, "shell": usedAsDirective,
	"user-invocable": honoured, "when_to_use": honoured,
}

// fieldUse is what the provider does with a Claude Code field.
type fieldUse int

const (
	ignored         fieldUse = iota
	honoured                 // the provider acts on it
	usedAsDirective          // the provider passes it to the host, which decides
)

// Finding is one problem CheckSkillFile found.
type Finding struct {
	// Field is the frontmatter field concerned; "" for the file as a
	// whole.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// SpecCheck is the result of checking one SKILL.md.
type SpecCheck struct {
	// Errors are the ways the file breaks the Agent Skills
	// specification; none means it is valid.
	Errors []Finding `json:"errors"`
	// Warnings are the leniencies the provider applies to load the file
	// (a name taken from the directory, YAML read leniently, fields of an
	// unexpected type ignored, ...): what it would report as warning
	// diagnostics.
	Warnings []Finding `json:"warnings"`
	// Loads says whether a Provider with the same presets offers the
	// skill; Name is the name it offers it under.
	Loads bool   `json:"loads"`
	Name  string `json:"name,omitempty"`
	// NotLoaded says why the provider does not offer it, and SkipReason
	// is its short cause (see SkipReason).
	NotLoaded  string `json:"notLoaded,omitempty"`
	SkipReason string `json:"skipReason,omitempty"`
	// Directives, for a skill the provider loads, are what it asks of the
	// runtime (Frontmatter.Directives), as a host receives them: trusted,
	// and honoured by no host yet. Their diagnostics are among Warnings.
	Directives *skill.Directives `json:"directives,omitempty"`
	// ArgumentNames, for a skill the provider loads, are the names of its
	// positional arguments (`arguments`), which its instructions write as
	// `$name`.
	ArgumentNames []string `json:"argumentNames,omitempty"`
	// WhenToUse, for a skill the provider loads, is its when_to_use,
	// which Description holds joined to the description.
	WhenToUse string `json:"whenToUse,omitempty"`
	// Paths, for a skill the provider loads, are its `paths` patterns, one
	// per line (skill.Summary.Paths): the catalog lists it only once the
	// session touched a matching file.
	Paths string `json:"paths,omitempty"`
	// Description is, for a skill the provider loads, the description a
	// catalog lists it with (its when_to_use joined to it, as
	// skill.ListedDescription joins them), so a tool can say what a
	// catalog will show of it.
	Description string `json:"-"`
}

// Valid reports whether the file meets the specification.
func (c SpecCheck) Valid() bool { return len(c.Errors) == 0 }

// CheckSkillFile checks data, the content of the SKILL.md in a directory
// named dirName, against the Agent Skills specification: frontmatter
// between "---" lines that is a YAML mapping of the allowed fields only
// (name, description, license, allowed-tools, metadata, compatibility); a name of 1 to 64 characters, lowercase letters, digits
// and hyphens, not starting or ending with a hyphen and without two in a
// row, equal to dirName; a description of 1 to 1024 characters; a
// compatibility of at most 500 characters; metadata a mapping. It also
// says whether a Provider configured with presets loads the skill, and
// which leniencies that takes. A field Claude Code documents beyond the
// specification (argument-hint, arguments, disable-model-invocation,
// user-invocable, when_to_use, model, context, agent, disallowed-tools,
// shell, effort, hooks) is an error that says so, and with
// PresetClaudeCode a warning that other clients may ignore it. It does no
// I/O.
func CheckSkillFile(dirName string, data []byte, presets ...Preset) (SpecCheck, error) {
	for i, p := range presets {
		if !slices.Contains(Presets(), p) {
			return SpecCheck{}, fmt.Errorf("agentskills: preset %d is %q; the presets are %q and %q", i, p, PresetClaudeCode, PresetCodex)
		}
	}
	claude := slices.Contains(presets, PresetClaudeCode)
	lz := lenience{describeFromBody: claude}
	var c SpecCheck
	c.Errors, c.Warnings = specErrors(dirName, data, claude)

	pr, _ := parseWhole(data)
	fm, warnings, lerr := lz.interpret(pr, dirName)
	if lerr != nil {
		c.NotLoaded, c.SkipReason = lerr.Error(), SkipReason(lerr)
	} else {
		c.Loads, c.Name, c.Directives, c.ArgumentNames = true, fm.Name, trusted(fm.Directives), fm.ArgumentNames
		sum := fm.summary(fm.Name, "")
		c.Description, c.WhenToUse, c.Paths = skill.ListedDescription(sum), sum.WhenToUse, sum.Paths
	}
	// The checks Validate repeats are errors above already.
	repeated, _ := fm.Validate(dirName)
	for _, w := range warnings {
		if !slices.Contains(repeated, w) {
			c.Warnings = append(c.Warnings, Finding{Message: w})
		}
	}
	if c.Errors == nil {
		c.Errors = []Finding{}
	}
	if c.Warnings == nil {
		c.Warnings = []Finding{}
	}
	return c, nil
}

// specErrors lists the ways data breaks the specification, and, with
// claude (PresetClaudeCode), warns of the Claude Code fields instead of
// calling them errors.
func specErrors(dirName string, data []byte, claude bool) (errs, warnings findings) {
	if !utf8.Valid(data) {
		errs.add("", "the file is not valid UTF-8")
	}
	fields, ok := errs.frontmatterFields(data)
	if !ok {
		return errs, nil
	}
	errs.extraFields(fields, claude, &warnings)
	errs.checkName(fields["name"], dirName)
	errs.checkDescription(fields["description"])
	errs.checkOptional(fields)
	return errs, warnings
}

// findings collects what a check of one SKILL.md found.
type findings []Finding

func (f *findings) add(field, format string, args ...any) {
	*f = append(*f, Finding{Field: field, Message: fmt.Sprintf(format, args...)})
}

// frontmatterFields returns the frontmatter's top-level fields (aliases
// resolved), or false when there is no frontmatter mapping to check.
func (f *findings) frontmatterFields(data []byte) (map[string]*yaml.Node, bool) {
	front, _, closed, err := splitFrontmatter(data)
	switch {
	case err != nil:
		f.add("", "%v", err)
		return nil, false
	case !closed:
		f.add("", "frontmatter is not closed by a '---' line")
		return nil, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		// The colon retry the provider takes: when it reads the file, the
		// error says so, and the fields are checked as read.
		fixed, keys := lenientyaml.QuoteColonValues(front)
		doc = yaml.Node{}
		if len(keys) == 0 || yaml.Unmarshal([]byte(fixed), &doc) != nil {
			f.add("", "frontmatter is not valid YAML: %s", lenientyaml.InFile(err))
			return nil, false
		}
		f.add("", "frontmatter is not valid YAML: %s: the unquoted value of %s holds \": \", which strict YAML readers reject and Claude Code and skillcatalog read as a plain string; quote it", lenientyaml.InFile(err), strings.Join(keys, ", "))
	}
	fields := map[string]*yaml.Node{}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fields, true
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(root.Content); i += 2 {
			v := root.Content[i+1]
			if v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			fields[root.Content[i].Value] = v
		}
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
	default:
		f.add("", "frontmatter is not a YAML mapping")
		return nil, false
	}
	return fields, true
}

// extraFields reports the fields the specification does not define, in
// name order, saying which are Claude Code's. With claude, Claude Code's
// are warnings instead.
func (f *findings) extraFields(fields map[string]*yaml.Node, claude bool, warnings *findings) {
	var extra []string
	for k := range fields {
		if !slices.Contains(specFields, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		use, isClaude := claudeCodeFields[k]
		switch {
		case isClaude && claude && use == honoured:
			warnings.add(k, "field %q is a Claude Code field, not in the Agent Skills specification: skillcatalog honours it; other clients may ignore it", k)
		case isClaude && claude && use == usedAsDirective:
			warnings.add(k, "field %q is a Claude Code field, not in the Agent Skills specification: skillcatalog passes it to the host as a directive; other clients may ignore it", k)
		case isClaude && claude:
			warnings.add(k, "field %q is a Claude Code field, not in the Agent Skills specification: other clients may ignore it", k)
		case isClaude && use == honoured:
			f.add(k, "field %q is not in the specification, which allows only %s; it is a Claude Code field, which skillcatalog honours and the claude-code preset accepts", k, strings.Join(specFields, ", "))
		case isClaude && use == usedAsDirective:
			f.add(k, "field %q is not in the specification, which allows only %s; it is a Claude Code field, which skillcatalog passes to the host as a directive and the claude-code preset accepts", k, strings.Join(specFields, ", "))
		case isClaude:
			f.add(k, "field %q is not in the specification, which allows only %s; it is a Claude Code field, which the claude-code preset accepts", k, strings.Join(specFields, ", "))
		default:
			f.add(k, "field %q is not in the specification, which allows only %s", k, strings.Join(specFields, ", "))
		}
	}
}

// checkName checks the name field n against the grammar, the length limit
// and the skill's directory name.
func (f *findings) checkName(n *yaml.Node, dirName string) {
	name, ok := scalarText(n)
	switch {
	case n == nil:
		f.add("name", "the required field is missing")
	case !ok:
		f.add("name", "is not a string")
	case name == "":
		f.add("name", "is empty")
	default:
		if c := utf8.RuneCountInString(name); c > skill.MaxNameLength {
			f.add("name", "is %d characters long; the limit is %d", c, skill.MaxNameLength)
		}
		if why := nameGrammar(name); why != "" {
			f.add("name", "%q %s", name, why)
		}
		if name != dirName {
			f.add("name", "%q does not match the directory name %q", name, dirName)
		}
	}
}

// checkDescription checks the description field n.
func (f *findings) checkDescription(n *yaml.Node) {
	desc, ok := scalarText(n)
	switch {
	case n == nil:
		f.add("description", "the required field is missing")
	case !ok:
		f.add("description", "is not a string")
	case strings.TrimSpace(desc) == "":
		f.add("description", "is empty")
	default:
		if c := utf8.RuneCountInString(desc); c > MaxDescriptionLength {
			f.add("description", "is %d characters long; the limit is %d", c, MaxDescriptionLength)
		}
	}
}

// checkOptional checks the optional fields that have a shape: compatibility
// and metadata.
func (f *findings) checkOptional(fields map[string]*yaml.Node) {
	if n := fields["compatibility"]; n != nil {
		if s, ok := scalarText(n); !ok {
			f.add("compatibility", "is not a string")
		} else if c := utf8.RuneCountInString(s); c > MaxCompatibilityLength {
			f.add("compatibility", "is %d characters long; the limit is %d", c, MaxCompatibilityLength)
		}
	}
	if n := fields["metadata"]; n != nil && n.Kind != yaml.MappingNode && n.Tag != "!!null" {
		f.add("metadata", "is not a mapping")
	}
}

// scalarText returns a scalar node's text; ok is false for anything but a
// string, number or boolean scalar.
func scalarText(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// nameGrammar says how name breaks the name grammar, or "".
func nameGrammar(name string) string {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return "may hold only lowercase letters a-z, digits and hyphens"
		}
	}
	switch {
	case strings.HasPrefix(name, "-"), strings.HasSuffix(name, "-"):
		return "may not start or end with a hyphen"
	case strings.Contains(name, "--"):
		return "may not hold two hyphens in a row"
	}
	return ""
}
