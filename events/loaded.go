package events

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
)

// The kinds of the durable records that say which skills' instructions a
// message carries, besides invocationKind. Like it, they are foreign to the
// catalog rules: they neither count as a published catalog nor hide one.
//
//	{"kind":"skill-load","name":"pdf","digest":"0f3a…"}
//	{"kind":"skill-preload","skills":[{"name":"pdf","digest":"0f3a…"}]}
//	{"kind":"skill-reattach","skills":[{"name":"pdf","digest":"0f3a…"},{"name":"old","state":"gone"}]}
//	{"kind":"skill-invocation","name":"pdf","digest":"0f3a…"}
//
// A skill-load record is the source of the result of a successful `skill`
// tool call: the plugin returns it with the result and the host stores it
// as the source of the tool-result message. A skill-preload record is the
// source of the message that carries the skills a host preloads at a
// session's first step, and a skill-reattach record that of the message
// that attaches again, after a compaction, the skills whose instructions
// it hid. digest is ContentDigest of the instructions the message carries
// (absent in the invocation records of older versions: unknown).
const (
	LoadKind     = "skill-load"
	PreloadKind  = "skill-preload"
	ReattachKind = "skill-reattach"
)

// The states of a Loaded skill in a skill-reattach record. A skill
// without a state was attached as it was loaded.
const (
	// StateChanged: attached, but its instructions changed since the
	// message that carried them before; digest is the new content's.
	StateChanged = "changed"
	// StateGone: the skill no longer exists for the agent; nothing
	// attached.
	StateGone = "gone"
	// StateUnavailable: the skill could not be loaded again (its
	// provider failed); nothing attached.
	StateUnavailable = "unavailable"
	// StateLeftOut: no room was left within the total bound; nothing
	// attached.
	StateLeftOut = "left-out"
)

// Bounds on what a load record may hold to be read: larger sources, more
// skills or longer names make the record unreadable, and it is skipped.
const (
	maxLoadSource      = 64 << 10
	MaxLoadedPerRecord = 64
	maxLoadedName      = 1024
	maxDigestText      = 64
)

// Loaded is one skill a load record names.
type Loaded struct {
	// Name is the skill's name, as the catalog lists it.
	Name string `json:"name"`
	// Digest is ContentDigest of its instructions as the message carries
	// them; "" when unknown.
	Digest string `json:"digest,omitempty"`
	// State is "" (attached as loaded) or one of the State constants.
	State string `json:"state,omitempty"`
	// ContentDigest is the content digest of the version of the skill the
	// message carries, as a skill lock records it (skill.Summary's
	// ContentDigest: "sha256:" and 64 lower-case hexadecimal digits), where
	// the host computed one; "" when unknown. A member of another form
	// reads as unknown.
	ContentDigest string `json:"content_digest,omitempty"`
}

// Carried reports whether the message the record belongs to carries the
// skill's instructions: while the message is visible, the model sees them.
func (l Loaded) Carried() bool { return l.State == "" || l.State == StateChanged }

// ContentDigest is the digest of a skill's instructions (its content, before
// any rendering) that load records carry: the xxh3-128 of the text, in
// hexadecimal. Equal instructions have equal digests.
func ContentDigest(content string) string {
	return digest.Digest(xxh3.HashString128(content).Bytes()).String()
}

// EncodeLoad returns the durable source of a `skill` tool result that
// carries the instructions of name, whose ContentDigest is d.
func EncodeLoad(name, d string) []byte {
	return EncodeLoadVersion(name, d, "")
}

// EncodeLoadVersion is EncodeLoad naming, besides, the content digest of
// the version loaded (Loaded.ContentDigest); an empty one, or one of
// another form, is left out, and the record is EncodeLoad's.
func EncodeLoadVersion(name, d, contentDigest string) []byte {
	contentDigest = validOrEmpty(contentDigest)
	return encodeRecord(struct {
		Kind          string `json:"kind"`
		Name          string `json:"name"`
		Digest        string `json:"digest,omitempty"`
		ContentDigest string `json:"content_digest,omitempty"`
	}{LoadKind, name, d, contentDigest})
}

// EncodeSkills returns the durable source of a message of kind PreloadKind
// or ReattachKind naming skills, in the message's order.
func EncodeSkills(kind string, skills []Loaded) []byte {
	if skills == nil {
		skills = []Loaded{}
	}
	return encodeRecord(struct {
		Kind   string   `json:"kind"`
		Skills []Loaded `json:"skills"`
	}{kind, skills})
}

