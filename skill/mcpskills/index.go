package mcpskills

import (
	"encoding/json"
	"fmt"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// SkillTypeMarkdown is the only index entry type this provider loads.
const SkillTypeMarkdown = skillsext.TypeSkillMD

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
var errMalformedIndex = skillsext.ErrMalformedIndex

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
	_, items, err := skillsext.IndexItems(data)
	if err != nil {
		return nil, err
	}

	ix := &index{byName: make(map[string]int)}
	dropped := 0
	diag := func(format string, args ...any) {
		if len(ix.Diagnostics) < skillsext.MaxDiagnostics {
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
	obj, why := skillsext.EntryObject(item)
	if why != "" {
		return indexEntry{}, why
	}
	str := func(key string) (string, string) { return skillsext.StringMember(obj, key) }
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

// normalizeDescription and truncateUTF8 are the shared description rules
// of remote skills (skillsext), so that an MCP server's skill and a
// website's are described alike.
func normalizeDescription(s string) string { return skillsext.NormalizeDescription(s) }

func truncateUTF8(s string, n int) string { return skillsext.TruncateUTF8(s, n) }
