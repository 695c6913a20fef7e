package digest

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"
)

// referenceEncoding builds the documented byte string in one buffer; Of must hash exactly
// this, without materializing it.
func referenceEncoding(entries []Entry) []byte {
	b := []byte("skillcatalog/digest/v1\x00")
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for _, e := range entries {
		if e.Origin != "" {
			b = append(b, 0)
			if e.OriginKind != OriginMCPServer {
				b = append(b, 0, byte(e.OriginKind))
			}
			b = binary.AppendUvarint(b, uint64(len(e.Origin)))
			b = append(b, e.Origin...)
		}
		b = binary.AppendUvarint(b, uint64(len(e.Name)))
		b = append(b, e.Name...)
		b = binary.AppendUvarint(b, uint64(len(e.Description)))
		b = append(b, e.Description...)
	}
	return b
}

// TestPinned fixes the digests of a few inputs forever. If this test fails, the encoding
// changed and every stored session would republish its catalog: do not update the values,
// restore the encoding.
func TestPinned(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		entries []Entry
		want    string
	}{
		{"nil", nil, "b2f078e9c6018b2622d920d0abe87c67"},
		{"empty", []Entry{}, "b2f078e9c6018b2622d920d0abe87c67"},
		{"one", []Entry{{Name: "a-skill", Description: "Does a thing."}}, "ba38007bdd3ceaf45e9bc35372d48349"},
		{"empty description", []Entry{{Name: "a-skill", Description: ""}}, "e0c50b10c2acb892f46d29a1529efe41"},
		{"two", []Entry{{Name: "alpha", Description: "First."}, {Name: "beta", Description: "Second & <third>."}}, "f1c0c63e2a2c09d692a630ad7eab9fe0"},
		{"unicode", []Entry{{Name: "résumé", Description: "naïve — “quoted” 日本語"}}, "0ec1af54535b4d23fb20f7c8d1b51ca3"},
		{"remote", []Entry{{Name: "alpha", Description: "First."}, {Name: "beta", Description: "Second.", Origin: "docs"}}, "fd109c0d9b7870bacb8050b8df5f747c"},
		{"website", []Entry{{Name: "alpha", Description: "First."}, {Name: "beta", Description: "Second.", Origin: "docs", OriginKind: OriginWebsite}}, "41c043b3a1f5ba2df2cbbc612d184e95"},
		// A kind is an origin's: without one, an entry is the host's own.
		{"kind without origin", []Entry{{Name: "a-skill", Description: "Does a thing.", OriginKind: OriginWebsite}}, "ba38007bdd3ceaf45e9bc35372d48349"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Of(tt.entries)
			if got.String() != tt.want {
				t.Errorf("Of(%q) = %s, want %s", tt.entries, got, tt.want)
			}
			if ref := Digest(xxh3.Hash128(referenceEncoding(tt.entries)).Bytes()); got != ref {
				t.Errorf("Of(%q) = %s, reference encoding hashes to %s", tt.entries, got, ref)
			}
		})
	}
}

// TestStreamingMatchesReference covers lengths that cross the hasher's internal block
// boundaries and multi-byte varints.
func TestStreamingMatchesReference(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 7, 63, 64, 65, 127, 128, 129, 240, 1000, 1025, 4095, 4096, 4097, 5000} {
		long := strings.Repeat("x", n)
		for _, entries := range [][]Entry{
			{{Name: long, Description: ""}},
			{{Name: "a", Description: long}},
			{{Name: long, Description: long}, {Name: "b", Description: long}},
			{{Name: "a", Description: long, Origin: long}, {Name: long, Description: "b", Origin: "o"}},
			{{Name: "a", Description: long, Origin: long, OriginKind: OriginWebsite}, {Name: long, Description: "b", Origin: "o", OriginKind: OriginWebsite}},
			manyEntries(n % 300),
		} {
			got := Of(entries)
			want := Digest(xxh3.Hash128(referenceEncoding(entries)).Bytes())
			if got != want {
				t.Errorf("n=%d: Of = %s, reference = %s", n, got, want)
			}
		}
	}
}

