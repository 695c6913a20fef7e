package events

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
)

// A small purpose-built JSON reader for catalog records. encoding/json is not used because it
// matches struct fields case-insensitively (a "Name" member would fill Name) and because
// decoding into generic values costs an allocation per token. The reader accepts exactly the
// documents that json.Valid accepts, decodes strings exactly as encoding/json does, and keeps
// only what a catalog record needs; the tests check both claims against encoding/json.

// span locates one entry's decoded name, description and origin in parser.arena, and
// holds its origin kind.
type span struct {
	nameStart, nameEnd, descStart, descEnd, originStart, originEnd int
	digestStart, digestEnd                                         int
	originKind                                                     digest.OriginKind
}

// record is what the reader learned about the top-level object; each flag reflects the last
// occurrence of its member, as with JSON.parse.
type record struct {
	kind    bool // "kind" is the string "skill-catalog"
	form    bool // "form" is the string "catalog"
	update  bool // "update" is true
	entries bool // "entries" is an array of well-formed entries (only when wantEntries)
	omitted int  // "omitted" is a plain non-negative integer: this one, else 0
	// activated is the raw JSON of the last "activated" member, nil when
	// there is none (see ParseCatalog).
	activated []byte
}

type parser struct {
	src   []byte
	pos   int
	depth int
	// wantEntries makes the reader decode "entries" into arena and spans; otherwise it only
	// validates them.
	wantEntries bool
	// arena holds decoded entry strings, and transiently the decoded form of escaped keys.
	arena []byte
	spans []span
}

