package render

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestAllocations pins the allocation behaviour the package promises:
// nothing for input that needs no work, one string otherwise. It is not
// parallel: AllocsPerRun counts the allocations of every goroutine, and
// sequential tests never overlap parallel ones.
func TestAllocations(t *testing.T) {
	clean := "Extract text and tables from PDF files, fill PDF forms, and merge documents."
	dirty := "Extract text\tand tables\n\nfrom PDF files. "
	cleanMultiByte := "Diagramme für Ihre Daten — schnell, genau und übersichtlich: 図表を作成します。"
	controls := "\x1b[1mExtract\x1b[0m text\u200b and\u202e tables."
	long := strings.Repeat("Build charts from CSV data. ", 200)
	longMultiByte := strings.Repeat("Diagramme für Ihre Daten — schnell. ", 100)
	entries := benchEntries(50)
	cutInside := []byte(strings.Repeat("é", 100))
	tests := []struct {
		name string
		want float64
		f    func()
	}{
		{"NormalizeDescription clean", 0, func() { NormalizeDescription(clean, DefaultDescriptionMaxLength) }},
		{"NormalizeDescription clean multi-byte", 0, func() { NormalizeDescription(cleanMultiByte, DefaultDescriptionMaxLength) }},
		{"NormalizeDescription with controls", 1, func() { NormalizeDescription(controls, DefaultDescriptionMaxLength) }},
		{"NormalizeDescription dirty", 1, func() { NormalizeDescription(dirty, DefaultDescriptionMaxLength) }},
		{"NormalizeDescription capped", 1, func() { NormalizeDescription(long, DefaultDescriptionMaxLength) }},
		{"NormalizeDescription capped multi-byte", 1, func() { NormalizeDescription(longMultiByte, DefaultDescriptionMaxLength) }},
		{"Escape clean", 0, func() { Escape(clean) }},
		{"EscapeAttr clean", 0, func() { EscapeAttr(clean) }},
		{"Escape dirty", 1, func() { Escape("a & <b>") }},
		{"FitEscaped of bytes, cut inside a character", 0, func() { FitEscaped(cutInside, 51) }},
		{"InitialCatalog", 1, func() { InitialCatalog(entries) }},
		{"ReplacementCatalog", 1, func() { ReplacementCatalog(entries) }},
		{"Tombstone", 0, func() { ReplacementCatalog(nil) }},
		{"SkillContent", 1, func() {
			if _, err := SkillContent(directoryValue, false); err != nil {
				panic(err)
			}
		}},
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(50, tt.f); got != tt.want {
			t.Errorf("%s: %v allocations, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRenderingSizesItsTextExactly: every text whose length a renderer
// computes before writing it (catalogs, catalogs that say skills were left
// out, skill content of every resource base, local or remote, and the last
// page of a resource) is written with one allocation, the text itself, at
// every size. The sizes sweep the allocator's size classes, so that some
// computed length is exactly a class and any shortfall in it shows. Not
// parallel, like TestAllocations.
func TestRenderingSizesItsTextExactly(t *testing.T) {
	bases := []*skill.ResourceBase{
		nil,
		{Kind: skill.ResourceDirectory, Path: "/skills/a&b"},
		{Kind: skill.ResourceURL, URL: "skill://docs/a/"},
		{Kind: skill.ResourceOpaque, Description: "Assets <by name>."},
	}
	for n := range 260 {
		text := strings.Repeat("x", n)
		entries := []digest.Entry{
			{Name: "alpha", Description: text},
			{Name: "b&b", Description: "<" + text},
			{Name: "gamma", Description: text + "&", Origin: "d<o>cs"},
			{Name: "delta", Description: text, Origin: "web", OriginKind: digest.OriginWebsite},
		}
		var lines [][]byte
		for _, e := range entries {
			lines = append(lines, AppendEntryLine(nil, e))
		}
		check := func(what string, most float64, f func()) {
			t.Helper()
			if got := testing.AllocsPerRun(5, f); got > most {
				t.Fatalf("%s with %d-byte texts: %v allocations, want at most %v", what, n, got, most)
			}
		}
		check("InitialCatalog", 1, func() { InitialCatalog(entries) })
		check("ReplacementCatalog", 1, func() { ReplacementCatalog(entries) })
		// Left out: one skill, whose sentence is a constant.
		check("AssembleCatalog initial", 1, func() { assembleCatalog(lines, false, 1) })
		check("AssembleCatalog replacement", 1, func() { assembleCatalog(lines, true, 1) })
		for _, rb := range bases {
			for _, o := range []struct {
				origin string
				kind   skill.OriginKind
			}{{"", 0}, {"docs", skill.OriginMCPServer}, {"docs", skill.OriginWebsite}} {
				origin := o.origin
				// A remote skill's instructions are escaped: sized too.
				v := skill.ToolValue{Name: "a&b", Provider: "p", ResourceBase: rb, Content: "<" + text + "&", Origin: origin, OriginKind: o.kind}
				const most = 1.0
				for _, resourceTool := range []bool{false, true} {
					check(fmt.Sprintf("SkillContent(%+v, origin %q of kind %v, %v)", rb, origin, o.kind, resourceTool), most, func() {
						if _, err := SkillContent(v, resourceTool); err != nil {
							panic(err)
						}
					})
				}
			}
		}
		if n < 100 { // larger numbers in the attributes are strings of their own
			last := skill.ResourcePage{Name: "a", Path: strings.Repeat("p", 150), Offset: 10, TotalBytes: 99, Content: text}
			check("ResourcePage of a last page with a long path", 1, func() { ResourcePage(last) })
			if n < 98 { // its content is two bytes longer
				remote := skill.ResourcePage{Name: "a", Path: "p", Offset: 10, TotalBytes: 99, Content: "<" + text + "&"}
				check("ResourcePageFrom of a remote page", 1, func() { ResourcePageFrom(remote, "docs", skill.OriginMCPServer) })
				check("ResourcePageFrom of a website's page", 1, func() { ResourcePageFrom(remote, "docs", skill.OriginWebsite) })
			}
		}
	}
}

// bytesPerRun is testing.AllocsPerRun for bytes: the average heap bytes one
// call of f allocates, after a warm-up call.
func bytesPerRun(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// TestNormalizeDescriptionRetainsLittleMemory: a normalized description is
// kept for as long as its skill is listed, so its buffer is sized by what
// the text can become: at most the input's length or what the cap allows,
// whichever is less (plus the allocator's rounding). Not parallel, like
// TestAllocations.
func TestNormalizeDescriptionRetainsLittleMemory(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     string
		maxLen int
	}{
		{"short", "Extract text\tand tables\n\nfrom PDF files. ", DefaultDescriptionMaxLength},
		{"about the cap", strings.Repeat("ab \n", 250), DefaultDescriptionMaxLength},
		{"far over the cap", strings.Repeat("Build charts\tfrom CSV data. ", 200), DefaultDescriptionMaxLength},
		{"small cap", strings.Repeat("x\u200b", 100), 10},
	} {
		reserve := min(len(tt.in), utf8.UTFMax*tt.maxLen)
		most := uint64(reserve + reserve/8 + 16)
		if got := bytesPerRun(20, func() { NormalizeDescription(tt.in, tt.maxLen) }); got > most {
			t.Errorf("%s: NormalizeDescription of %d bytes, cap %d, allocates %d bytes, want at most %d", tt.name, len(tt.in), tt.maxLen, got, most)
		}
	}
}

// TestAssembleCatalogSeqSizesItsTextExactly: AssembleCatalogSeq sizes its
// text before writing it, notes and the sentence about left-out skills
// included, so the text is its one large allocation: what it allocates is
// the text's length, give or take the allocator's rounding and the little
// that ranging over lines takes, never a second, grown copy. The lengths
// sweep byte by byte across the allocator's size classes between 2 and
// 2.5 KiB, so that a shortfall of even a few bytes shows at some length.
// Not parallel, like TestAllocations.
func TestAssembleCatalogSeqSizesItsTextExactly(t *testing.T) {
	allNotes := allCatalogNotes
	for _, update := range []bool{false, true} {
		for _, omitted := range []int{0, 3} {
			for _, notes := range allNotes {
				base := len(AssembleCatalogSeq(slices.Values([][]byte{AppendEntryLine(nil, digest.Entry{Name: "a"})}), update, omitted, notes))
				for size := 2000; size < 2600; size++ {
					line := AppendEntryLine(nil, digest.Entry{Name: "a", Description: strings.Repeat("x", size-base)})
					lines := slices.Values([][]byte{line})
					var text string
					got := bytesPerRun(3, func() { text = AssembleCatalogSeq(lines, update, omitted, notes) })
					if len(text) != size {
						t.Fatalf("update %v, omitted %d, %+v: a text of %d bytes, want %d", update, omitted, notes, len(text), size)
					}
					if most := uint64(size + size/8 + 512); got > most {
						t.Fatalf("update %v, omitted %d, %+v: a text of %d bytes allocates %d bytes, want at most %d", update, omitted, notes, size, got, most)
					}
				}
			}
		}
	}
}
