package skilllock

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Version is the format version this package reads and writes.
const Version = 1

// FileName is the lock file's conventional name, beside the project's
// skills.
const FileName = "skillcatalog-lock.json"

// Bounds on what Parse reads: a larger file, more entries or longer
// strings are refused with an error naming the bound.
const (
	MaxFileBytes   = 16 << 20
	MaxEntries     = 100_000
	MaxNameBytes   = 1024
	MaxOriginBytes = 256
)

// Kind says where a locked skill comes from; it decides what its digest
// is a digest of (see the package documentation).
type Kind string

// The kinds of Entry.Kind.
const (
	// KindLocal is a skill on disk (or registered by the host): its
	// digest is TreeDigest of its directory.
	KindLocal Kind = "local"
	// KindMCP is a skill of an MCP server: ManifestDigest of its entry's
	// files when the server declares the MCP Skills extension, otherwise
	// TreeDigest of its SKILL.md alone.
	KindMCP Kind = "mcp"
	// KindWebsite is a skill of a website's discovery index: the
	// artifact's SHA-256 the index publishes (v0.2.0), otherwise
	// TreeDigest of its SKILL.md alone.
	KindWebsite Kind = "website"
)

// Entry is one locked skill.
type Entry struct {
	// Kind is where the skill comes from.
	Kind Kind `json:"kind"`
	// Origin is the label the host gives the remote source (an MCP
	// server's or a website's); empty for KindLocal.
	Origin string `json:"origin,omitempty"`
	// Name is the skill's plain name.
	Name string `json:"name"`
	// Digest is "sha256:" and 64 lower-case hexadecimal digits.
	Digest string `json:"digest"`
	// Order, for a KindLocal entry, is OrderSkillsCLI when Digest is the
	// skills CLI's computedHash (SkillsCLITreeDigest), and empty for
	// TreeDigest.
	Order string `json:"order,omitempty"`
}

// OrderSkillsCLI is Entry.Order of a digest taken from a skills-lock.json.
const OrderSkillsCLI = "skills-cli"

// Key identifies the skill an entry locks: its kind, origin and name.
type Key struct {
	Kind   Kind
	Origin string
	Name   string
}

// Key returns e's key.
func (e Entry) Key() Key { return Key{e.Kind, e.Origin, e.Name} }

// Lock is a lock file: entries sorted by kind, origin and name, one per
// key.
type Lock struct {
	Entries []Entry
}

// New returns a lock of entries, sorted. It fails on an invalid entry or
// two entries of one key.
func New(entries []Entry) (*Lock, error) {
	l := &Lock{Entries: slices.Clone(entries)}
	slices.SortFunc(l.Entries, compareEntries)
	for i := range l.Entries {
		if err := l.Entries[i].check(); err != nil {
			return nil, fmt.Errorf("skilllock: entry %q: %w", l.Entries[i].Name, err)
		}
		if i > 0 && l.Entries[i-1].Key() == l.Entries[i].Key() {
			return nil, fmt.Errorf("skilllock: skill %q of %s %q is locked twice", l.Entries[i].Name, l.Entries[i].Kind, l.Entries[i].Origin)
		}
	}
	return l, nil
}

// Lookup returns the entry of k.
func (l *Lock) Lookup(k Key) (Entry, bool) {
	if l == nil {
		return Entry{}, false
	}
	i, ok := slices.BinarySearchFunc(l.Entries, k, func(e Entry, k Key) int { return compareKeys(e.Key(), k) })
	if !ok {
		return Entry{}, false
	}
	return l.Entries[i], true
}

func compareEntries(a, b Entry) int { return compareKeys(a.Key(), b.Key()) }

func compareKeys(a, b Key) int {
	return cmp.Or(strings.Compare(string(a.Kind), string(b.Kind)), strings.Compare(a.Origin, b.Origin), strings.Compare(a.Name, b.Name))
}

// check validates one entry.
func (e Entry) check() error {
	switch e.Kind {
	case KindLocal:
		if e.Origin != "" {
			return fmt.Errorf("a local skill has origin %q; want none", clip(e.Origin))
		}
	case KindMCP, KindWebsite:
		if err := checkText("origin", e.Origin, MaxOriginBytes); err != nil {
			return err
		}
	default:
		return fmt.Errorf("kind %q is not local, mcp or website", clip(string(e.Kind)))
	}
	if e.Order != "" && (e.Order != OrderSkillsCLI || e.Kind != KindLocal) {
		return fmt.Errorf("order %q is not empty or, for a local skill, %q", clip(e.Order), OrderSkillsCLI)
	}
	if err := checkText("name", e.Name, MaxNameBytes); err != nil {
		return err
	}
	if !ValidDigest(e.Digest) {
		return fmt.Errorf("digest %q is not \"sha256:\" and 64 lower-case hexadecimal digits", clip(e.Digest))
	}
	return nil
}

// checkText requires a non-empty string of valid UTF-8 without control
// characters, at most max bytes.
func checkText(what, s string, max int) error {
	switch {
	case s == "":
		return fmt.Errorf("%s is empty", what)
	case len(s) > max:
		return fmt.Errorf("%s is %d bytes; at most %d", what, len(s), max)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s %q is not UTF-8", what, clip(s))
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("%s %q holds a control character", what, clip(s))
	}
	return nil
}

// ValidDigest reports whether d is "sha256:" and 64 lower-case
// hexadecimal digits.
func ValidDigest(d string) bool {
	hex, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	return strings.ToValidUTF8(s[:80], "") + "…"
}

// file is the lock file's JSON form.
type file struct {
	Version int     `json:"version"`
	Skills  []Entry `json:"skills"`
}

// Encode returns the lock file: JSON, two-space indented, members in a
// fixed order, entries sorted, HTML characters unescaped, ending in a
// newline. Equal locks encode to equal bytes.
func (l *Lock) Encode() []byte {
	f := file{Version: Version, Skills: l.Entries}
	if f.Skills == nil {
		f.Skills = []Entry{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		panic(err) // strings and ints always encode
	}
	return b.Bytes()
}

// Parse reads a lock file. It fails, with an error naming the entry and
// field, on a file over MaxFileBytes, anything but one JSON object, a
// version other than Version, more than MaxEntries skills, an invalid
// entry or a key locked twice. Unknown members are ignored, so a later
// version may add some. The entries need not be sorted.
func Parse(data []byte) (*Lock, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("skilllock: the lock file is %d bytes; at most %d", len(data), MaxFileBytes)
	}
	var f struct {
		Version *int              `json:"version"`
		Skills  []json.RawMessage `json:"skills"`
	}
	if err := strictUnmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("skilllock: %w", err)
	}
	switch {
	case f.Version == nil:
		return nil, fmt.Errorf("skilllock: no version; want %d", Version)
	case *f.Version != Version:
		return nil, fmt.Errorf("skilllock: version %d; this reader knows %d", *f.Version, Version)
	case f.Skills == nil:
		return nil, fmt.Errorf("skilllock: no skills array")
	case len(f.Skills) > MaxEntries:
		return nil, fmt.Errorf("skilllock: %d skills; at most %d", len(f.Skills), MaxEntries)
	}
	entries := make([]Entry, len(f.Skills))
	for i, raw := range f.Skills {
		if err := strictUnmarshal(raw, &entries[i]); err != nil {
			return nil, fmt.Errorf("skilllock: skills[%d]: %w", i, err)
		}
	}
	return New(entries)
}

// strictUnmarshal decodes one JSON value into v, refusing trailing data
// and a null where an object is wanted.
func strictUnmarshal(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return fmt.Errorf("data after the JSON object")
	}
	return nil
}
