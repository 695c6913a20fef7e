package events

import (
	"bytes"
	"iter"
	"strconv"

	"github.com/skillcatalog/skillcatalog/digest"

	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
)

const (
	// SourceKind is the "kind" of every catalog record's source.
	SourceKind = "skill-catalog"
	// FormCatalog is the "form" of a catalog record: a complete list of published entries.
	FormCatalog = "catalog"
)

// kindLiteral must occur in every source worth decoding. It lets the great majority of
// sources, which are not catalog records, be dismissed with one substring search.
const kindLiteral = `"` + SourceKind + `"`

// mayBeCatalog reports whether source can possibly be a catalog-kind record.
func mayBeCatalog(source []byte) bool {
	return bytes.Contains(source, []byte(kindLiteral))
}

// Catalog is a readable catalog record.
type Catalog struct {
	// Entries are the published (name, description, origin, origin kind) entries in catalog order. Never nil for a
	// readable record; empty for the tombstone that retires every earlier name.
	Entries []digest.Entry
	// Update is true when the record marks a replacement rather than the first publication.
	Update bool
	// Omitted is the number of skills the catalog said were left out of it (a catalog
	// budget); 0 for every other catalog.
	Omitted int
	// Activated are the skills scoped by `paths` that files the session touched have
	// activated, sorted without repeats (see ParseActivated); nil when none have.
	Activated []string
	// Digest is digest.WithActivated(digest.OfOmitting(Entries, Omitted), Activated):
	// digest.Of(Entries) unless skills were left out or activated.
	Digest digest.Digest
}

// ParseCatalog returns the catalog recorded in source and true when source is readable: a
// single JSON object (surrounding JSON whitespace allowed) whose "kind" is "skill-catalog",
// whose "form" is "catalog", and whose "entries" is an array in which every element is an
// object with a non-empty string "name", a string "description" (possibly empty) and, for a
// remote skill, a string "origin" (the label of the source it comes from; absent or empty for
// the host's own skills, any other type makes the record unreadable) and, for a website's
// skill, "origin_kind": "website" (absent for an MCP server's; any other value, or one beside
// no origin, makes the record unreadable, so a kind this reader does not know is never shown
// as another), and, optionally, "content_digest": the content digest the skill was listed with
// (digest.Entry.ContentDigest), read only when it is "sha256:" and 64 lower-case hexadecimal
// digits and otherwise taken as absent, never making the record unreadable; readers before it
// ignore it. Other members are ignored. "update" counts only when it is the boolean true; "omitted" only when
// it is an integer written with digits alone, at most 2^31-1. "activated", when present, must be
// what ParseActivated reads, or the record is unreadable.
//
// Keys are matched exactly (case-sensitively), and a repeated key takes its last value, as in
// JavaScript's JSON.parse. Strings are decoded like encoding/json: invalid UTF-8 and unpaired
// surrogate escapes become U+FFFD.
//
// Anything else returns false and never panics: invalid JSON, trailing data, a non-object,
// another kind or form, missing, null or non-array entries, or any malformed element.
//
// A source that does not contain the quoted literal "skill-catalog" anywhere is rejected
// without decoding, so a kind spelled only with JSON escapes (for example
// "skill\u002dcatalog") is not recognized. No writer produces that spelling.
func ParseCatalog(source []byte) (Catalog, bool) {
	if !mayBeCatalog(source) {
		return Catalog{}, false
	}
	p := parser{src: source, wantEntries: true}
	rec, ok := p.parseRecord()
	if !ok || !rec.kind || !rec.form || !rec.entries {
		return Catalog{}, false
	}
	// One string holds every decoded name and description, so a record costs a fixed number
	// of allocations however many entries it has.
	arena := string(p.arena)
	entries := make([]digest.Entry, len(p.spans))
	for i, s := range p.spans {
		entries[i] = digest.Entry{
			Name:          arena[s.nameStart:s.nameEnd],
			Description:   arena[s.descStart:s.descEnd],
			Origin:        arena[s.originStart:s.originEnd],
			OriginKind:    s.originKind,
			ContentDigest: arena[s.digestStart:s.digestEnd],
		}
	}
	var activated []string
	if rec.activated != nil {
		if activated, ok = ParseActivated(rec.activated); !ok {
			return Catalog{}, false
		}
	}
	d := digest.WithActivated(digest.OfOmitting(entries, rec.omitted), activated)
	return Catalog{Entries: entries, Update: rec.update, Omitted: rec.omitted, Activated: activated, Digest: d}, true
}

// IsCatalogKind reports whether source is a valid JSON object whose "kind" is
// "skill-catalog", readable or not. It tells this plugin's own records, including stale or
// damaged ones, apart from foreign records. Invalid JSON is not an object and reports false;
// the same literal prefilter as in ParseCatalog applies.
func IsCatalogKind(source []byte) bool {
	if !mayBeCatalog(source) {
		return false
	}
	p := parser{src: source}
	rec, ok := p.parseRecord()
	return ok && rec.kind
}