// naiveJoins are the separator-based encodings a length-prefixed encoding must not behave like.
var naiveJoins = map[string]func([]Entry) string{
	"newline": func(es []Entry) string {
		var b strings.Builder
		for _, e := range es {
			b.WriteString(e.Name + "\n" + e.Description + "\n")
		}
		return b.String()
	},
	"concat": func(es []Entry) string {
		var b strings.Builder
		for _, e := range es {
			b.WriteString(e.Name + e.Description + e.Origin)
		}
		return b.String()
	},
	"catalog line": func(es []Entry) string {
		var b strings.Builder
		for _, e := range es {
			b.WriteString("-`" + e.Name + "`: " + e.Description + "\n")
		}
		return b.String()
	},
}

func TestSeparatorCollisionsDiffer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		join string
		a, b []Entry
	}{
		{"newline", []Entry{{Name: "a", Description: "b\nc"}}, []Entry{{Name: "a\nb", Description: "c"}}},
		{"newline", []Entry{{Name: "a", Description: "b"}, {Name: "c", Description: "d"}}, []Entry{{Name: "a", Description: "b\nc\nd"}}},
		{"newline", []Entry{{Name: "a", Description: "b\n\n"}}, []Entry{{Name: "a", Description: "b"}, {Name: "", Description: ""}}},
		{"concat", []Entry{{Name: "ab", Description: ""}}, []Entry{{Name: "a", Description: "b"}}},
		{"concat", []Entry{{Name: "a", Description: "b"}, {Name: "c", Description: "d"}}, []Entry{{Name: "ab", Description: "cd"}}},
		{"concat", []Entry{}, []Entry{{Name: "", Description: ""}}},
		{"catalog line", []Entry{{Name: "a", Description: "x\n-`b`: y"}}, []Entry{{Name: "a", Description: "x"}, {Name: "b", Description: "y"}}},
		{"concat", []Entry{{Name: "a", Description: "b", Origin: "c"}}, []Entry{{Name: "a", Description: "bc"}}},
		{"concat", []Entry{{Name: "a", Description: "b", Origin: "c"}}, []Entry{{Name: "ab", Description: "", Origin: "c"}}},
		{"concat", []Entry{{Name: "a", Description: "b", Origin: "c", OriginKind: OriginWebsite}}, []Entry{{Name: "a", Description: "bc", OriginKind: OriginWebsite}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %q %q", tt.join, tt.a, tt.b), func(t *testing.T) {
			t.Parallel()
			join := naiveJoins[tt.join]
			if join(tt.a) != join(tt.b) {
				t.Fatalf("test case does not collide under %s join", tt.join)
			}
			if Of(tt.a) == Of(tt.b) {
				t.Errorf("Of(%q) == Of(%q) = %s", tt.a, tt.b, Of(tt.a))
			}
		})
	}
}

func TestOrderMatters(t *testing.T) {
	t.Parallel()
	a := []Entry{{Name: "alpha", Description: "A"}, {Name: "beta", Description: "B"}}
	b := []Entry{{Name: "beta", Description: "B"}, {Name: "alpha", Description: "A"}}
	if Of(a) == Of(b) {
		t.Errorf("reordered entries share digest %s", Of(a))
	}
	if Of([]Entry{{Name: "x", Description: "y"}}) == Of([]Entry{{Name: "y", Description: "x"}}) {
		t.Error("swapping name and description kept the digest")
	}
	if Of([]Entry{{Name: "x", Description: "y", Origin: "z"}}) == Of([]Entry{{Name: "x", Description: "z", Origin: "y"}}) {
		t.Error("swapping description and origin kept the digest")
	}
}

// TestOriginChangesDigest: the same name and description published from another origin,
// or from none, is another catalog, while an entry without an origin hashes as it always
// has (TestPinned).
func TestOriginChangesDigest(t *testing.T) {
	t.Parallel()
	seen := map[Digest]string{}
	for _, origin := range []string{"", "docs", "doc", "docs2", "\x00"} {
		d := Of([]Entry{{Name: "a-skill", Description: "Does a thing.", Origin: origin}})
		if prev, dup := seen[d]; dup {
			t.Errorf("origins %q and %q share digest %s", prev, origin, d)
		}
		seen[d] = origin
	}
	withOrigin := []Entry{{Name: "b", Description: "c", Origin: "o"}, {Name: "d", Description: ""}, {Name: "e", Description: "f", Origin: "o", OriginKind: OriginWebsite}}
	if Of(withOrigin) != Digest(xxh3.Hash128(referenceEncoding(withOrigin)).Bytes()) {
		t.Error("Of differs from the reference encoding for entries with origins")
	}
}

