package events

import "testing"

func TestEncodeInvocationIsForeign(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"pdf-forms", "skill-catalog"} {
		src := EncodeInvocation(name)
		if want := `{"kind":"skill-invocation","name":"` + name + `"}`; string(src) != want {
			t.Errorf("EncodeInvocation(%q) = %s, want %s", name, src, want)
		}
		if _, ok := ParseCatalog(src); ok {
			t.Errorf("%s reads as a catalog", src)
		}
		if IsCatalogKind(src) {
			t.Errorf("%s has the catalog kind", src)
		}
	}
}
