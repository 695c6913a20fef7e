package plugin

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// TestTypedConfigRoundTrip: a Go host's typed configuration, sent in its
// JSON form, parses back to itself with the defaults written out, and one
// out of bounds is refused with the same error as its JSON would be.
func TestTypedConfigRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want contract.MountOptions }{
		{contract.MountOptions{}, defaultConfig()},
		{contract.MountOptions{DescriptionMaxLength: 40}, contract.MountOptions{DescriptionMaxLength: 40, CatalogBudget: contract.DefaultCatalogBudget}},
		{contract.MountOptions{CatalogBudget: contract.NoCatalogBudget, SearchTool: true, RelevantSkills: contract.RelevantOff},
			contract.MountOptions{DescriptionMaxLength: 500, CatalogBudget: contract.NoCatalogBudget, SearchTool: true, RelevantSkills: contract.RelevantOff}},
		{contract.MountOptions{RelevantSkills: contract.RelevantAuto}, defaultConfig()},
		{contract.MountOptions{UserInvocation: true, CatalogBudget: 2000, ResourceTool: true},
			contract.MountOptions{DescriptionMaxLength: 500, UserInvocation: true, CatalogBudget: 2000, ResourceTool: true}},
	} {
		got, err := ParseConfig(tc.in.JSON())
		if err != nil || got != tc.want {
			t.Errorf("ParseConfig(%s) = %+v, %v; want %+v", tc.in.JSON(), got, err, tc.want)
		}
	}
	_, typed := ParseConfig(contract.MountOptions{DescriptionMaxLength: 2}.JSON())
	_, raw := ParseConfig(`{"catalogDescriptionMaxLength": 2}`)
	if typed == nil || raw == nil || typed.Error() != raw.Error() {
		t.Errorf("a cap of 2: typed %v, JSON %v; want the same refusal", typed, raw)
	}
}