// TestOriginKindChangesDigest: the same entry from a website and from an MCP
// server of the same label are different catalogs, and the kind's bytes
// cannot pass for an origin, a name or a description of another entry
// list.
func TestOriginKindChangesDigest(t *testing.T) {
	t.Parallel()
	mcp := Entry{Name: "a-skill", Description: "Does a thing.", Origin: "docs"}
	web := mcp
	web.OriginKind = OriginWebsite
	if Of([]Entry{mcp}) == Of([]Entry{web}) {
		t.Error("a website's entry digests as the same MCP server's entry")
	}
	// The encodings that could be confused with a website's 0x00 0x00 0x01
	// "docs": an origin starting with a control byte, an MCP entry
	// followed by a zero-length field.
	for _, other := range [][]Entry{
		{{Name: "a-skill", Description: "Does a thing.", Origin: "\x01docs"}},
		{{Name: "a-skill", Description: "Does a thing.", Origin: "\x00\x01docs"}},
		{{Name: "a-skill", Description: "Does a thing."}},
		{{Name: "a-skill", Description: "Does a thing.", Origin: "docs"}, {Name: "", Description: ""}},
	} {
		if Of(other) == Of([]Entry{web}) {
			t.Errorf("Of(%q) equals the website entry's digest", other)
		}
	}
	// Decoding the encoding gives the entry back: the kind byte is
	// unambiguous after the marker.
	enc := AppendEntry(nil, web)
	if want := "\x00\x00\x01\x04docs\x07a-skill\x0dDoes a thing."; string(enc) != want {
		t.Errorf("AppendEntry(website) = %q, want %q", enc, want)
	}
	if enc := AppendEntry(nil, mcp); string(enc) != "\x00\x04docs\x07a-skill\x0dDoes a thing." {
		t.Errorf("AppendEntry(MCP server) = %q, the encoding origins had before kinds", enc)
	}
}

func TestStringParseRoundTrip(t *testing.T) {
	t.Parallel()
	for _, entries := range [][]Entry{nil, {{Name: "a", Description: "b"}}, manyEntries(50)} {
		d := Of(entries)
		s := d.String()
		if len(s) != 32 || strings.ToLower(s) != s {
			t.Errorf("String() = %q, want 32 lowercase hex digits", s)
		}
		got, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if got != d {
			t.Errorf("Parse(%q) = %s, want %s", s, got, d)
		}
	}
	if got := (Digest{0: 0x01, 15: 0xab}).String(); got != "010000000000000000000000000000ab" {
		t.Errorf("String() = %q, want high byte first", got)
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	valid := Of(nil).String()
	for _, s := range []string{
		"",
		valid[:31],
		valid + "0",
		strings.ToUpper("0123456789abcdef0123456789abcdef"),
		"0123456789abcdef0123456789abcdeg",
		" 123456789abcdef0123456789abcdef",
		"0x23456789abcdef0123456789abcdef",
		"0123456789abcdef0123456789abcdé",
	} {
		if d, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %s, want error", s, d)
		} else if !strings.Contains(err.Error(), "parse digest") {
			t.Errorf("Parse(%q) error %q lacks context", s, err)
		}
	}
}

// TestOfAllocations is not parallel: AllocsPerRun counts the allocations of
// every goroutine, and sequential tests never overlap parallel ones.
func TestOfAllocations(t *testing.T) {
	for _, n := range []int{0, 10, 1000, 10000} {
		entries := manyEntries(n)
		allocs := testing.AllocsPerRun(20, func() { Of(entries) })
		if allocs != 0 {
			t.Errorf("Of(%d entries) allocates %v times, want 0", n, allocs)
		}
	}
}

