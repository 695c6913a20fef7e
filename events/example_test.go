package events_test

import (
	"fmt"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
)

// Every catalog message carries a durable record of what it published, as
// its message source: EncodeCatalog writes it and ParseCatalog reads it
// back, with the digest a later step compares with. A source that is not
// such a record is skipped, never an error.
func ExampleEncodeCatalog() {
	entries := []digest.Entry{{Name: "pdf-forms", Description: "Fill in PDF forms."}}
	source := events.EncodeCatalog(entries, false)
	fmt.Println(string(source))

	catalog, ok := events.ParseCatalog(source)
	fmt.Println(ok, catalog.Entries[0].Name, catalog.Digest == digest.Of(entries))

	_, ok = events.ParseCatalog([]byte(`{"kind":"something-else"}`))
	fmt.Println(ok)
	// Output:
	// {"kind":"skill-catalog","form":"catalog","entries":[{"name":"pdf-forms","description":"Fill in PDF forms."}]}
	// true pdf-forms true
	// false
}

// A Scanner reads a session's events newest first and stops at the newest
// visible catalog: the baseline the next step compares with. Here the
// newest catalog was hidden by a compaction, so the older one is the
// baseline.
func ExampleScanner() {
	older := events.EncodeCatalog([]digest.Entry{{Name: "pdf-forms", Description: "Fill in PDF forms."}}, false)
	newer := events.EncodeCatalog([]digest.Entry{{Name: "pdf-forms", Description: "Fill in PDF forms."}, {Name: "xlsx", Description: "Edit spreadsheets."}}, true)
	history := []events.LogEvent{ // newest first
		{Seq: 3, Visible: true, Source: []byte(`{"kind":"chat"}`)},
		{Seq: 2, Visible: false, Source: newer},
		{Seq: 1, Visible: true, Source: older},
	}
	scanner := events.NewScanner(nil)
	for _, ev := range history {
		if scanner.Feed(ev) {
			break
		}
	}
	b := scanner.Baseline()
	fmt.Println(b.Found, b.Seq, len(b.Catalog.Entries), b.EverPublished)
	// Output:
	// true 1 1 true
}