func encodeRecord(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings and slices of structs of strings always encode
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// mayBeLoad reports whether source may be a load record: one of the kinds
// occurs in it literally.
func mayBeLoad(source []byte) bool {
	return len(source) > 0 && len(source) <= maxLoadSource &&
		(bytes.Contains(source, []byte(`"`+LoadKind+`"`)) || bytes.Contains(source, []byte(`"`+invocationKind+`"`)) ||
			bytes.Contains(source, []byte(`"`+PreloadKind+`"`)) || bytes.Contains(source, []byte(`"`+ReattachKind+`"`)))
}

// ParseLoads returns the skills a load record names (skill-load,
// skill-invocation, skill-preload or skill-reattach) and its kind, and
// false for any other source or one that is malformed: not a JSON object
// of one of those kinds, a name that is missing, empty, not valid UTF-8 or
// too long, a digest or state that is not a string, more than
// MaxLoadedPerRecord skills, or a source larger than 64 KiB. A state this
// version does not know reads as StateGone: nothing attached.
func ParseLoads(source []byte) (kind string, skills []Loaded, ok bool) {
	if !mayBeLoad(source) {
		return "", nil, false
	}
	var v struct {
		Kind          string          `json:"kind"`
		Name          *string         `json:"name"`
		Digest        *string         `json:"digest"`
		ContentDigest any             `json:"content_digest"`
		Skills        json.RawMessage `json:"skills"`
	}
	if json.Unmarshal(source, &v) != nil {
		return "", nil, false
	}
	switch v.Kind {
	case LoadKind, invocationKind:
		if v.Name == nil {
			return "", nil, false
		}
		l := Loaded{Name: *v.Name}
		if v.Digest != nil {
			l.Digest = *v.Digest
		}
		if d, ok := v.ContentDigest.(string); ok && validContentDigest([]byte(d)) {
			l.ContentDigest = d
		}
		if !validLoaded(l) {
			return "", nil, false
		}
		return v.Kind, []Loaded{l}, true
	case PreloadKind, ReattachKind:
		if !unmarshalSkills(v.Skills, &skills) || skills == nil || len(skills) > MaxLoadedPerRecord {
			return "", nil, false
		}
		for i := range skills {
			if !validLoaded(skills[i]) {
				return "", nil, false
			}
			if !skills[i].Carried() && skills[i].State != StateLeftOut && skills[i].State != StateUnavailable {
				skills[i].State = StateGone
			}
		}
		return v.Kind, skills, true
	}
	return "", nil, false
}

// unmarshalSkills decodes the skills of a record into out, a content
// digest of another type or form read as unknown rather than making the
// record unreadable (it is a record only).
func unmarshalSkills(raw json.RawMessage, out *[]Loaded) bool {
	var skills []struct {
		Loaded
		ContentDigest any `json:"content_digest"`
	}
	if json.Unmarshal(raw, &skills) != nil {
		return false
	}
	if skills == nil {
		*out = nil
		return true
	}
	*out = make([]Loaded, len(skills))
	for i, s := range skills {
		(*out)[i] = s.Loaded
		if d, ok := s.ContentDigest.(string); ok && validContentDigest([]byte(d)) {
			(*out)[i].ContentDigest = d
		}
	}
	return true
}

// validLoaded reports whether a decoded skill is readable.
func validLoaded(l Loaded) bool {
	return l.Name != "" && len(l.Name) <= maxLoadedName && utf8.ValidString(l.Name) &&
		len(l.Digest) <= maxDigestText && utf8.ValidString(l.Digest) && utf8.ValidString(l.State)
}

// MaxPending bounds the skills a LoadScanner reports for re-attachment, and
// maxHandled the names it remembers as still carried by a visible message:
// a longer history re-attaches its most recently used skills only.
const (
	MaxPending = 32
	maxHandled = 4096
)

// Pending is a skill whose instructions a compaction hid: every message
// that carried them is hidden.
type Pending struct {
	Loaded
	// Seq is the newest hidden event that carried them.
	Seq uint64
	// Preloaded is true when only a host's preload carried it; false when
	// the model or the user loaded it (or a re-attachment carried it).
	Preloaded bool
}

// LoadScanner finds, in events fed newest first, the skills whose
// instructions a message carried that a compaction has since hidden, and
// no visible message carries: the skills to attach again, most recently
// used first. The zero value is ready to use.
type LoadScanner struct {
	visible map[string]bool
	pending []Pending
	seen    map[string]bool
}

// Feed considers the next older event.
func (s *LoadScanner) Feed(ev LogEvent) {
	kind, skills, ok := ParseLoads(ev.Source)
	if !ok {
		return
	}
	if s.visible == nil {
		s.visible, s.seen = make(map[string]bool), make(map[string]bool)
	}
	for _, l := range skills {
		switch {
		case ev.Visible:
			// A visible message carries it, or said what became of it.
			if len(s.visible) < maxHandled {
				s.visible[l.Name] = true
			}
		case s.seen[l.Name]:
			// A newer hidden record named it: that one decides.
		case !l.Carried():
			// Said gone or left out: what older records carried is
			// not attached again.
			s.seen[l.Name] = true
		case len(s.pending) < 4*MaxPending: // room for names a visible message names
			s.seen[l.Name] = true
			s.pending = append(s.pending, Pending{Loaded: Loaded{Name: l.Name, Digest: l.Digest}, Seq: ev.Seq, Preloaded: kind == PreloadKind})
		}
	}
}

// Pending returns the skills to attach again, most recently used first:
// those a hidden message carried and no visible message names.
func (s *LoadScanner) Pending() []Pending {
	var out []Pending
	for _, p := range s.pending {
		if !s.visible[p.Name] && len(out) < MaxPending {
			out = append(out, p)
		}
	}
	return out
}

// isPreload reports whether source is a readable skill-preload record.
func isPreload(source []byte) bool {
	if !bytes.Contains(source, []byte(`"`+PreloadKind+`"`)) {
		return false
	}
	kind, _, ok := ParseLoads(source)
	return ok && kind == PreloadKind
}

// IsAttachKind reports whether source is a readable skill-preload or
// skill-reattach record: the source of a message the plugin added to carry
// skills' instructions. A skill-load record is not one: the message it
// belongs to is the runtime's tool result.
func IsAttachKind(source []byte) bool {
	if !bytes.Contains(source, []byte(`"`+PreloadKind+`"`)) && !bytes.Contains(source, []byte(`"`+ReattachKind+`"`)) {
		return false
	}
	kind, _, ok := ParseLoads(source)
	return ok && (kind == PreloadKind || kind == ReattachKind)
}

// validOrEmpty is d when it has the form of a content digest, "" otherwise.
func validOrEmpty(d string) string {
	if !validContentDigest([]byte(d)) {
		return ""
	}
	return d
}
