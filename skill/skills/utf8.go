package skills

import (
	"context"
	"fmt"

	"github.com/skillcatalog/skillcatalog/skill"
)

// loadChecked is load, refusing a found definition whose text is not valid
// UTF-8: the plugin protocol cannot carry it, so the load fails here,
// naming the field, instead of in transit. A provider's listed summaries
// are held to the same rule (listable).
func (e *providerEntry) loadChecked(ctx context.Context, req LoadRequest) (skill.Definition, bool, error) {
	def, found, err := e.load(ctx, req)
	if err != nil || !found {
		return def, found, err
	}
	if err := def.CheckUTF8(); err != nil {
		return skill.Definition{Summary: skill.Summary{Provider: def.Provider}}, false, fmt.Errorf("the provider answered with a skill whose %w", err)
	}
	return def, true, nil
}
