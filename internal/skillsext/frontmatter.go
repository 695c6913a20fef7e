package skillsext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/lenientyaml"
	"go.yaml.in/yaml/v3"
)

// MaxFrontmatterBytes bounds the frontmatter block of a SKILL.md, delimiter
// lines included, as the filesystem provider bounds it.
const MaxFrontmatterBytes = 64 << 10

// ErrFrontmatterTooLarge is the error of a SKILL.md whose frontmatter is
// not closed within MaxFrontmatterBytes.
var ErrFrontmatterTooLarge = fmt.Errorf("frontmatter is not closed within %d bytes", MaxFrontmatterBytes)

// maxFrontmatterNodes bounds the values one frontmatter expands to, so that
// aliases of aliases cannot blow a 64 KiB block up without bound.
const maxFrontmatterNodes = 10000

// FrontmatterJSON returns the YAML frontmatter of a SKILL.md as the JSON
// object a Skill entry carries, so that the server that writes an entry and
// the client that checks a fetched SKILL.md against it read the file alike.
//
// The frontmatter is the text between a first line "---" and the next line
// "---" (trailing blanks and a CR allowed; a UTF-8 byte order mark before the
// first line and CRLF line ends are accepted), at most MaxFrontmatterBytes.
// Every top-level field becomes a member, in the order written. Values keep
// their YAML types under the YAML 1.2 core schema, as the official
// TypeScript SDK reads them: plain null, true/false, decimal, 0o octal and
// 0x hexadecimal integers and decimal floats are null, booleans and numbers;
// everything else, quoted and block scalars included, is a string (so
// 2024-01-01 and 1_000 are strings, and 017 is 17). Sequences are arrays and
// mappings objects; aliases are expanded. A value JSON cannot hold (.inf,
// .nan) or an explicit tag other than !!str is an error.
//
// Like the filesystem provider, it reads two things that strict YAML
// rejects, each with a warning: a top-level value left unquoted although it
// holds ": " (or ends with ":", or starts with "@", "`" or "%") is read as
// the plain string it spells, and a key written twice keeps its last value.
func FrontmatterJSON(skillMD []byte) (obj json.RawMessage, warnings []string, err error) {
	front, err := splitFrontmatter(skillMD)
	if err != nil {
		return nil, nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		fixed, keys := lenientyaml.QuoteColonValues(front)
		if len(keys) == 0 {
			return nil, nil, fmt.Errorf("frontmatter is not valid YAML: %s", lenientyaml.InFile(err))
		}
		doc = yaml.Node{}
		if err2 := yaml.Unmarshal([]byte(fixed), &doc); err2 != nil {
			return nil, nil, fmt.Errorf("frontmatter is not valid YAML (also after quoting %s): %s", strings.Join(keys, ", "), lenientyaml.InFile(err))
		}
		warnings = append(warnings, fmt.Sprintf("frontmatter is not valid YAML: the unquoted value of %s is read as a plain string (quote it; clients that read YAML strictly cannot verify this SKILL.md)", strings.Join(keys, ", ")))
	}
	c := converter{budget: maxFrontmatterNodes}
	var out bytes.Buffer
	switch {
	case doc.Kind == 0 || len(doc.Content) == 0:
		out.WriteString("{}")
	case doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null":
		out.WriteString("{}")
	case doc.Content[0].Kind != yaml.MappingNode:
		return nil, nil, errors.New("frontmatter is not a YAML mapping")
	default:
		if err := c.mapping(&out, doc.Content[0], "", &warnings); err != nil {
			return nil, nil, err
		}
	}
	return out.Bytes(), warnings, nil
}

// splitFrontmatter returns the text between the delimiter lines, with CRLF
// line ends turned into LF.
func splitFrontmatter(data []byte) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first, rest, _ := bytes.Cut(data, []byte{'\n'})
	if !isDelimiter(first) {
		return "", errors.New("no frontmatter: the file must start with a '---' line")
	}
	start := len(data) - len(rest)
	for off := start; off < len(data); {
		end, next := len(data), len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end, next = off+i, off+i+1
		}
		if next > MaxFrontmatterBytes {
			return "", ErrFrontmatterTooLarge
		}
		if isDelimiter(data[off:end]) {
			return strings.ReplaceAll(string(data[start:off]), "\r\n", "\n"), nil
		}
		off = next
	}
	return "", errors.New("frontmatter is not closed by a '---' line")
}

