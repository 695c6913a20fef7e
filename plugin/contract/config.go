package contract

import "encoding/json"

// The mount options: the keys of the JSON object of options a
// ConfigureRequest carries, and of the JSON form of [MountOptions].
const (
	// OptionDescriptionMaxLength caps catalog descriptions.
	OptionDescriptionMaxLength = "catalogDescriptionMaxLength"
	// OptionUserInvocation lets the user invoke a skill with `/name`.
	OptionUserInvocation = "userInvocation"
	// OptionCatalogBudget bounds a catalog's rendered entries.
	OptionCatalogBudget = "catalogBudget"
	// OptionResourceTool registers the resource-read tool.
	OptionResourceTool = "resourceTool"
	// OptionInvocationArguments passes the text after `/name` to the
	// invoked skill's instructions.
	OptionInvocationArguments = "invocationArguments"
	// OptionInvocationForm says which tokens invoke a skill: `/name`,
	// `$name` or both.
	OptionInvocationForm = "invocationForm"
	// OptionSearchTool registers the skill-search tool.
	OptionSearchTool = "searchTool"
	// OptionRelevantSkills says when a user's turn gets the
	// relevant-skills message.
	OptionRelevantSkills = "relevantSkills"
	// OptionReattachBudget bounds the characters of the instructions a
	// step attaches again after a compaction; 0 turns re-attachment off.
	OptionReattachBudget = "reattachBudget"
	// OptionReattachSkillMaxLength bounds each skill's re-attached
	// instructions, in characters.
	OptionReattachSkillMaxLength = "reattachSkillMaxLength"
)

// The re-attachment bounds of a mount that sets none: what Claude Code
// attaches again after a compaction, the first 5,000 tokens of each
// invoked skill within 25,000 tokens in total, at the four characters a
// token that the catalog budget assumes (DefaultCatalogBudget).
const (
	DefaultReattachSkillMaxLength = 20000
	DefaultReattachBudget         = 100000
	// MinReattachLength is the least either bound may be set to.
	MinReattachLength = 1000
	// NoReattach is the MountOptions.ReattachBudget of a mount that
	// attaches nothing again (the option's JSON value 0).
	NoReattach = -1
)

// DefaultCatalogBudget is the catalog budget of a mount that sets none:
// 8,000 characters, what Claude Code allows its skill listing (1% of a
// 200,000-token context window, some 8,000 characters) and Codex by
// default (8,000 characters, or 2% of the context). A catalog of a few
// dozen skills fits whole; a larger library keeps every name, with
// descriptions shortened and, past some 300 skills, names left out, and the
// relevant-skills message and the skill-search tool show the rest.
const DefaultCatalogBudget = 8000

// NoCatalogBudget is the MountOptions.CatalogBudget of a mount that bounds
// no catalog (the option's JSON value 0).
const NoCatalogBudget = -1

// The values of OptionRelevantSkills.
const (
	// RelevantAuto: a user's turn gets the relevant-skills message while
	// the catalog is over its budget (the default).
	RelevantAuto = "auto"
	// RelevantOn: every user's turn may get it.
	RelevantOn = "on"
	// RelevantOff: no turn gets it.
	RelevantOff = "off"
)

// The forms of OptionInvocationForm.
const (
	// InvocationSlash: `/name` invokes a skill (the default).
	InvocationSlash = "slash"
	// InvocationDollar: `$name` invokes a skill, the form of the runtimes
	// that mention skills that way; `/name` is text.
	InvocationDollar = "dollar"
	// InvocationBoth: `/name` and `$name` invoke a skill.
	InvocationBoth = "both"
)

// MountOptions configure a mount, as Go: what the JSON object of options in
// a ConfigureRequest says. A Go host builds one and sends its JSON form; a
// host in another language writes the object itself. The service validates
// either (plugin.ParseConfig), and refuses a bad one with a *ConfigError
// naming the option and its bound. A zero field means the option's default.
type MountOptions struct {
	// DescriptionMaxLength caps normalized catalog descriptions, in
	// characters, including the "..." of a truncated one: at least 3; 0
	// means the default, 500.
	DescriptionMaxLength int `json:"catalogDescriptionMaxLength,omitempty"`
	// UserInvocation lets a user invoke a user-invocable skill with a
	// `/name` token in a direct user message.
	UserInvocation bool `json:"userInvocation,omitempty"`
	// CatalogBudget bounds the characters of a catalog's rendered entries:
	// at least 100; 0 means DefaultCatalogBudget, and NoCatalogBudget no
	// budget.
	CatalogBudget int `json:"catalogBudget,omitempty"`
	// ResourceTool registers the resource-read tool next to `skill`.
	ResourceTool bool `json:"resourceTool,omitempty"`
	// InvocationArguments, with UserInvocation, passes the text after an
	// invoking token (up to the end of its line or the next invoking
	// token) to the skill's instructions as Claude Code does: $ARGUMENTS,
	// $ARGUMENTS[N] and $N are replaced, and instructions without a
	// placeholder get an "ARGUMENTS: ..." line (render.SubstituteArguments).
	// Off, the instructions are added as they are.
	InvocationArguments bool `json:"invocationArguments,omitempty"`
	// InvocationForm, with UserInvocation, says which tokens invoke a
	// skill: InvocationSlash (`/name`; empty means it), InvocationDollar
	// (`$name`) or InvocationBoth.
	InvocationForm string `json:"invocationForm,omitempty"`
	// SearchTool registers the skill-search tool (SearchToolName) next to
	// `skill`.
	SearchTool bool `json:"searchTool,omitempty"`
	// RelevantSkills says when a step whose newest message is the user's
	// own gets a message naming the skills that best match it, with their
	// full descriptions: RelevantAuto (empty means it), RelevantOn or
	// RelevantOff.
	RelevantSkills string `json:"relevantSkills,omitempty"`
	// ReattachBudget bounds the characters of the skills' instructions
	// that the step after a compaction attaches again (events.Pending,
	// most recently used first): at least MinReattachLength; 0 means
	// DefaultReattachBudget, and NoReattach turns re-attachment off.
	ReattachBudget int `json:"reattachBudget,omitempty"`
	// ReattachSkillMaxLength bounds the characters of one skill's
	// re-attached instructions: at least MinReattachLength; 0 means
	// DefaultReattachSkillMaxLength.
	ReattachSkillMaxLength int `json:"reattachSkillMaxLength,omitempty"`
}

// JSON returns the configuration's JSON form, the object of options a
// ConfigureRequest carries: the options that are not zero ("{}" for none).
func (c MountOptions) JSON() string {
	type plain MountOptions // without this method
	var wire struct {
		plain
		// The JSON option's 0 is no budget; absent is the default.
		CatalogBudget *int `json:"catalogBudget,omitempty"`
		// The JSON option's 0 is no re-attachment; absent the default.
		ReattachBudget *int `json:"reattachBudget,omitempty"`
	}
	wire.plain = plain(c)
	switch {
	case c.CatalogBudget == NoCatalogBudget:
		wire.CatalogBudget = new(int)
	case c.CatalogBudget != 0:
		wire.CatalogBudget = &c.CatalogBudget
	}
	switch {
	case c.ReattachBudget == NoReattach:
		wire.ReattachBudget = new(int)
	case c.ReattachBudget != 0:
		wire.ReattachBudget = &c.ReattachBudget
	}
	b, err := json.Marshal(wire)
	if err != nil {
		// Integers and booleans always encode.
		panic("contract: encode mount configuration: " + err.Error())
	}
	return string(b)
}
