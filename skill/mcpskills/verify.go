package mcpskills

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// digestOf returns the size and SHA-256 of a resource's raw bytes: the
// blob's, or the text's UTF-8 encoding. Text is hashed through a small
// buffer rather than converted whole, so that verifying a large text costs
// no copy of it.
func digestOf(c *Content) (int64, [32]byte) {
	if c.Blob != nil {
		return int64(len(c.Blob)), sha256.Sum256(c.Blob)
	}
	h := sha256.New()
	var buf [32 << 10]byte
	for s := c.Text; s != ""; {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return int64(len(c.Text)), sum
}

// contentMismatch is a read whose bytes are not those the entry describes.
type contentMismatch struct {
	// size is the read's size when it differs from the entry's, else -1
	// (then the digest differs).
	size int64
}

func (m *contentMismatch) Error() string {
	if m.size >= 0 {
		return fmt.Sprintf("%d bytes, not the size of its entry", m.size)
	}
	return "the digest of its entry does not match"
}

// checkContent compares a read with its manifest entry, size first (a size
// mismatch is a verification failure whether or not the digest is
// computed).
func checkContent(size int64, sum [32]byte, want *fileEntry) error {
	switch {
	case size != want.Size:
		return &contentMismatch{size: size}
	case sum != want.Digest:
		return &contentMismatch{size: -1}
	}
	return nil
}

// errFrontmatterUnreadable is a SKILL.md without YAML frontmatter the
// provider can compare: none, not a mapping, or YAML even a lenient reading
// cannot parse.
var errFrontmatterUnreadable = errors.New("no readable YAML frontmatter")

// frontmatterFields reads the YAML frontmatter of a SKILL.md as the JSON
// object an entry carries (skillsext.FrontmatterJSON, the reading serve-mcp
// writes its entries with: YAML 1.2 core types, the filesystem provider's
// lenient colon values), decoded with numbers as json.Number, so that it
// compares with an entry's frontmatter value by value. A frontmatter over
// MaxFrontmatterBytes is skillsext.ErrFrontmatterTooLarge; any other that
// cannot be read is errFrontmatterUnreadable.
func frontmatterFields(doc string) (map[string]any, error) {
	obj, _, err := skillsext.FrontmatterJSON([]byte(doc))
	if errors.Is(err, skillsext.ErrFrontmatterTooLarge) {
		return nil, err
	}
	if err != nil {
		return nil, errFrontmatterUnreadable
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		return nil, errFrontmatterUnreadable
	}
	return fields, nil
}

// frontmatterDiff compares an entry's frontmatter (decoded with numbers as
// json.Number) with a SKILL.md's, field by field, and returns the first
// field, in sorted order, that is missing on one side or differs; "" when
// they agree.
func frontmatterDiff(entry, fetched map[string]any) string {
	keys := make([]string, 0, len(entry)+len(fetched))
	for k := range entry {
		keys = append(keys, k)
	}
	for k := range fetched {
		if _, ok := entry[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		a, inEntry := entry[k]
		b, inFile := fetched[k]
		if !inEntry || !inFile || !sameValue(a, b) {
			return k
		}
	}
	return ""
}

// sameValue compares two JSON values decoded with json.Number.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		// Numbers compare by value: 17, 17.0 and 1.7e1 are one number.
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		af, errA := strconv.ParseFloat(string(a), 64)
		bf, errB := strconv.ParseFloat(string(bn), 64)
		return errA == nil && errB == nil && af == bf
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !sameValue(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}
