package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

func benchEntries(n int) []digest.Entry {
	entries := make([]digest.Entry, n)
	for i := range entries {
		entries[i] = digest.Entry{
			Name: fmt.Sprintf("skill-%04d", i),
			Description: NormalizeDescription(fmt.Sprintf(
				"Skill %d handles one kind of task: it reads the inputs, checks them & reports problems, "+
					"then produces the <output> the user asked for in the format of the project.", i),
				DefaultDescriptionMaxLength),
		}
	}
	return entries
}

func BenchmarkNormalizeDescription(b *testing.B) {
	cases := []struct {
		name string
		in   string
	}{
		{"short-clean", "Extract text and tables from PDF files, fill PDF forms, and merge documents."},
		{"short-clean-multibyte", "Diagramme für Ihre Daten — schnell, genau und übersichtlich: 図表を作成します。"},
		{"short-dirty", "Extract text and tables\nfrom PDF files,\tfill PDF forms,  and merge documents.\n"},
		{"long-clean-capped", strings.Repeat("Build charts from CSV data. ", 200)},
		{"long-dirty-capped", strings.Repeat("Build charts\u00a0from  CSV\n\tdata. ", 200)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.in)))
			for b.Loop() {
				NormalizeDescription(c.in, DefaultDescriptionMaxLength)
			}
		})
	}
}

func BenchmarkInitialCatalog(b *testing.B) {
	for _, n := range []int{10, 1000} {
		entries := benchEntries(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				InitialCatalog(entries)
			}
		})
	}
}

func BenchmarkEscape(b *testing.B) {
	for _, c := range []struct{ name, in string }{
		{"clean", "Extract text and tables from PDF files, fill PDF forms, and merge documents."},
		{"dirty", "Extract text & tables from <PDF> files, fill PDF forms, & merge documents."},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Escape(c.in)
			}
		})
	}
}
