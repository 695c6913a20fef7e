package events

import (
	"bytes"
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

// encodeEach encodes entries in pieces: the first alone, the rest together.
func encodeEach(es []digest.Entry) [][]byte {
	var out [][]byte
	for i, e := range es {
		if i < 2 {
			out = append(out, nil)
		}
		out[len(out)-1] = AppendEntry(out[len(out)-1], e)
	}
	return out
}

// TestAssembleCatalogMatchesEncodeCatalog: a record assembled from entries
// encoded one by one is the record EncodeCatalog writes.
func TestAssembleCatalogMatchesEncodeCatalog(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		entries []digest.Entry
	}{
		{"none", nil},
		{"one", entries{en("a", "A.")}},
		{"escapes", entries{en("a-skill", "quote \" <tag> & \u2028 \x01 \U0001F600"), en("b", "")}},
		{"invalid UTF-8", entries{en("c", "bad \xff byte")}},
		{"a comma in the last description", entries{en("d", "x,")}},
		{"remote and website origins", entries{remote("e", "MCP.", "docs"), website("f", "Web.", "docs"), en("g", "Local.")}},
	} {
		for _, update := range []bool{false, true} {
			want := EncodeCatalog(tt.entries, update)
			if got := assembleCatalog(encodeEach(tt.entries), update, 0); !bytes.Equal(got, want) {
				t.Errorf("%s, update %v: AssembleCatalog = %s, want %s", tt.name, update, got, want)
			}
			for _, omitted := range []int{0, 1, 12345} {
				want := assembleCatalog(encodeEach(tt.entries), update, omitted)
				got := AssembleCatalogSeq(slices.Values(encodeEach(tt.entries)), update, omitted)
				if !bytes.Equal(got, want) || cap(got) != len(got) {
					t.Errorf("%s, update %v, omitted %d: AssembleCatalogSeq = %s (capacity %d), want %s", tt.name, update, omitted, got, cap(got), want)
				}
			}
		}
	}
}

// FuzzAssembleCatalog: for any entries, assembling pre-encoded entries
// gives EncodeCatalog's bytes.
func FuzzAssembleCatalog(f *testing.F) {
	f.Add("a-skill", "quote \" <tag> & \u2028 \x01", "", false, "b", "\xff,", true)
	f.Add("a-skill", "d", "docs", true, "b", "", false)
	f.Fuzz(func(t *testing.T, n1, d1, o1 string, web bool, n2, d2 string, update bool) {
		e1 := digest.Entry{Name: n1, Description: d1, Origin: o1}
		if web {
			e1.OriginKind = digest.OriginWebsite
		}
		es := entries{e1, en(n2, d2)}
		if got, want := assembleCatalog(encodeEach(es), update, 0), EncodeCatalog(es, update); !bytes.Equal(got, want) {
			t.Fatalf("AssembleCatalog = %q, want %q", got, want)
		}
	})
}