func (p *parser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end of input (0 never starts a valid token).
func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// parseRecord reads the whole source as one JSON object with optional surrounding whitespace.
func (p *parser) parseRecord() (record, bool) {
	if p.wantEntries {
		p.arena = make([]byte, 0, len(p.src))
	}
	p.ws()
	if p.peek() != '{' {
		return record{}, false
	}
	rec, ok := p.topObject()
	if !ok {
		return record{}, false
	}
	p.ws()
	return rec, p.pos == len(p.src)
}

// enter and leave track nesting depth; enter consumes the opening bracket.
func (p *parser) enter() bool {
	p.pos++
	p.depth++
	return p.depth <= jsonstr.MaxDepth
}

func (p *parser) leave() {
	p.pos++
	p.depth--
}

// members walks the members of the object at p.pos. For each member it leaves p.pos at the
// value and calls member with the decoded key, which is valid only during the call; member
// must consume the value. It reports whether the object was well-formed.
func (p *parser) members(member func(key []byte) bool) bool {
	if !p.enter() {
		return false
	}
	p.ws()
	if p.peek() == '}' {
		p.leave()
		return true
	}
	for {
		if p.peek() != '"' {
			return false
		}
		key, ok := p.key()
		if !ok {
			return false
		}
		p.ws()
		if p.peek() != ':' {
			return false
		}
		p.pos++
		p.ws()
		if !member(key) {
			return false
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.pos++
			p.ws()
		case '}':
			p.leave()
			return true
		default:
			return false
		}
	}
}

// elements walks the elements of the array at p.pos, calling element with p.pos at each one;
// element must consume it.
func (p *parser) elements(element func() bool) bool {
	if !p.enter() {
		return false
	}
	p.ws()
	if p.peek() == ']' {
		p.leave()
		return true
	}
	for {
		if !element() {
			return false
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.pos++
			p.ws()
		case ']':
			p.leave()
			return true
		default:
			return false
		}
	}
}

func (p *parser) topObject() (record, bool) {
	var rec record
	ok := p.members(func(key []byte) bool {
		switch string(key) {
		case "kind":
			eq, ok := p.stringEquals(SourceKind)
			rec.kind = eq
			return ok
		case "form":
			eq, ok := p.stringEquals(FormCatalog)
			rec.form = eq
			return ok
		case "update":
			rec.update = p.peek() == 't'
			return p.skipValue()
		case "omitted":
			start := p.pos
			ok := p.skipValue()
			rec.omitted = plainCount(p.src[start:p.pos])
			return ok
		case "activated":
			start := p.pos
			ok := p.skipValue()
			rec.activated = p.src[start:p.pos]
			return ok
		case "entries":
			if !p.wantEntries {
				return p.skipValue()
			}
			readable, ok := p.entries()
			rec.entries = readable
			return ok
		default:
			return p.skipValue()
		}
	})
	return rec, ok
}

// entries reads an "entries" value. A later "entries" member replaces an earlier one, so the
// decoded strings start afresh.
func (p *parser) entries() (readable, ok bool) {
	p.arena, p.spans = p.arena[:0], p.spans[:0]
	if p.peek() != '[' {
		return false, p.skipValue()
	}
	readable = true
	ok = p.elements(func() bool {
		if p.peek() != '{' {
			readable = false
			return p.skipValue()
		}
		good, ok := p.entry()
		readable = readable && good
		return ok
	})
	return readable, ok
}

// entry reads one element object; good means it has a non-empty string name, a string
// description, an origin that is absent or a string, and an origin kind that is absent or
// the string "website" beside a non-empty origin.
func (p *parser) entry() (good, ok bool) {
	var s span
	var hasName, hasDesc bool
	badOrigin, badKind := false, false
	ok = p.members(func(key []byte) bool {
		switch string(key) {
		case "name":
			if hasName = p.peek() == '"'; hasName {
				s.nameStart = len(p.arena)
				ok := p.decodeString()
				s.nameEnd = len(p.arena)
				return ok
			}
		case "description":
			if hasDesc = p.peek() == '"'; hasDesc {
				s.descStart = len(p.arena)
				ok := p.decodeString()
				s.descEnd = len(p.arena)
				return ok
			}
		case "origin":
			if badOrigin = p.peek() != '"'; !badOrigin {
				s.originStart = len(p.arena)
				ok := p.decodeString()
				s.originEnd = len(p.arena)
				return ok
			}
		case "content_digest":
			// The content digest the entry was published with: a record
			// only, so anything but a string of its form reads as absent
			// (a repeated member counts at its last occurrence).
			s.digestStart, s.digestEnd = 0, 0
			if p.peek() == '"' {
				s.digestStart = len(p.arena)
				ok := p.decodeString()
				s.digestEnd = len(p.arena)
				if !validContentDigest(p.arena[s.digestStart:s.digestEnd]) {
					p.arena = p.arena[:s.digestStart]
					s.digestStart, s.digestEnd = 0, 0
				}
				return ok
			}
		case "origin_kind":
			// The one kind a record names: an MCP server's entry has no
			// origin_kind. Any other value is a kind this reader does not
			// know, and an entry it cannot show truthfully.
			website, ok := p.stringEquals(originKindWebsite)
			badKind, s.originKind = !website, digest.OriginWebsite
			return ok
		}
		return p.skipValue()
	})
	// A kind without an origin describes nothing: no writer records one.
	badKind = badKind || (s.originKind != digest.OriginMCPServer && s.originEnd == s.originStart)
	good = hasName && s.nameEnd > s.nameStart && hasDesc && !badOrigin && !badKind
	if ok && good {
		p.spans = append(p.spans, s)
	}
	return good, ok
}

// key decodes the member name at p.pos. Unescaped names alias the source; escaped ones are
// decoded into arena's spare capacity, which the next arena append overwrites.
func (p *parser) key() ([]byte, bool) {
	start := p.pos + 1
	escaped, ok := p.skipString()
	if !ok {
		return nil, false
	}
	if !escaped {
		return p.src[start : p.pos-1], true
	}
	end := p.pos
	mark := len(p.arena)
	p.pos = start - 1
	p.decodeString()
	p.pos = end
	key := p.arena[mark:]
	p.arena = p.arena[:mark]
	return key, true
}

// stringEquals consumes the value at p.pos and reports whether it is the string want.
func (p *parser) stringEquals(want string) (eq, ok bool) {
	if p.peek() != '"' {
		return false, p.skipValue()
	}
	v, ok := p.key()
	return ok && string(v) == want, ok
}

// skipValue consumes the value at p.pos, checking it as json.Valid would; a value
// that is not valid leaves p.pos where it was.
func (p *parser) skipValue() bool {
	end, ok := jsonstr.SkipValue(p.src, p.pos, p.depth)
	if ok {
		p.pos = end
	}
	return ok
}

// skipString validates the string at p.pos (its opening quote) and consumes it, reporting
// whether it contains escapes.
func (p *parser) skipString() (escaped, ok bool) {
	end, escaped, ok := jsonstr.SkipString(p.src, p.pos)
	if ok {
		p.pos = end
	}
	return escaped, ok
}

// decodeString consumes the string at p.pos and appends its value to arena, coercing it to
// UTF-8 exactly as encoding/json does: an invalid byte becomes U+FFFD, and a \u escape of a
// surrogate that does not start a valid pair becomes U+FFFD.
func (p *parser) decodeString() bool {
	src, b := p.src, p.arena
	i := p.pos + 1
	start := i
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			p.arena = append(b, src[start:i]...)
			p.pos = i + 1
			return true
		case c == '\\':
			b = append(b, src[start:i]...)
			if jsonstr.EscapeLen(src, i) == 0 {
				p.arena = b
				return false
			}
			switch e := src[i+1]; e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, _ := jsonstr.Hex4(src, i+2)
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+3 < len(src) && src[i+2] == '\\' && src[i+3] == 'u' {
						if v, ok := jsonstr.Hex4(src, i+4); ok {
							r2 = v
						}
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default: // '"', '\\', '/'
				b = append(b, e)
			}
			i += 2
			start = i
		case c < 0x20:
			p.arena = b
			return false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, src[start:i]...)
				b = utf8.AppendRune(b, utf8.RuneError)
				start = i + 1
			}
			i += size
		}
	}
	p.arena = b
	return false
}

// maxOmitted bounds the "omitted" count a record may carry; larger values
// read as 0, as anything but a plain integer does.
const maxOmitted = 1<<31 - 1

// plainCount returns the value of v when it is a JSON integer written with
// digits only (no sign, fraction or exponent) up to maxOmitted, else 0.
func plainCount(v []byte) int {
	if len(v) == 0 || len(v) > 10 || (len(v) > 1 && v[0] == '0') {
		return 0
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	if n > maxOmitted {
		return 0
	}
	return n
}

// validContentDigest reports whether d is "sha256:" and 64 lower-case
// hexadecimal digits, the form of a catalog entry's content digest.
func validContentDigest(d []byte) bool {
	const prefix = "sha256:"
	if len(d) != len(prefix)+64 || string(d[:len(prefix)]) != prefix {
		return false
	}
	for _, c := range d[len(prefix):] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