// EncodeCatalog returns the compact JSON source for a catalog message publishing entries:
// members in the order kind, form, update (only when true), entries, and entries always an
// array of objects with name, description and, only for an entry with an origin, origin,
// followed, only for a website's origin, by "origin_kind":"website", then, only for an entry
// with a content digest, "content_digest". Strings are escaped as
// encoding/json does with HTML escaping disabled, so descriptions keep <, > and & verbatim;
// invalid UTF-8 becomes U+FFFD.
//
// ParseCatalog(EncodeCatalog(entries, update)) returns entries and update unchanged provided
// every name is non-empty, every string is valid UTF-8 and every entry with a kind other than
// an MCP server's has an origin and a kind digest defines; an empty name yields a record that
// ParseCatalog (and every other reader) treats as unreadable.
func EncodeCatalog(entries []digest.Entry, update bool) []byte {
	n := catalogFrameLen
	for i := range entries {
		n += len(entryFrame) + len(entries[i].Name) + len(entries[i].Description)
		if o := entries[i].Origin; o != "" {
			n += len(originFrame) + len(o) + len(originKindMember)
		}
		if d := entries[i].ContentDigest; d != "" {
			n += len(`,"content_digest":""`) + len(d)
		}
	}
	n += n / 16 // room for a few escapes, so the common case allocates once
	b := appendCatalogHead(make([]byte, 0, n), update)
	for i := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEntry(b, &entries[i])
	}
	return append(b, catalogClose...)
}

// AppendEntry appends the JSON object that EncodeCatalog writes for one entry, followed by
// a comma: the unit assembleCatalog assembles. A caller that records many catalogs over
// mostly the same entries keeps the encoded entries and encodes only the ones that changed.
func AppendEntry(dst []byte, e digest.Entry) []byte {
	return append(appendEntry(dst, &e), ',')
}

// assembleCatalog is EncodeCatalog for entries already encoded with AppendEntry: the
// encodings, back to back, held in pieces; the result is the same byte for byte. With
// omitted above 0 the record is of a catalog fitted to a budget that left that many skills
// out, and carries "omitted" after "update".
func assembleCatalog(entries [][]byte, update bool, omitted int) []byte {
	n := catalogFrameLen + len(omittedMember) + 10
	for _, p := range entries {
		n += len(p)
	}
	b := appendCatalogHead(make([]byte, 0, n), update)
	if omitted > 0 {
		b = strconv.AppendInt(append(b[:len(b)-len(catalogOpen)], omittedMember...), int64(omitted), 10)
		b = append(append(b, ','), catalogOpen...)
	}
	for _, p := range entries {
		b = append(b, p...)
	}
	if b[len(b)-1] == ',' { // the comma after the last entry
		b = b[:len(b)-1]
	}
	return append(b, catalogClose...)
}

// AssembleCatalogSeq is assembleCatalog for encodings that entries yields
// in order, for a caller that keeps them in a structure of its own. It
// iterates entries twice, to size the record exactly: the record is its one
// large allocation.
func AssembleCatalogSeq(entries iter.Seq[[]byte], update bool, omitted int) []byte {
	n, last := len(catalogHead)+len(catalogOpen)+len(catalogClose), byte(0)
	if update {
		n += len(catalogUpdate)
	}
	if omitted > 0 {
		n += len(omittedMember) + len(strconv.Itoa(omitted)) + 1
	}
	for p := range entries {
		n += len(p)
		if len(p) > 0 {
			last = p[len(p)-1]
		}
	}
	if last == ',' {
		n-- // the comma after the last entry is dropped
	}
	b := appendCatalogHead(make([]byte, 0, n), update)
	if omitted > 0 {
		b = strconv.AppendInt(append(b[:len(b)-len(catalogOpen)], omittedMember...), int64(omitted), 10)
		b = append(append(b, ','), catalogOpen...)
	}
	for p := range entries {
		b = append(b, p...)
	}
	if b[len(b)-1] == ',' { // the comma after the last entry
		b = b[:len(b)-1]
	}
	return append(b, catalogClose...)
}

// The fixed parts of an encoded catalog record.
const (
	catalogHead   = `{"kind":"` + SourceKind + `","form":"` + FormCatalog + `",`
	catalogUpdate = `"update":true,`
	catalogOpen   = `"entries":[`
	omittedMember = `"omitted":`
	catalogClose  = `]}`
	entryFrame    = `{"name":"","description":""},`
	originFrame   = `,"origin":""`

	// originKindWebsite is the "origin_kind" of a website's entry, the one kind a record
	// names: an MCP server's entry, as every entry recorded before kinds existed, has none.
	originKindWebsite = "website"
	originKindMember  = `,"origin_kind":"` + originKindWebsite + `"`

	catalogFrameLen = len(catalogHead) + len(catalogUpdate) + len(catalogOpen) + len(catalogClose)
)

func appendCatalogHead(b []byte, update bool) []byte {
	b = append(b, catalogHead...)
	if update {
		b = append(b, catalogUpdate...)
	}
	return append(b, catalogOpen...)
}

func appendEntry(b []byte, e *digest.Entry) []byte {
	b = append(b, `{"name":`...)
	b = jsonstr.Append(b, e.Name)
	b = append(b, `,"description":`...)
	b = jsonstr.Append(b, e.Description)
	if e.Origin != "" {
		b = append(b, `,"origin":`...)
		b = jsonstr.Append(b, e.Origin)
		if e.OriginKind == digest.OriginWebsite {
			b = append(b, originKindMember...)
		}
	}
	if e.ContentDigest != "" {
		b = append(b, `,"content_digest":`...)
		b = jsonstr.Append(b, e.ContentDigest)
	}
	return append(b, '}')
}
