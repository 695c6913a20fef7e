package events

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	"github.com/skillcatalog/skillcatalog/digest"
)

// The reference implementations below use encoding/json, whose grammar and string decoding
// the package's own reader claims to match, and apply the record rules as plainly as
// possible. Tests and fuzzers compare the package against them.

func referenceTop(src []byte) (map[string]any, bool) {
	if !bytes.Contains(src, []byte(`"skill-catalog"`)) || !json.Valid(src) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber() // keep 1e400 valid, as it is in the grammar
	var top any
	if err := dec.Decode(&top); err != nil {
		return nil, false
	}
	m, ok := top.(map[string]any)
	return m, ok
}

func referenceIsCatalogKind(src []byte) bool {
	m, ok := referenceTop(src)
	return ok && m["kind"] == SourceKind
}

func referenceParse(src []byte) (Catalog, bool) {
	m, ok := referenceTop(src)
	if !ok || m["kind"] != SourceKind || m["form"] != FormCatalog {
		return Catalog{}, false
	}
	list, ok := m["entries"].([]any)
	if !ok {
		return Catalog{}, false
	}
	es := make([]digest.Entry, 0, len(list))
	for _, el := range list {
		obj, ok := el.(map[string]any)
		if !ok {
			return Catalog{}, false
		}
		name, ok := obj["name"].(string)
		if !ok || name == "" {
			return Catalog{}, false
		}
		desc, ok := obj["description"].(string)
		if !ok {
			return Catalog{}, false
		}
		var origin string
		if v, present := obj["origin"]; present {
			if origin, ok = v.(string); !ok {
				return Catalog{}, false
			}
		}
		kind := digest.OriginMCPServer
		if v, present := obj["origin_kind"]; present {
			if v != "website" || origin == "" {
				return Catalog{}, false
			}
			kind = digest.OriginWebsite
		}
		var contentDigest string
		if d, ok := obj["content_digest"].(string); ok && regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(d) {
			contentDigest = d
		}
		es = append(es, digest.Entry{Name: name, Description: desc, Origin: origin, OriginKind: kind, ContentDigest: contentDigest})
	}
	omitted := 0
	if n, ok := m["omitted"].(json.Number); ok && regexp.MustCompile(`^(0|[1-9][0-9]{0,9})$`).MatchString(n.String()) {
		if v, err := strconv.ParseInt(n.String(), 10, 64); err == nil && v <= 1<<31-1 {
			omitted = int(v)
		}
	}
	return Catalog{Entries: es, Update: m["update"] == true, Omitted: omitted, Digest: digest.OfOmitting(es, omitted)}, true
}

func referenceEncode(es []digest.Entry, update bool) []byte {
	return referenceEncodeOmitting(es, update, 0)
}

func referenceEncodeOmitting(es []digest.Entry, update bool, omitted int) []byte {
	type entry struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Origin      string `json:"origin,omitempty"`
		OriginKind  string `json:"origin_kind,omitempty"`
		Digest      string `json:"content_digest,omitempty"`
	}
	rec := struct {
		Kind    string  `json:"kind"`
		Form    string  `json:"form"`
		Update  bool    `json:"update,omitempty"`
		Omitted int     `json:"omitted,omitempty"`
		Entries []entry `json:"entries"`
	}{Kind: SourceKind, Form: FormCatalog, Update: update, Omitted: omitted, Entries: make([]entry, len(es))}
	for i, e := range es {
		rec.Entries[i] = entry{Name: e.Name, Description: e.Description, Origin: e.Origin, Digest: e.ContentDigest}
		if e.Origin != "" && e.OriginKind == digest.OriginWebsite {
			rec.Entries[i].OriginKind = "website"
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// referenceBaseline scans every event, newest first, with no early exit.
func referenceBaseline(evs []LogEvent) Baseline {
	var b Baseline
	for _, ev := range evs {
		c, ok := referenceParse(ev.Source)
		if !ok {
			continue
		}
		b.EverPublished = true
		if ev.Visible && !b.Found {
			b.Found, b.Seq, b.Catalog = true, ev.Seq, c
		}
	}
	return b
}

func sameCatalog(a, b Catalog) bool {
	return (a.Entries == nil) == (b.Entries == nil) && slices.Equal(a.Entries, b.Entries) &&
		a.Update == b.Update && a.Omitted == b.Omitted && a.Digest == b.Digest
}

func sameBaseline(a, b Baseline) bool {
	return a.Found == b.Found && a.Seq == b.Seq && a.EverPublished == b.EverPublished &&
		sameCatalog(a.Catalog, b.Catalog)
}
