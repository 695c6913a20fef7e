package skills

import (
	"fmt"

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

// checkDirectives refuses directives whose execution context is not one
// the vocabulary defines.
func checkDirectives(d *skill.Directives) error {
	if d == nil {
		return nil
	}
	switch d.Context {
	case skill.ContextInline, skill.ContextFork, skill.ContextForkWithConversation:
		return nil
	}
	return fmt.Errorf("directives: unknown execution context %q; the contexts are %q (inline), %q and %q", d.Context, skill.ContextInline, skill.ContextFork, skill.ContextForkWithConversation)
}
