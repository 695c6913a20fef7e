package events

import (
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
)

// MaxActivated bounds the skills a catalog record names as activated by
// the files a session touched. A writer records at most this many (the
// first in name order); a record that names more is unreadable.
const MaxActivated = 1024

// maxActivatedBytes bounds the "activated" member a reader decodes.
const maxActivatedBytes = 256 << 10

// ParseActivated reads the raw JSON value of a catalog record's
// "activated" member: an array of at most MaxActivated non-empty strings
// of valid UTF-8, at most 256 KiB. It returns them sorted without repeats
// (nil for an empty array), and false for anything else.
//
// The member makes activation durable: a skill scoped by `paths` (see
// skill.MatchPaths) is listed only once a file the session touched
// activated it, and every catalog the plugin publishes names the skills
// activated so far, so a resumed session, another replica and a
// compaction that hid the catalog all read the same set from the newest
// record.
func ParseActivated(raw []byte) ([]string, bool) {
	if len(raw) > maxActivatedBytes {
		return nil, false
	}
	var names []string
	if json.Unmarshal(raw, &names) != nil || names == nil || len(names) > MaxActivated {
		return nil, false
	}
	for _, n := range names {
		if n == "" || !utf8.ValidString(n) {
			return nil, false
		}
	}
	if len(names) == 0 {
		return nil, true
	}
	slices.Sort(names)
	return slices.Compact(names), true
}

// WithActivated returns the catalog record source with an "activated"
// member naming activated (sorted without repeats, at most MaxActivated)
// after its other members; source itself when activated is empty. source
// is a record EncodeCatalog or AssembleCatalogSeq wrote.
func WithActivated(source []byte, activated []string) []byte {
	if len(activated) == 0 || len(source) == 0 || source[len(source)-1] != '}' {
		return source
	}
	n := len(source) + len(`,"activated":[]`)
	for _, a := range activated {
		n += len(a) + 3
	}
	b := make([]byte, 0, n)
	b = append(b, source[:len(source)-1]...)
	b = append(b, `,"activated":[`...)
	for i, a := range activated {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, a)
	}
	return append(b, "]}"...)
}
