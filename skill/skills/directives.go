package skills

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
)

// markTrust sets the trust of the directives of def, a skill e's provider
// loaded: Trusted when the host opted in for the provider
// (ProviderOptions.TrustDirectives), never for a skill with an Origin
// otherwise, and as the provider marked them for any other. The provider's
// directives are copied, never changed.
func (e *providerEntry) markTrust(def *skill.Definition) {
	if def.Directives == nil {
		return
	}
	d := def.Directives.Clone()
	switch {
	case e.trustDirectives:
		d.Trusted = true
	case def.Origin != "":
		d.Trusted = false
	}
	def.Directives = d
}

// ownDirectives returns a copy of a runtime skill's directives, Trusted:
// the host registered the skill itself.
func ownDirectives(d *skill.Directives) *skill.Directives {
	d = d.Clone()
	if d != nil {
		d.Trusted = true
	}
	return d
}

// checkDirectives refuses directives whose execution context, shell or
// effort is not one the vocabulary defines, or whose hooks are not a JSON
// object within skill.MaxHooksBytes.
func checkDirectives(d *skill.Directives) error {
	if d == nil {
		return nil
	}
	switch d.Context {
	case skill.ContextInline, skill.ContextFork, skill.ContextForkWithConversation:
	default:
		return fmt.Errorf("directives: unknown execution context %q; the contexts are %q (inline), %q and %q", d.Context, skill.ContextInline, skill.ContextFork, skill.ContextForkWithConversation)
	}
	if d.Shell != "" && d.Shell != skill.ShellPowerShell {
		return fmt.Errorf("directives: unknown shell %q; the shells are %q (bash, the default) and %q", d.Shell, "", skill.ShellPowerShell)
	}
	if d.Effort != "" && !slices.Contains(skill.Efforts(), d.Effort) {
		return fmt.Errorf("directives: unknown effort %q; the efforts are %s", d.Effort, strings.Join(skill.Efforts(), ", "))
	}
	if d.Hooks != "" && (len(d.Hooks) > skill.MaxHooksBytes || skill.HookEventsOf(d.Hooks) == nil) {
		return fmt.Errorf("directives: hooks are not a JSON object of at most %d bytes", skill.MaxHooksBytes)
	}
	return nil
}
