package events

import (
	"bytes"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

func encodeEach(es []digest.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = EncodeEntry(e)
	}
	return out
}

// TestEncodeCatalogEntriesMatchesEncodeCatalog: a record assembled from
// entries encoded one by one is the record EncodeCatalog writes.
func TestEncodeCatalogEntriesMatchesEncodeCatalog(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		entries []digest.Entry
	}{
		{"none", nil},
		{"one", entries{en("a", "A.")}},
		{"escapes", entries{en("a-skill", "quote \" <tag> & \u2028 \x01 \U0001F600"), en("b", "")}},
		{"invalid UTF-8", entries{en("c", "bad \xff byte")}},
	} {
		for _, update := range []bool{false, true} {
			want := EncodeCatalog(tt.entries, update)
			if got := EncodeCatalogEntries(encodeEach(tt.entries), update); !bytes.Equal(got, want) {
				t.Errorf("%s, update %v: EncodeCatalogEntries = %s, want %s", tt.name, update, got, want)
			}
		}
	}
}

// FuzzEncodeCatalogEntries: for any entries, assembling pre-encoded entries
// gives EncodeCatalog's bytes.
func FuzzEncodeCatalogEntries(f *testing.F) {
	f.Add("a-skill", "quote \" <tag> & \u2028 \x01", "b", "\xff", true)
	f.Fuzz(func(t *testing.T, n1, d1, n2, d2 string, update bool) {
		es := entries{en(n1, d1), en(n2, d2)}
		if got, want := EncodeCatalogEntries(encodeEach(es), update), EncodeCatalog(es, update); !bytes.Equal(got, want) {
			t.Fatalf("EncodeCatalogEntries = %q, want %q", got, want)
		}
	})
}
