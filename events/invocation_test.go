package events

import "testing"

func TestEncodeInvocationIsForeign(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, digest, want string }{
		{"pdf-forms", "0123456789abcdef0123456789abcdef", `{"kind":"skill-invocation","name":"pdf-forms","digest":"0123456789abcdef0123456789abcdef"}`},
		{"skill-catalog", "", `{"kind":"skill-invocation","name":"skill-catalog"}`},
	} {
		src := EncodeInvocation(tc.name, tc.digest)
		if string(src) != tc.want {
			t.Errorf("EncodeInvocation(%q, %q) = %s, want %s", tc.name, tc.digest, src, tc.want)
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
		{string(EncodeInvocation("pdf-forms", "")), true},
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
