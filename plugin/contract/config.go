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
	// at least 100; 0 means no budget.
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
}

// JSON returns the configuration's JSON form, the object of options a
// ConfigureRequest carries: the options that are not zero ("{}" for none).
func (c MountOptions) JSON() string {
	b, err := json.Marshal(c)
	if err != nil {
		// Integers and booleans always encode.
		panic("contract: encode mount configuration: " + err.Error())
	}
	return string(b)
}
