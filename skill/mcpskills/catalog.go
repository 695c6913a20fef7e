package mcpskills

import (
	"encoding/json"
	"slices"
	"strings"
	"unsafe"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// rawEntry is an entry as a server sent it, with where it came from for
// diagnostics.
type rawEntry struct {
	raw json.RawMessage
	// from names the entry in diagnostics: "skills/list entry 3" or
	// "skills/get skill://x/SKILL.md".
	from string
}

// catalog is the validated listing of a server that declares the MCP
// Skills extension: the entries of skills/list, and of skills/get for the
// URIs the host configured. It is immutable and shared by every session
// that listed the same entries.
type catalog struct {
	// offered are the entries listed to sessions, in the server's order.
	offered []*remoteEntry
	// byQualified and byName index offered entries; several entries may
	// share a name, never a qualified name.
	byQualified map[string]*remoteEntry
	byName      map[string][]*remoteEntry
	// declined are well-formed entries not offered (over the limits,
	// dynamic), indexed the same way, so that loading one says why.
	declinedQualified map[string]*remoteEntry
	declinedName      map[string][]*remoteEntry
	diagnostics       []string
	// sum identifies the raw entries the catalog was built from, so that a
	// listing that did not change shares the catalog already built.
	sum [32]byte
	// cost estimates the bytes the catalog keeps alive (estimate).
	cost int
}

// mapSlot estimates what a map keeps per key besides the key's bytes.
const mapSlot = 48

// estimate returns the bytes the catalog keeps alive: its entries, their
// places in its maps, and its diagnostics.
func (c *catalog) estimate() int {
	n := int(unsafe.Sizeof(*c))
	each := func(e *remoteEntry) int { return 8 + e.estimate() + 2*(mapSlot+len(e.Path)+len(e.Name)) }
	for _, e := range c.offered {
		n += each(e)
	}
	for _, e := range c.declinedQualified {
		n += each(e)
	}
	for _, d := range c.diagnostics {
		n += len(d) + 16
	}
	return n
}

// catalogInput is what a catalog is built from.
type catalogInput struct {
	label   string
	entries []rawEntry
	limits  entryLimits
	// notes are diagnostics of the listing itself (bounds applied, a
	// repeated cursor), kept ahead of the entries' own.
	notes []string
}

// buildCatalog validates entries. Invalid entries, entries whose skill
// path cannot form a qualified name, and repeats of a URI or qualified
// name already taken are not offered; each gets a diagnostic, as does
// every name that several offered entries share and every declined entry.
func buildCatalog(in catalogInput) *catalog {
	c := &catalog{
		byQualified:       make(map[string]*remoteEntry),
		byName:            make(map[string][]*remoteEntry),
		declinedQualified: make(map[string]*remoteEntry),
		declinedName:      make(map[string][]*remoteEntry),
	}
	d := skillsext.Diagnostics{MaxBytes: MaxErrorBytes}
	for _, n := range in.notes {
		d.Add("%s", n)
	}
	seenURI := make(map[string]bool, len(in.entries))
	for _, r := range in.entries {
		e, notes, why := decodeEntry(r.raw, in.limits)
		label := r.from + entryLabel(nameOf(e))
		switch {
		case why != "":
			d.Add("%s not offered: %s", label, why)
			continue
		case seenURI[e.URI]:
			d.Add("%s not offered: %s is listed twice", label, clip(e.URI, 128))
			continue
		}
		seenURI[e.URI] = true
		qn := skill.QualifiedName(in.label, e.Path)
		switch {
		case !skill.ValidQualifiedName(qn):
			d.Add("%s not offered: its skill path %q cannot form a qualified name (segments of letters, digits, '.', '_' and '-', at most %d of them, %d bytes in all)", label, clip(e.Path, 128), skill.MaxQualifiedSegments, skill.MaxQualifiedNameLength)
			continue
		case c.byQualified[qn] != nil || c.declinedQualified[qn] != nil:
			d.Add("%s not offered: its qualified name %q is taken by an earlier entry", label, qn)
			continue
		}
		for _, n := range notes {
			d.Add("%s: %s", label, n)
		}
		if e.declined != "" {
			d.Add("%s not offered: %s", label, e.declined)
			c.declinedQualified[qn] = e
			c.declinedName[e.Name] = append(c.declinedName[e.Name], e)
			continue
		}
		c.offered = append(c.offered, e)
		c.byQualified[qn] = e
		c.byName[e.Name] = append(c.byName[e.Name], e)
	}
	c.noteCollisions(in.label, &d)
	c.diagnostics = d.Lines()
	return c
}

func nameOf(e *remoteEntry) string {
	if e == nil {
		return ""
	}
	return e.Name
}

// noteCollisions adds a diagnostic for every name several offered entries
// share: the registry lists them under their qualified names.
func (c *catalog) noteCollisions(label string, d *skillsext.Diagnostics) {
	var names []string
	for name, es := range c.byName {
		if len(es) > 1 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		qns := make([]string, 0, len(c.byName[name]))
		for _, e := range c.byName[name] {
			qns = append(qns, skill.QualifiedName(label, e.Path))
		}
		d.Add("%d skills share the name %q; each stays loadable by its qualified name: %s", len(qns), name, strings.Join(qns, ", "))
	}
}

// resolve returns the offered entry name denotes: a qualified name
// (label:path) exactly, a plain name only when exactly one offered entry
// has it.
func (c *catalog) resolve(name string) (*remoteEntry, bool) {
	return lookupName(name, c.byQualified, c.byName)
}

// resolveDeclined is resolve over the declined entries.
func (c *catalog) resolveDeclined(name string) (*remoteEntry, bool) {
	return lookupName(name, c.declinedQualified, c.declinedName)
}

func lookupName(name string, byQualified map[string]*remoteEntry, byName map[string][]*remoteEntry) (*remoteEntry, bool) {
	if strings.IndexByte(name, skill.QualifierSeparator) >= 0 {
		e, ok := byQualified[name]
		return e, ok
	}
	if es := byName[name]; len(es) == 1 {
		return es[0], true
	}
	return nil, false
}

// summaries returns what List reports for the offered entries.
func (c *catalog) summaries(label string) []skill.Summary {
	out := make([]skill.Summary, 0, len(c.offered))
	for _, e := range c.offered {
		out = append(out, entrySummary(label, e))
	}
	return out
}

// entrySummary is a remote skill's summary: its plain name, the server's
// label as provider and origin, and its qualified name.
func entrySummary(label string, e *remoteEntry) skill.Summary {
	return skill.Summary{
		Name:          e.Name,
		Description:   e.Description,
		Invocation:    e.Invocation,
		Provider:      label,
		Origin:        label,
		QualifiedName: skill.QualifiedName(label, e.Path),
		ArgumentHint:  e.ArgumentHint,
		WhenToUse:     e.WhenToUse,
		Keywords:      e.Keywords,
		Paths:         e.Paths,
	}
}
