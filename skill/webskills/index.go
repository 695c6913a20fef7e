package webskills

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Index versions.
const (
	versionV2     = "0.2.0"
	versionLegacy = "0.1.0"
)

// entry is one validated skill of an index.
type entry struct {
	Name        string
	Description string
	// Type is skillsext.TypeSkillMD or skillsext.TypeArchive; a v0.1.0
	// entry is TypeSkillMD with Files.
	Type string
	// URL is the artifact's absolute URL (v0.2.0), or the skill
	// directory's, with a trailing slash (v0.1.0).
	URL *url.URL
	// Digest is the artifact's SHA-256 (v0.2.0 only).
	Digest    [sha256.Size]byte
	HasDigest bool
	// Files are a v0.1.0 skill's files, relative to URL, SKILL.md among
	// them.
	Files []string
}

// index is a validated discovery index.
type index struct {
	Version     string
	Entries     []*entry
	byName      map[string]*entry
	Diagnostics []string
	// gen numbers the provider's reads of the index that returned one (a
	// 304 keeps the index, and its number): an undigested file fetched
	// under an older index is asked for again.
	gen uint64
}

func (ix *index) lookup(name string) *entry { return ix.byName[name] }

// indexLimits are the bounds applied while parsing.
type indexLimits struct {
	MaxEntries          int
	MaxDescriptionBytes int
	RequireDigests      bool
}

// ErrUnknownSchema is matched by the error of an index whose $schema is
// not one this provider knows: the RFC says not to process it.
var ErrUnknownSchema = errors.New("webskills: unrecognized $schema")

// parseIndex validates an index read from base (its URL after redirects,
// against which relative URLs resolve). A document that is not a JSON
// object, has no "skills" array, or has a $schema other than v0.2.0's is
// an error; so is a v0.1.0 index (no $schema) under RequireDigests. Entries
// that break a rule are dropped with a diagnostic; unknown members are
// ignored.
func parseIndex(data []byte, base *url.URL, lim indexLimits) (*index, error) {
	doc, items, err := skillsext.IndexItems(data)
	if err != nil {
		return nil, err
	}
	ix := &index{Version: versionLegacy, byName: make(map[string]*entry)}
	if raw, ok := doc["$schema"]; ok {
		var schema string
		if json.Unmarshal(raw, &schema) != nil || schema != skillsext.SchemaV2 {
			return nil, fmt.Errorf("%w %s: the index is not read", ErrUnknownSchema, skillsext.Clip(string(raw), 120))
		}
		ix.Version = versionV2
	} else if lim.RequireDigests {
		return nil, errors.New("the index is v0.1.0 (no $schema), which publishes no digests, and RequireDigests is set: nothing is listed")
	}
	d := skillsext.Diagnostics{MaxBytes: MaxErrorBytes}
	overflow := 0
	for i, item := range items {
		var e *entry
		var why string
		if ix.Version == versionV2 {
			e, why = parseEntryV2(item, base, lim.MaxDescriptionBytes)
		} else {
			e, why = parseEntryLegacy(item, base, lim.MaxDescriptionBytes)
		}
		switch {
		case why != "":
			d.Add("index entry %d%s dropped: %s", i, entryLabel(e), why)
			continue
		case ix.byName[e.Name] != nil:
			d.Add("index entry %d%s dropped: duplicate name", i, entryLabel(e))
			continue
		case len(ix.Entries) >= lim.MaxEntries:
			overflow++
			continue
		}
		ix.byName[e.Name] = e
		ix.Entries = append(ix.Entries, e)
	}
	if overflow > 0 {
		d.Add("index lists more than %d skills: %d dropped", lim.MaxEntries, overflow)
	}
	ix.Diagnostics = d.Lines()
	return ix, nil
}

// entryLabel names an entry in a diagnostic, once its name is known.
func entryLabel(e *entry) string {
	if e == nil || e.Name == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", e.Name)
}

