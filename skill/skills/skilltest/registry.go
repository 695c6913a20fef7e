package skilltest

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// NewRegistry returns an empty registry with every default, as
// [skills.NewRegistry] returns for nil options, and fails t if it cannot be
// made.
func NewRegistry(t testing.TB) *skills.Registry {
	t.Helper()
	r, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatalf("skills.NewRegistry: %v", err)
	}
	return r
}