func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// converter writes YAML nodes as JSON, counting the nodes it writes.
type converter struct{ budget int }

func (c *converter) value(out *bytes.Buffer, n *yaml.Node, field string, warnings *[]string) error {
	c.budget--
	if c.budget < 0 {
		return fmt.Errorf("frontmatter expands to more than %d values", maxFrontmatterNodes)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return fmt.Errorf("frontmatter field %s is an unresolved alias", field)
		}
		return c.value(out, n.Alias, field, warnings)
	case yaml.MappingNode:
		return c.mapping(out, n, field, warnings)
	case yaml.SequenceNode:
		out.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := c.value(out, item, fmt.Sprintf("%s[%d]", field, i), warnings); err != nil {
				return err
			}
		}
		out.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		return scalar(out, n, field)
	}
	return fmt.Errorf("frontmatter field %s has an unsupported YAML node", field)
}

// mapping writes a mapping as an object: keys by their text, in the order
// first written, each with the last value written for it.
func (c *converter) mapping(out *bytes.Buffer, n *yaml.Node, field string, warnings *[]string) error {
	var keys []string
	last := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("frontmatter field %s has a key that is not a scalar", nonEmpty(field))
		}
		if _, seen := last[k.Value]; seen {
			*warnings = append(*warnings, fmt.Sprintf("frontmatter field %q appears more than once; the last one is used", join(field, k.Value)))
		} else {
			keys = append(keys, k.Value)
		}
		last[k.Value] = n.Content[i+1]
	}
	out.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			out.WriteByte(',')
		}
		writeString(out, k)
		out.WriteByte(':')
		if err := c.value(out, last[k], join(field, k), warnings); err != nil {
			return err
		}
	}
	out.WriteByte('}')
	return nil
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func nonEmpty(field string) string {
	if field == "" {
		return "(top level)"
	}
	return field
}

// YAML 1.2 core schema forms of plain scalars.
var (
	coreNull  = regexp.MustCompile(`^(?:~|null|Null|NULL)?$`)
	coreTrue  = regexp.MustCompile(`^(?:true|True|TRUE)$`)
	coreFalse = regexp.MustCompile(`^(?:false|False|FALSE)$`)
	coreInt   = regexp.MustCompile(`^[-+]?[0-9]+$`)
	coreOct   = regexp.MustCompile(`^0o[0-7]+$`)
	coreHex   = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	coreFloat = regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`)
	coreInf   = regexp.MustCompile(`^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

func scalar(out *bytes.Buffer, n *yaml.Node, field string) error {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	if n.Style&yaml.TaggedStyle != 0 {
		if n.ShortTag() != "!!str" {
			return fmt.Errorf("frontmatter field %s has the YAML tag %s; only !!str is supported", field, n.Tag)
		}
		quoted = true
	}
	v := n.Value
	if quoted {
		writeString(out, v)
		return nil
	}
	switch {
	case coreNull.MatchString(v):
		out.WriteString("null")
	case coreTrue.MatchString(v):
		out.WriteString("true")
	case coreFalse.MatchString(v):
		out.WriteString("false")
	case coreInt.MatchString(v):
		return writeInt(out, strings.TrimPrefix(v, "+"), 10)
	case coreOct.MatchString(v):
		return writeInt(out, v[2:], 8)
	case coreHex.MatchString(v):
		return writeInt(out, v[2:], 16)
	case coreFloat.MatchString(v):
		f, _ := strconv.ParseFloat(v, 64) // the form parses; only its range can fail
		if math.IsInf(f, 0) {
			return fmt.Errorf("frontmatter field %s holds %s, which JSON cannot represent; quote it", field, v)
		}
		out.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	case coreInf.MatchString(v):
		return fmt.Errorf("frontmatter field %s holds %s, which JSON cannot represent; quote it", field, v)
	default:
		writeString(out, v)
	}
	return nil
}

func writeInt(out *bytes.Buffer, digits string, base int) error {
	var z big.Int
	if _, ok := z.SetString(digits, base); !ok {
		return fmt.Errorf("frontmatter integer %q does not parse", digits)
	}
	out.WriteString(z.String())
	return nil
}

// writeString writes s as a JSON string, without the HTML escapes of
// encoding/json, so that the entry reads like the file.
func writeString(out *bytes.Buffer, s string) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\ufffd") // YAML input is UTF-8; this cannot happen
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	out.Truncate(out.Len() - 1) // the newline Encode adds
}
