package events

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

// FuzzParseCatalog checks the reader against the encoding/json reference on arbitrary input,
// and that every readable record survives an encode/parse round trip.
func FuzzParseCatalog(f *testing.F) {
	for _, m := range malformed {
		f.Add([]byte(m.source))
	}
	f.Add(catalogA)
	f.Add(catalogB)
	f.Add(tombstone)
	f.Add(foreignCatalogProse)
	f.Add(EncodeCatalog(entries{en("a-skill", "quote \" <tag> & \u2028 \x01 \U0001F600")}, true))
	f.Add([]byte(`{"kind":"skill-catalog","form":"catalog","omitted":3,"entries":[{"name":"a","description":""}]}`))
	f.Add([]byte(`{"kind":"skill-catalog","form":"catalog","omitted":1e1,"omitted":2147483648,"entries":[]}`))
	f.Add(EncodeCatalog(entries{remote("a", "x", "docs"), website("b", "y", "docs")}, false))
	f.Add([]byte(`{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"","content_digest":"sha256:` + strings.Repeat("0", 64) + `","content_digest":1},` +
		`{"name":"b","description":"","content_digest":"sha256:` + strings.Repeat("f", 64) + `"}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, ok := ParseCatalog(src)
		ref, refOK := referenceParse(src)
		if ok != refOK || !sameCatalog(c, ref) {
			t.Fatalf("ParseCatalog = %+v, %v; encoding/json reference = %+v, %v", c, ok, ref, refOK)
		}
		if kind, refKind := IsCatalogKind(src), referenceIsCatalogKind(src); kind != refKind {
			t.Fatalf("IsCatalogKind = %v, reference = %v", kind, refKind)
		}
		if !ok {
			if c.Entries != nil || c.Update || c.Digest != (digest.Digest{}) {
				t.Fatalf("unreadable record returned data: %+v", c)
			}
			return
		}
		if !IsCatalogKind(src) {
			t.Fatal("readable record is not catalog kind")
		}
		for _, e := range c.Entries {
			if e.Name == "" {
				t.Fatalf("readable record has an empty name: %q", c.Entries)
			}
		}
		if c.Digest != digest.OfOmitting(c.Entries, c.Omitted) {
			t.Fatal("Digest is not digest.OfOmitting(Entries, Omitted)")
		}
		pieces := make([][]byte, len(c.Entries))
		for i, e := range c.Entries {
			pieces[i] = AppendEntry(nil, e)
		}
		enc := assembleCatalog(pieces, c.Update, c.Omitted)
		if want := referenceEncodeOmitting(c.Entries, c.Update, c.Omitted); !bytes.Equal(enc, want) {
			t.Fatalf("AssembleCatalog = %s, encoding/json = %s", enc, want)
		}
		if c.Omitted == 0 && !bytes.Equal(enc, EncodeCatalog(c.Entries, c.Update)) {
			t.Fatalf("AssembleCatalog with nothing left out differs from EncodeCatalog")
		}
		back, ok := ParseCatalog(enc)
		if !ok || !sameCatalog(back, c) {
			t.Fatalf("round trip of %s = %+v, %v; want %+v", enc, back, ok, c)
		}
	})
}

// scannerPool holds the sources FuzzScanner draws from; a selector past its end takes raw
// bytes from the input instead.
var scannerPool = func() [][]byte {
	pool := [][]byte{nil, catalogA, catalogB, tombstone, foreign, foreignCatalogProse}
	for _, m := range malformed[:7] { // the forms seen in real resumed sessions
		pool = append(pool, []byte(m.source))
	}
	return pool
}()

// decodeEvents turns fuzz input into events, newest first: each event is one control byte
// (bit 0: visible; the rest: pool selector) and, for raw sources, a length byte and that
// many bytes.
func decodeEvents(data []byte) []LogEvent {
	var evs []LogEvent
	for len(data) > 0 {
		op := data[0]
		data = data[1:]
		ev := LogEvent{Visible: op&1 == 1}
		if sel := int(op>>1) % (len(scannerPool) + 1); sel < len(scannerPool) {
			ev.Source = scannerPool[sel]
		} else if len(data) > 0 {
			n := min(int(data[0]), len(data)-1)
			ev.Source = data[1 : 1+n]
			data = data[1+n:]
		}
		evs = append(evs, ev)
	}
	for i := range evs {
		evs[i].Seq = uint64(len(evs) - i)
	}
	return evs
}

// FuzzScanner checks the early-exit scanner, with and without a custom parser, and every
// incremental split of the history against a scan of every event with the reference reader.
func FuzzScanner(f *testing.F) {
	sel := func(i int, visible bool) byte {
		b := byte(i << 1)
		if visible {
			b |= 1
		}
		return b
	}
	raw := byte(len(scannerPool) << 1)
	f.Add([]byte{})
	f.Add([]byte{sel(0, true), sel(1, true)})
	f.Add([]byte{sel(2, false), sel(1, true), sel(3, true)})
	f.Add([]byte{sel(4, true), sel(5, true), sel(2, false), sel(1, false)})
	f.Add([]byte{sel(6, true), sel(7, true), sel(8, true), sel(9, true), sel(10, true), sel(11, true), sel(12, true), sel(3, true)})
	f.Add(append([]byte{raw | 1, byte(len(catalogB))}, catalogB...))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs := decodeEvents(data)
		want := referenceBaseline(evs)

		got, doneAt := scanAll(new(Scanner), evs)
		if !sameBaseline(got, want) {
			t.Fatalf("Baseline() = %+v, reference = %+v", got, want)
		}
		wantDone := -1
		if want.Found {
			wantDone = len(evs) - int(want.Seq)
		}
		if doneAt != wantDone {
			t.Fatalf("done first at %d, want %d", doneAt, wantDone)
		}

		calls := 0
		cached, _ := scanAll(NewScanner(func(src []byte) (Catalog, bool) {
			calls++
			return ParseCatalog(src)
		}), evs)
		if !sameBaseline(cached, want) {
			t.Fatalf("custom-parse Baseline() = %+v, reference = %+v", cached, want)
		}
		if calls > len(evs) {
			t.Fatalf("parse called %d times for %d events", calls, len(evs))
		}

		// Long inputs check a sample of split points to keep each run linear-ish.
		step := max(1, len(evs)/32)
		for k := 0; k <= len(evs); k += step {
			newer, _ := scanAll(new(Scanner), evs[:k])
			older, _ := scanAll(new(Scanner), evs[k:])
			if got := newer.Over(older); !sameBaseline(got, want) {
				t.Fatalf("split at %d: %+v over %+v = %+v, reference = %+v", k, newer, older, got, want)
			}
		}
	})
}