func manyEntries(n int) []Entry {
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{
			Name:        fmt.Sprintf("skill-%05d", i),
			Description: fmt.Sprintf("Handles task family %d: reads inputs, validates them, and writes a short report.", i),
		}
	}
	return entries
}

func BenchmarkOf(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		entries := manyEntries(n)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Of(entries)
			}
		})
	}
}

// TestOfEncodedMatchesOf: hashing entries kept encoded gives the digest of
// the entries, for lists that fill several blocks and entries larger than
// one.
func TestOfEncodedMatchesOf(t *testing.T) {
	t.Parallel()
	huge := Entry{Name: "huge", Description: strings.Repeat("x", 10000)}
	for _, entries := range [][]Entry{nil, {{Name: "a", Description: ""}}, manyEntries(1000), append(manyEntries(3), huge, Entry{Name: "z", Description: "after", Origin: "docs"}, Entry{Name: "zz", Description: "web", Origin: "site", OriginKind: OriginWebsite})} {
		var enc []byte
		for _, e := range entries {
			enc = AppendEntry(enc, e)
		}
		// Any split into pieces hashes alike.
		pieces := [][]byte{enc}
		if len(enc) > 3 {
			pieces = [][]byte{enc[:1], enc[1 : len(enc)/2], nil, enc[len(enc)/2:]}
		}
		if got, want := ofEncoded(len(entries), pieces, 0), Of(entries); got != want {
			t.Errorf("%d entries: ofEncoded = %s, Of = %s", len(entries), got, want)
		}
	}
}

func FuzzOfEncoded(f *testing.F) {
	f.Add("a", "b", "", uint8(0), "c\x00", strings.Repeat("d", 5000))
	f.Add("a", "b", "docs", uint8(0), "c", "d")
	f.Add("a", "b", "docs", uint8(OriginWebsite), "c", "d")
	f.Add("a", "b", "", uint8(OriginWebsite), "c", "d")
	f.Fuzz(func(t *testing.T, n1, d1, o1 string, k1 uint8, n2, d2 string) {
		entries := []Entry{{Name: n1, Description: d1, Origin: o1, OriginKind: OriginKind(k1)}, {Name: n2, Description: d2}}
		enc := AppendEntry(AppendEntry(nil, entries[0]), entries[1])
		if ofEncoded(2, [][]byte{enc}, 0) != Of(entries) {
			t.Fatal("OfEncoded differs from Of")
		}
		if Of(entries) != Digest(xxh3.Hash128(referenceEncoding(entries)).Bytes()) {
			t.Fatal("Of differs from the reference encoding")
		}
	})
}

func TestOfOmitting(t *testing.T) {
	entries := []Entry{{Name: "a", Description: "x"}, {Name: "b", Description: ""}}
	if OfOmitting(entries, 0) != Of(entries) {
		t.Error("OfOmitting with nothing left out differs from Of")
	}
	seen := map[Digest]int{Of(entries): 0}
	for _, n := range []int{1, 2, 127, 128, 1 << 20} {
		d := OfOmitting(entries, n)
		if prev, dup := seen[d]; dup {
			t.Errorf("%d and %d left out share a digest", prev, n)
		}
		seen[d] = n
		enc := [][]byte{AppendEntry(nil, entries[0]), AppendEntry(nil, entries[1])}
		if ofEncoded(2, enc, n) != d {
			t.Errorf("OfEncoded differs from OfOmitting for %d left out", n)
		}
	}
	// The trailer cannot pass for a further entry.
	if OfOmitting(entries[:1], 1) == Of(append(entries[:1:1], Entry{Name: "omitted", Description: "\x01"})) {
		t.Error("a trailer collides with an entry")
	}
}

// blockSize is the size of the stack buffer Of encodes entries into before
// handing them to the hasher.
const blockSize = 4096

// entryOfBound returns an entry whose encoding bound (what Of reserves in a
// block before encoding it: four maximal varints and the three strings) is
// exactly bound bytes.
func entryOfBound(bound int) Entry {
	return Entry{Name: "n", Description: strings.Repeat("d", bound-4*binary.MaxVarintLen64-1)}
}

