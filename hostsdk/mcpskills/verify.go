package mcpskills

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
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

// maxFrontmatterDepth bounds the nesting of a SKILL.md frontmatter the
// provider compares with an entry.
const maxFrontmatterDepth = 32

// errFrontmatterUnreadable is a SKILL.md without YAML frontmatter the
// provider can compare: none, not a mapping, anchors and aliases, duplicate
// keys, or deeper than maxFrontmatterDepth.
var errFrontmatterUnreadable = errors.New("no readable YAML frontmatter")

// frontmatterFields parses the YAML frontmatter of a SKILL.md (fenced as
// stripFrontmatter finds it) into JSON values: strings, float64 numbers,
// booleans, nil, []any and map[string]any. Scalars are typed by the YAML
// core schema; a timestamp or any other tagged scalar stays the string it
// is written as, as a JSON rendering of the frontmatter has it.
func frontmatterFields(doc string) (map[string]any, error) {
	yamlText, ok := frontmatterBlock(doc)
	if !ok {
		return nil, errFrontmatterUnreadable
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(yamlText), &root); err != nil {
		return nil, errFrontmatterUnreadable
	}
	if root.Kind == 0 {
		return map[string]any{}, nil // an empty block
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, errFrontmatterUnreadable
	}
	v, err := yamlValue(root.Content[0], 0)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// frontmatterBlock returns the YAML between the fences of doc.
func frontmatterBlock(doc string) (string, bool) {
	doc = strings.TrimPrefix(doc, "\uFEFF")
	first, rest, ok := strings.Cut(doc, "\n")
	if !ok || !isFence(first) {
		return "", false
	}
	var b strings.Builder
	for rest != "" {
		line, next, _ := strings.Cut(rest, "\n")
		if isFence(line) {
			return b.String(), true
		}
		b.WriteString(line)
		b.WriteByte('\n')
		rest = next
	}
	return "", false
}

func yamlValue(n *yaml.Node, depth int) (any, error) {
	if depth > maxFrontmatterDepth {
		return nil, errFrontmatterUnreadable
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return yamlScalar(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, errFrontmatterUnreadable
			}
			if _, dup := out[k.Value]; dup {
				return nil, errFrontmatterUnreadable
			}
			v, err := yamlValue(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	}
	// Aliases (and anything else): a frontmatter rendered as JSON has none.
	return nil, errFrontmatterUnreadable
}

func yamlScalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, errFrontmatterUnreadable
		}
		return b, nil
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, errFrontmatterUnreadable
		}
		return f, nil
	}
	return n.Value, nil
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

// sameValue compares a JSON value with a YAML one.
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
		bf, ok := b.(float64)
		af, err := strconv.ParseFloat(string(a), 64)
		return ok && err == nil && af == bf
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
