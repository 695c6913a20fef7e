package render

import "strings"

// Texts of a tool call refused by a skill's enforced tool grants.
const (
	grantRefusalStart      = "The tool "
	grantRefusalMiddle     = " is not available while the skill "
	grantRefusalDisallowed = " is active: the skill asks that it not be used. Carry on without it; it is offered again once the skill's turn ends."
	grantRefusalNotAllowed = " is active: the skill allows only the tools it lists. Carry on with those; the others are offered again once the skill's turn ends."
)

// GrantRefusal is the text a call of tool is answered with while the skill
// listed as skillName withholds it (hostsdk's enforced tool grants):
// notAllowed says the skill's allowed-tools leave it out (the strict
// option), otherwise its disallowed-tools name it. The tool and skill
// names are shown as Go string literals, XML-escaped and capped at
// MaxEchoBytes, as directive values are.
func GrantRefusal(tool, skillName string, notAllowed bool) string {
	var b strings.Builder
	b.WriteString(grantRefusalStart)
	writeValue(&b, tool)
	b.WriteString(grantRefusalMiddle)
	writeValue(&b, skillName)
	if notAllowed {
		b.WriteString(grantRefusalNotAllowed)
	} else {
		b.WriteString(grantRefusalDisallowed)
	}
	return b.String()
}
