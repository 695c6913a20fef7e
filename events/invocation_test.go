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

func TestIsInvocationKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		source string
		want   bool
	}{
		{string(EncodeInvocation("pdf-forms")), true},
		{` {"name":"x", "kind" : "skill-invocation"} `, true},
		{`{"kind":"skill-catalog","form":"catalog","entries":[]}`, false},
		{`{"kind":"skill-invocation-2"}`, false},
		{`{"note":"skill-invocation"}`, false},
		{`"skill-invocation"`, false},
		{`{"kind":"skill-invocation"`, false},
		{``, false},
	} {
		if got := IsInvocationKind([]byte(tc.source)); got != tc.want {
			t.Errorf("IsInvocationKind(%s) = %v, want %v", tc.source, got, tc.want)
		}
	}
}
