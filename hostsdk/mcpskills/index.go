package mcpskills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

// SkillTypeMarkdown is the only index entry type this provider loads.
const SkillTypeMarkdown = "skill-md"

// maxDiagnostics bounds the diagnostics kept from one index.
const maxDiagnostics = 20

// indexEntry is one validated, normalized skill of the index.
type indexEntry struct {
	Name        string
	Description string
	URL         string
}

// index is a validated discovery document.
type index struct {
	Entries []indexEntry
	byName  map[string]int
	// Diagnostics describe dropped entries and applied bounds.
	Diagnostics []string
}

func (ix *index) lookup(name string) (indexEntry, bool) {
	i, ok := ix.byName[name]
	if !ok {
		return indexEntry{}, false
	}
	return ix.Entries[i], true
}

// indexLimits are the bounds applied while parsing.
type indexLimits struct {
	MaxEntries          int
	MaxDescriptionBytes int
	MaxIndexBytes       int
}

// errMalformedIndex marks an index that cannot be used at all.
var errMalformedIndex = errors.New("malformed index")

// parseIndex validates the discovery document
//
//	{"$schema": "...", "skills": [{"name", "type", "description", "url", ...}]}
//
// A document that is too large, is not JSON, or has no "skills" array is
// malformed: the caller must treat its listing as incomplete. Entries that
// are not objects, lack a field, have a field of the wrong JSON type, have a
// type other than "skill-md", a name outside the skill name grammar, a url
// other than skill://<name>/SKILL.md, an empty description, or repeat an
// earlier name are dropped with a diagnostic. Unknown fields are ignored.
// Descriptions are whitespace-normalized and truncated at a character
// boundary to MaxDescriptionBytes; entries beyond MaxEntries are dropped.
func parseIndex(data []byte, lim indexLimits) (*index, error) {
	if len(data) > lim.MaxIndexBytes {
		return nil, fmt.Errorf("%w: %d bytes exceeds the bound of %d", errMalformedIndex, len(data), lim.MaxIndexBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: not a JSON object", errMalformedIndex)
	}
	raw, ok := doc["skills"]
	if !ok {
		return nil, fmt.Errorf("%w: no \"skills\" member", errMalformedIndex)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("%w: \"skills\" is not an array", errMalformedIndex)
	}

	ix := &index{byName: make(map[string]int)}
	dropped := 0
	diag := func(format string, args ...any) {
		if len(ix.Diagnostics) < maxDiagnostics {
			ix.Diagnostics = append(ix.Diagnostics, clip(fmt.Sprintf(format, args...), MaxErrorBytes))
		} else {
			dropped++
		}
	}
	overflow := 0
	for i, item := range items {
		e, why := parseEntry(item, lim.MaxDescriptionBytes)
		if why != "" {
			diag("index entry %d%s dropped: %s", i, entryLabel(e.Name), why)
			continue
		}
		if _, dup := ix.byName[e.Name]; dup {
			diag("index entry %d%s dropped: duplicate name", i, entryLabel(e.Name))
			continue
		}
		if len(ix.Entries) >= lim.MaxEntries {
			overflow++
			continue
		}
		if n := len(e.Description); n > lim.MaxDescriptionBytes {
			e.Description = truncateUTF8(e.Description, lim.MaxDescriptionBytes)
			diag("index entry %d%s: description truncated from %d to %d bytes", i, entryLabel(e.Name), n, len(e.Description))
		}
		ix.byName[e.Name] = len(ix.Entries)
		ix.Entries = append(ix.Entries, e)
	}
	if overflow > 0 {
		diag("index lists more than %d skills: %d dropped", lim.MaxEntries, overflow)
	}
	if dropped > 0 {
		ix.Diagnostics = append(ix.Diagnostics, fmt.Sprintf("%d more index diagnostics omitted", dropped))
	}
	return ix, nil
}

// entryLabel names an entry in a diagnostic, if its name is usable.
func entryLabel(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", clip(name, skill.MaxNameLength))
}

// parseEntry returns the entry, or a reason to drop it. The returned entry's
// Name is set whenever it could be read, for diagnostics.
func parseEntry(item json.RawMessage, maxDesc int) (indexEntry, string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(item, &obj); err != nil || obj == nil {
		return indexEntry{}, "not an object"
	}
	str := func(key string) (string, string) {
		raw, ok := obj[key]
		if !ok {
			return "", fmt.Sprintf("no %q", key)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return "", fmt.Sprintf("%q is not a string", key)
		}
		return s, ""
	}
	var e indexEntry
	name, why := str("name")
	if why != "" {
		return e, why
	}
	if !skill.ValidBoundedName(name) {
		return e, fmt.Sprintf("invalid name %q (want lower-case letters, digits and single hyphens, at most %d bytes)", clip(name, skill.MaxNameLength), skill.MaxNameLength)
	}
	e.Name = name
	typ, why := str("type")
	if why != "" {
		return e, why
	}
	if typ != SkillTypeMarkdown {
		return e, fmt.Sprintf("unsupported type %q", clip(typ, 32))
	}
	u, why := str("url")
	if why != "" {
		return e, why
	}
	if u != SkillURI(name) {
		return e, fmt.Sprintf("url %q is not %s", clip(u, 128), SkillURI(name))
	}
	e.URL = u
	desc, why := str("description")
	if why != "" {
		return e, why
	}
	// Bound the work before normalizing an arbitrarily long description.
	if len(desc) > 4*maxDesc+1024 {
		desc = truncateUTF8(desc, 4*maxDesc+1024)
	}
	e.Description = normalizeDescription(desc)
	if e.Description == "" {
		return e, "empty description"
	}
	return e, ""
}

// normalizeDescription turns every run of whitespace (including Unicode
// spaces, U+FEFF and control characters) into one space and trims the ends.
func normalizeDescription(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\uFEFF' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// truncateUTF8 cuts s to at most n bytes at a character boundary and trims
// trailing spaces.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], " ")
}
