package hostsdk

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelectionAllows(t *testing.T) {
	type skill struct{ name, provider string }
	all := []skill{{"alpha", "runtime"}, {"beta", "runtime"}, {"gamma", "mcp"}, {"delta", "mcp"}}
	for _, tc := range []struct {
		desc string
		sel  Selection
		want []string
	}{
		{"zero selects all", Selection{}, []string{"alpha", "beta", "gamma", "delta"}},
		{"exclude a name", Selection{ExcludeNames: []string{"beta"}}, []string{"alpha", "gamma", "delta"}},
		{"exclude a provider", Selection{ExcludeProviders: []string{"mcp"}}, []string{"alpha", "beta"}},
		{"include names only", Selection{IncludeNames: []string{"gamma", "alpha"}}, []string{"alpha", "gamma"}},
		{"include a provider only", Selection{IncludeProviders: []string{"mcp"}}, []string{"gamma", "delta"}},
		{"inclusions add up", Selection{IncludeNames: []string{"alpha"}, IncludeProviders: []string{"mcp"}}, []string{"alpha", "gamma", "delta"}},
		{"excluded name wins over included name", Selection{IncludeNames: []string{"alpha", "beta"}, ExcludeNames: []string{"alpha"}}, []string{"beta"}},
		{"excluded name wins over included provider", Selection{IncludeProviders: []string{"mcp"}, ExcludeNames: []string{"delta"}}, []string{"gamma"}},
		{"excluded provider wins over included name", Selection{IncludeNames: []string{"gamma", "alpha"}, ExcludeProviders: []string{"mcp"}}, []string{"alpha"}},
		{"including what does not exist selects nothing", Selection{IncludeNames: []string{"omega"}}, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var got []string
			norm := tc.sel.normalized()
			for _, s := range all {
				ok := tc.sel.Allows(s.name, s.provider)
				if ok {
					got = append(got, s.name)
				}
				// The host's lookups on the normalized form agree.
				if norm.allows(s.name, s.provider, sortedContains) != ok {
					t.Errorf("the normalized selection disagrees on %q of %q", s.name, s.provider)
				}
				// refusesName never refuses what Allows allows for some provider.
				if ok && norm.refusesName(s.name) {
					t.Errorf("refusesName(%q) holds, but Allows(%q, %q) does", s.name, s.name, s.provider)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("selected (-want +got):\n%s", d)
			}
		})
	}
}

func TestSelectionToken(t *testing.T) {
	base := "00112233445566778899aabbccddeeff"
	zero := newSessionSelection(Selection{}, 1)
	a := newSessionSelection(Selection{ExcludeNames: []string{"a"}}, 1)
	a2 := newSessionSelection(Selection{ExcludeNames: []string{"a", "a"}}.normalized(), 9)
	b := newSessionSelection(Selection{ExcludeProviders: []string{"a"}}, 1)
	if zero.token(base) != base {
		t.Errorf("the zero selection changed the token")
	}
	if a.token("") != "" {
		t.Errorf("an incomplete snapshot got a token")
	}
	if a.token(base) == base || a.token(base) == b.token(base) {
		t.Errorf("selections share tokens: base %s, a %s, b %s", base, a.token(base), b.token(base))
	}
	if a.token(base) != a2.token(base) {
		t.Errorf("equal selections got different tokens")
	}
	if a.token(base) == a.token("ff"+base[2:]) {
		t.Errorf("one selection of two snapshots got one token")
	}
}

func TestDecodeSelection(t *testing.T) {
	for _, tc := range []struct {
		body string
		want Selection
		ok   bool
	}{
		{`{}`, Selection{}, true},
		{` {"excludeNames":["b","a","b"]}`, Selection{ExcludeNames: []string{"a", "b"}}, true},
		{`{"includeProviders":["mcp"],"future":1}`, Selection{IncludeProviders: []string{"mcp"}}, true},
		{`null`, Selection{}, false},
		{`[]`, Selection{}, false},
		{`"x"`, Selection{}, false},
		{`{"includeNames":"alpha"}`, Selection{}, false},
		{`{"includeNames":["Alpha"]}`, Selection{}, false},
		{`{"excludeProviders":[""]}`, Selection{}, false},
		{`{"excludeNames":[null]}`, Selection{}, false},
	} {
		got, ok := decodeSelection([]byte(tc.body))
		if ok != tc.ok || !cmp.Equal(tc.want, got) {
			t.Errorf("decodeSelection(%s) = %+v, %v; want %+v, %v", tc.body, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzDecodeSelection: any record body either is refused or decodes to a
// valid, normalized selection that encodes and decodes to itself.
func FuzzDecodeSelection(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `[]`, `{"excludeNames":["b","a","b"]}`, `{"includeNames":["Alpha"]}`,
		`{"includeProviders":["mcp","\u00e9"],"excludeProviders":["runtime"],"extra":{"x":[1]}}`,
		`{"excludeNames":[null]}`, `{"includeNames":"alpha"}`, `{"excludeProviders":["\xff"]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sel, ok := decodeSelection(body)
		if !ok {
			return
		}
		if err := sel.Validate(); err != nil {
			t.Fatalf("decoded an invalid selection %+v: %v", sel, err)
		}
		if !cmp.Equal(sel, sel.normalized()) {
			t.Fatalf("decoded selection %+v is not normalized", sel)
		}
		again, ok := decodeSelection(encodeSelection(sel))
		if !ok || !cmp.Equal(sel, again) {
			t.Fatalf("round trip of %+v gave %+v, %v", sel, again, ok)
		}
	})
}
