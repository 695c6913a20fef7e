package contract

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestMountOptionsJSON: the JSON form names every option by its constant,
// and leaves out what is zero.
func TestMountOptionsJSON(t *testing.T) {
	t.Parallel()
	full := MountOptions{DescriptionMaxLength: 40, UserInvocation: true, CatalogBudget: 2000, ResourceTool: true}
	var obj map[string]any
	if err := json.Unmarshal([]byte(full.JSON()), &obj); err != nil {
		t.Fatal(err)
	}
	want := []string{OptionCatalogBudget, OptionDescriptionMaxLength, OptionResourceTool, OptionUserInvocation}
	if got := slices.Sorted(maps.Keys(obj)); !slices.Equal(got, want) {
		t.Errorf("options %v, want %v", got, want)
	}
	if got := (MountOptions{}).JSON(); got != "{}" {
		t.Errorf("the zero configuration is %s, want {}", got)
	}
	if got := (MountOptions{DescriptionMaxLength: 300}).JSON(); got != `{"catalogDescriptionMaxLength":300}` {
		t.Errorf("one option: %s", got)
	}
}
