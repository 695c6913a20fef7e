package events

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

// truncationRecords are readable records whose prefixes end inside every
// construct the reader handles: keys and values with and without escapes,
// surrogate pairs in decoded and in skipped strings, numbers, literals and
// nested values.
var truncationRecords = []string{
	`{"kind":"skill-catalog","form":"catalog","update":true,"omitted":12,"entries":[` +
		`{"name":"a\u00E9\"b","description":"x\\y\/z\ud83d\ude00\uD800\n\b\f\r\t","origin":"do\u0063s"},` +
		`{"n\u0061me":"c","description":""}]}`,
	`{"kind":"skill-catalog","skipped":"\ud83d\ude00\uD800\u0041\\\"","n":[-0.5e+3,0,12E-1,true,false,null,{"k":[]}],` +
		`"form":"catalog","entries":[{"name":"\uD83D\uDE00","description":"\uDBFF\uDFFF \u00e9"}]}`,
	" \n{\"kind\" : \"skill-catalog\" , \"form\" : \"catalog\" , \"entries\" : [ { \"name\" : \"n\" , \"description\" : \"d\" } ] } \t",
}

// TestEveryTruncationMatchesReference: every prefix of a readable record is
// judged as encoding/json judges it (unreadable, except for trailing
// whitespace cut off), and the reader never looks past the end of its
// source: neither when the source's capacity ends there (a read past it
// panics) nor when the rest of the record follows in memory (a read past it
// would see a well-formed continuation).
func TestEveryTruncationMatchesReference(t *testing.T) {
	t.Parallel()
	for _, rec := range truncationRecords {
		full := []byte(rec)
		if _, ok := ParseCatalog(full); !ok {
			t.Fatalf("ParseCatalog(%s) unreadable", rec)
		}
		for k := 0; k <= len(full); k++ {
			for _, src := range [][]byte{full[:k:k], full[:k]} {
				c, ok := ParseCatalog(src)
				if ref, refOK := referenceParse(src); ok != refOK || !sameCatalog(c, ref) {
					t.Errorf("ParseCatalog(%s) = %+v, %v; encoding/json reference = %+v, %v", src, c, ok, ref, refOK)
				}
				if got, want := IsCatalogKind(src), referenceIsCatalogKind(src); got != want {
					t.Errorf("IsCatalogKind(%s) = %v, reference = %v", src, got, want)
				}
			}
		}
	}
}

// TestPlainCount: an "omitted" value counts only as a JSON integer written
// with digits alone, without sign, fraction, exponent or leading zero, at
// most 2^31-1; anything else is 0.
func TestPlainCount(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    string
		want int
	}{
		{"", 0},
		{"0", 0},
		{"1", 1},
		{"9", 9},
		{"10", 10},
		{"90", 90},
		{"1234567890", 1234567890},
		{"2147483647", 2147483647},
		{"2147483648", 0},
		{"9999999999", 0},
		{"12345678901", 0},
		{"00", 0},
		{"01", 0},
		{"09", 0},
		{"-1", 0},
		{"+1", 0},
		{"1.0", 0},
		{"1e3", 0},
		{" 1", 0},
		{"1/", 0},
		{"1:", 0},
		{`"3"`, 0},
	} {
		if got := plainCount([]byte(tt.v)); got != tt.want {
			t.Errorf("plainCount(%q) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

// TestEncodeAllocatesOnce: a record's size is estimated before it is
// written, so encoding entries without escapes allocates the record alone,
// whatever the lengths of names, descriptions and origins and whatever the
// record carries besides. Not parallel: AllocsPerRun counts the
// allocations of every goroutine.
func TestEncodeAllocatesOnce(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, es := range []entries{
		nil,
		{en(long+long, "d")},
		{en("n", long+long)},
		{remote("n", long, long)},
		{remote(long, long, long), en(long, long), remote("n", long, long+long)},
		manyEntriesWithoutEscapes(100),
	} {
		for _, u := range []bool{false, true} {
			if a := testing.AllocsPerRun(10, func() { EncodeCatalog(es, u) }); a != 1 {
				t.Errorf("EncodeCatalog(%d entries, %v) allocates %v times, want 1", len(es), u, a)
			}
		}
	}
	// Sizes sweep the allocator's size classes, so that some estimate is
	// exactly a class and any shortfall in it shows.
	for n := range 300 {
		es := entries{remote("n", strings.Repeat("d", n), "docs")}
		for _, u := range []bool{false, true} {
			if a := testing.AllocsPerRun(10, func() { EncodeCatalog(es, u) }); a != 1 {
				t.Fatalf("EncodeCatalog(a remote entry with a %d-byte description, %v) allocates %v times, want 1", n, u, a)
			}
		}
	}
	for n := range 300 {
		pieces := [][]byte{AppendEntry(nil, en("n", strings.Repeat("d", n)))}
		for _, omitted := range []int{0, 7, 1<<31 - 1} {
			for _, u := range []bool{false, true} {
				if a := testing.AllocsPerRun(10, func() { assembleCatalog(pieces, u, omitted) }); a != 1 {
					t.Fatalf("AssembleCatalog(description of %d bytes, %v, %d) allocates %v times, want 1", n, u, omitted, a)
				}
			}
		}
	}
}

// TestEncodeCatalogSpareCapacity: the room EncodeCatalog reserves for
// escapes is a fraction of the record, so the records that callers keep
// hold little unused memory.
func TestEncodeCatalogSpareCapacity(t *testing.T) {
	t.Parallel()
	for _, es := range []entries{nil, {en("a", "b")}, manyEntries(1), manyEntriesWithoutEscapes(1000)} {
		for _, u := range []bool{false, true} {
			if b := EncodeCatalog(es, u); cap(b) > 2*len(b) {
				t.Errorf("EncodeCatalog(%d entries, %v): capacity %d for %d bytes", len(es), u, cap(b), len(b))
			}
		}
	}
}

func manyEntriesWithoutEscapes(n int) entries {
	es := make(entries, n)
	for i := range es {
		es[i] = digest.Entry{
			Name:        fmt.Sprintf("skill-%05d", i),
			Description: fmt.Sprintf("Handles task family %d: reads inputs, validates them, then writes a short report.", i),
		}
	}
	return es
}