func repeatEntry(e Entry, n int) []Entry {
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = e
	}
	return entries
}

// TestOfDoesNotAllocateForEntriesThatFitABlock: Of hashes every entry whose
// encoding fits its block from that block, whatever the mix of entry sizes,
// name, description and origin lengths, and however the entries fall on the
// block boundaries (only an entry larger than a block is encoded on the heap).
// Each list is one a wrong reservation or a wrong flush decision would
// overflow the block with. Not parallel, like TestOfAllocations.
func TestOfDoesNotAllocateForEntriesThatFitABlock(t *testing.T) {
	for _, tt := range []struct {
		name    string
		entries []Entry
	}{
		// 6 encoded bytes each: 683 of them overrun a block by 2 bytes if
		// the varints are not reserved.
		{"tiny entries packed across blocks", repeatEntry(Entry{Name: "a", Description: "xyz"}, 2000)},
		// A reservation that subtracted a length would never flush.
		{"long names", repeatEntry(Entry{Name: strings.Repeat("n", 100), Description: "d"}, 200)},
		{"long descriptions", repeatEntry(Entry{Name: "n", Description: strings.Repeat("d", 100)}, 200)},
		{"long origins", repeatEntry(Entry{Name: "n", Description: "d", Origin: strings.Repeat("o", 100)}, 200)},
		{"long website origins", repeatEntry(Entry{Name: "n", Description: "d", Origin: strings.Repeat("o", 100), OriginKind: OriginWebsite}, 200)},
		// Every field of an entry at its most bytes beside its strings:
		// the marker, the kind and three two-byte lengths, packed so that
		// a reservation short of the kind's bytes would overflow a block.
		{"website entries with long fields", repeatEntry(Entry{Name: strings.Repeat("n", 128), Description: strings.Repeat("d", 128), Origin: strings.Repeat("o", 128), OriginKind: OriginWebsite}, 100)},
		// The second entry does not fit behind the first: the block must be
		// flushed first, not appended to.
		{"entries of most of a block", repeatEntry(Entry{Name: "n", Description: strings.Repeat("d", 3000)}, 5)},
		// An entry whose bound is exactly a block fits an emptied block.
		{"entry of exactly a block after a small one", []Entry{{Name: "a", Description: "b"}, entryOfBound(blockSize)}},
		{"entry of exactly a block first", []Entry{entryOfBound(blockSize), {Name: "a", Description: "b"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := Of(tt.entries), Digest(xxh3.Hash128(referenceEncoding(tt.entries)).Bytes()); got != want {
				t.Fatalf("Of = %s, reference = %s", got, want)
			}
			if allocs := testing.AllocsPerRun(20, func() { Of(tt.entries) }); allocs != 0 {
				t.Errorf("Of allocates %v times, want 0", allocs)
			}
		})
	}
}

// TestOmittingNothing: a catalog that left nothing out (or a count below 1,
// which no catalog says) digests as Of and ofEncoded do, encoded or not, and
// OfOmitting then costs what Of costs.
func TestOmittingNothing(t *testing.T) {
	entries := []Entry{{Name: "a", Description: "x"}, {Name: "b", Description: "", Origin: "docs"}, {Name: "c", Description: "", Origin: "docs", OriginKind: OriginWebsite}}
	enc := [][]byte{AppendEntry(nil, entries[0]), AppendEntry(nil, entries[1]), AppendEntry(nil, entries[2])}
	want := Of(entries)
	for _, omitted := range []int{0, -1, -1 << 40} {
		if got := OfOmitting(entries, omitted); got != want {
			t.Errorf("OfOmitting(entries, %d) = %s, want Of = %s", omitted, got, want)
		}
		if got := ofEncoded(len(entries), enc, omitted); got != want {
			t.Errorf("ofEncoded(%d) = %s, want Of = %s", omitted, got, want)
		}
	}
	if allocs := testing.AllocsPerRun(20, func() { OfOmitting(entries, 0) }); allocs != 0 {
		t.Errorf("OfOmitting(entries, 0) allocates %v times, want 0 as Of", allocs)
	}
}