// commonFields reads the name and description every version has.
func commonFields(obj map[string]json.RawMessage, maxDesc int) (*entry, string) {
	name, why := skillsext.StringMember(obj, "name")
	if why != "" {
		return nil, why
	}
	if !skill.ValidBoundedName(name) {
		return nil, fmt.Sprintf("invalid name %q (want lower-case letters, digits and single hyphens, at most %d bytes)", skillsext.Clip(name, skill.MaxNameLength), skill.MaxNameLength)
	}
	e := &entry{Name: name}
	desc, why := skillsext.StringMember(obj, "description")
	if why != "" {
		return e, why
	}
	// Bound the work before normalizing an arbitrarily long description.
	desc = skillsext.TruncateUTF8(desc, 4*maxDesc+1024)
	if e.Description = skillsext.NormalizeDescription(desc); e.Description == "" {
		return e, "empty description"
	}
	e.Description = skillsext.TruncateUTF8(e.Description, maxDesc)
	return e, ""
}

// parseEntryV2 reads {name, type, description, url, digest}.
func parseEntryV2(item json.RawMessage, base *url.URL, maxDesc int) (*entry, string) {
	obj, why := skillsext.EntryObject(item)
	if why != "" {
		return nil, why
	}
	e, why := commonFields(obj, maxDesc)
	if why != "" {
		return e, why
	}
	if e.Type, why = skillsext.StringMember(obj, "type"); why != "" {
		return e, why
	}
	if e.Type != skillsext.TypeSkillMD && e.Type != skillsext.TypeArchive {
		return e, fmt.Sprintf("unsupported type %q", skillsext.Clip(e.Type, 32))
	}
	digest, why := skillsext.StringMember(obj, "digest")
	if why != "" {
		return e, why
	}
	if e.Digest, e.HasDigest = skillsext.ParseDigest(digest); !e.HasDigest {
		return e, fmt.Sprintf("digest %q is not sha256: and 64 lower-case hexadecimal digits", skillsext.Clip(digest, 80))
	}
	raw, why := skillsext.StringMember(obj, "url")
	if why != "" {
		return e, why
	}
	if e.URL, why = resolve(base, raw); why != "" {
		return e, why
	}
	return e, ""
}

// resolve resolves an entry's url against the index URL (RFC 3986): it
// must be an http or https URL without userinfo once resolved; the
// fragment is dropped.
func resolve(base *url.URL, raw string) (*url.URL, string) {
	ref, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil, fmt.Sprintf("url %q is not a URL", skillsext.Clip(raw, 128))
	}
	u := base.ResolveReference(ref)
	u.Fragment, u.RawFragment = "", ""
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return nil, fmt.Sprintf("url %q is not an http or https URL without userinfo", skillsext.Clip(raw, 128))
	}
	return u, ""
}

// parseEntryLegacy reads a v0.1.0 {name, description, files}: the skill's
// directory is <index directory>/<name>/, and files are paths relative to
// it, SKILL.md among them.
func parseEntryLegacy(item json.RawMessage, base *url.URL, maxDesc int) (*entry, string) {
	obj, why := skillsext.EntryObject(item)
	if why != "" {
		return nil, why
	}
	e, why := commonFields(obj, maxDesc)
	if why != "" {
		return e, why
	}
	var files []string
	if json.Unmarshal(obj["files"], &files) != nil || len(files) == 0 {
		return e, `"files" is not a non-empty array of strings`
	}
	if len(files) > MaxArchiveFiles {
		return e, fmt.Sprintf("it lists %d files, more than %d", len(files), MaxArchiveFiles)
	}
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		if why := legacyPathProblem(f); why != "" {
			return e, why
		}
		if seen[f] {
			return e, fmt.Sprintf("file %q is listed twice", f)
		}
		seen[f] = true
	}
	if !seen[skillsext.SkillFileName] {
		return e, "its files do not include SKILL.md"
	}
	e.Type, e.Files = skillsext.TypeSkillMD, files
	e.URL = base.ResolveReference(&url.URL{Path: e.Name + "/"})
	return e, ""
}

// legacyPathProblem checks a v0.1.0 file path as the RFC requires:
// relative, "/"-separated, no "..", "." or empty segment, printable ASCII
// without \ ? # [ ].
func legacyPathProblem(p string) string {
	if p == "" || strings.HasPrefix(p, "/") {
		return fmt.Sprintf("file %q is not a relative path", skillsext.Clip(p, 128))
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c > 0x7e || strings.IndexByte(`\?#[]`, c) >= 0 {
			return fmt.Sprintf("file %q holds a character the RFC does not allow", skillsext.Clip(p, 128))
		}
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Sprintf("file %q has an empty, . or .. segment", skillsext.Clip(p, 128))
		}
	}
	return ""
}
