package events

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

func TestParseActivated(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want []string
		ok   bool
	}{
		{`[]`, nil, true},
		{`["b","a","b"]`, []string{"a", "b"}, true},
		{`null`, nil, false},
		{`"a"`, nil, false},
		{`[""]`, nil, false},
		{`[1]`, nil, false},
		{`["a",null]`, nil, false},
		{`{"a":1}`, nil, false},
	} {
		got, ok := ParseActivated([]byte(tc.raw))
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("ParseActivated(%s) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
	many := `["` + strings.Repeat(`a","`, MaxActivated) + `a"]`
	if _, ok := ParseActivated([]byte(many)); ok {
		t.Errorf("%d names read", MaxActivated+1)
	}
}

func TestCatalogWithActivated(t *testing.T) {
	entries := []digest.Entry{{Name: "alpha", Description: "First."}, {Name: "go-style", Description: "Go."}}
	src := WithActivated(EncodeCatalog(entries, true), []string{"go-style"})
	want := `{"kind":"skill-catalog","form":"catalog","update":true,"entries":[{"name":"alpha","description":"First."},{"name":"go-style","description":"Go."}],"activated":["go-style"]}`
	if string(src) != want {
		t.Fatalf("record\n%s\nwant\n%s", src, want)
	}
	c, ok := ParseCatalog(src)
	if !ok || !slices.Equal(c.Activated, []string{"go-style"}) {
		t.Fatalf("parsed %+v, %v", c, ok)
	}
	if c.Digest != digest.WithActivated(digest.Of(entries), []string{"go-style"}) || c.Digest == digest.Of(entries) {
		t.Error("the digest does not cover the activated skills")
	}
	if string(WithActivated(EncodeCatalog(entries, true), nil)) != string(EncodeCatalog(entries, true)) {
		t.Error("no activated skills changed the record")
	}
	for _, bad := range []string{`"go-style"`, `[""]`, `[1]`, `null`} {
		src := `{"kind":"skill-catalog","form":"catalog","entries":[],"activated":` + bad + `}`
		if _, ok := ParseCatalog([]byte(src)); ok {
			t.Errorf("record with activated %s is readable", bad)
		}
		if !IsCatalogKind([]byte(src)) {
			t.Errorf("record with activated %s is not of the catalog kind", bad)
		}
	}
}

func TestBaselineActivatedFromHiddenCatalog(t *testing.T) {
	older := WithActivated(EncodeCatalog([]digest.Entry{{Name: "a", Description: "A."}}, false), []string{"a"})
	newer := WithActivated(EncodeCatalog([]digest.Entry{{Name: "a", Description: "A."}, {Name: "b", Description: "B."}}, true), []string{"a", "b"})
	var sc Scanner
	sc.Feed(LogEvent{Seq: 3, Source: newer, Visible: false})
	sc.Feed(LogEvent{Seq: 1, Source: older, Visible: true})
	b := sc.Baseline()
	if !b.Found || !slices.Equal(b.Activated, []string{"a", "b"}) {
		t.Errorf("baseline %+v: want the newest record's activated skills, hidden or not", b)
	}
	// A range of newer events with a hidden catalog wins over the older
	// range's; one without a catalog keeps the older range's.
	hidden := Baseline{EverPublished: true, Activated: []string{"x"}}
	if got := hidden.Over(Baseline{Found: true, Activated: []string{"y"}}); !slices.Equal(got.Activated, []string{"x"}) {
		t.Errorf("Over: %q", got.Activated)
	}
	if got := (Baseline{}).Over(Baseline{Found: true, Activated: []string{"y"}}); !slices.Equal(got.Activated, []string{"y"}) {
		t.Errorf("Over: %q", got.Activated)
	}
}

func FuzzParseActivated(f *testing.F) {
	f.Add([]byte(`["a","b"]`))
	f.Add([]byte(`[""]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		names, ok := ParseActivated(raw)
		if !ok {
			return
		}
		if len(names) > MaxActivated || !slices.IsSorted(names) {
			t.Fatalf("names %q", names)
		}
		src := WithActivated(EncodeCatalog(nil, false), names)
		c, ok := ParseCatalog(src)
		if !ok || !slices.Equal(c.Activated, names) {
			t.Fatalf("round trip of %q: %q, %v", names, c.Activated, ok)
		}
	})
}
