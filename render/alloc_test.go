package render

import (
	"strings"
	"testing"
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
		{"InitialCatalog", 1, func() { InitialCatalog(entries) }},
		{"ReplacementCatalog", 1, func() { ReplacementCatalog(entries) }},
		{"Tombstone", 0, func() { ReplacementCatalog(nil) }},
		{"SkillContent", 1, func() {
			if _, err := SkillContent(directoryValue); err != nil {
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
