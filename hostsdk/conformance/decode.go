package conformance

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseError is a scenario file that cannot be used: invalid YAML, an
// unknown field, a value of the wrong type or a scenario that breaks a rule
// of the format. Line and Column are 1-based; Column is 0 when the YAML
// parser reports only a line.
type ParseError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *ParseError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// position is the position of a YAML node in its file. Structs of the format
// embed it (under the field name position) so later checks can point at them.
type position struct {
	Line, Column int
}

var posType = reflect.TypeOf(position{})

// nodeDecoder is implemented by format types with a custom YAML shape (a
// scalar or a mapping, say). decodeNode is called for every node, null
// included.
type nodeDecoder interface {
	decodeNode(d *decoder, n *yaml.Node) error
}

// decoder decodes a YAML node tree into the format's Go types strictly:
// unknown and repeated keys, and scalars of the wrong type, are errors that
// carry the offending node's line and column. (yaml.v3's own decoder, even
// with KnownFields, reports only lines.)
type decoder struct {
	file string
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return &ParseError{File: d.file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// yamlLine extracts the line from yaml.v3's syntax errors ("yaml: line 3: ...").
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseYAML parses one YAML document into a node tree.
func (d *decoder) parseYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, &ParseError{File: d.file, Line: line, Msg: "invalid YAML: " + m[2]}
		}
		return nil, &ParseError{File: d.file, Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
	}
	if doc.Kind == 0 {
		return nil, &ParseError{File: d.file, Msg: "the file is empty"}
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) != 1 {
			return nil, &ParseError{File: d.file, Line: doc.Line, Column: doc.Column, Msg: "expected one YAML document"}
		}
		return doc.Content[0], nil
	}
	return &doc, nil
}

func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// decode fills v (addressable) from n.
func (d *decoder) decode(n *yaml.Node, v reflect.Value) error {
	n = resolve(n)
	if v.CanAddr() {
		if nd, ok := v.Addr().Interface().(nodeDecoder); ok {
			return nd.decodeNode(d, n)
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		// A null pointer-to-struct means "present with defaults", so
		// `preStep:` alone is a pre-step; other null pointers stay nil.
		if isNull(n) && v.Type().Elem().Kind() != reflect.Struct {
			v.SetZero()
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := d.decode(n, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Struct:
		return d.decodeStruct(n, v)
	case reflect.Slice:
		return d.decodeSlice(n, v)
	case reflect.Map:
		return d.decodeMap(n, v)
	}
	return d.decodeScalar(n, v)
}

func (d *decoder) decodeSlice(n *yaml.Node, v reflect.Value) error {
	if isNull(n) {
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return d.errorf(n, "expected a list, got %s", describe(n))
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		if err := d.decode(item, s.Index(i)); err != nil {
			return err
		}
	}
	v.Set(s)
	return nil
}

func (d *decoder) decodeMap(n *yaml.Node, v reflect.Value) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "expected a mapping, got %s", describe(n))
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			return d.errorf(k, "expected a string key, got %s", describe(k))
		}
		if m.MapIndex(reflect.ValueOf(k.Value)).IsValid() {
			return d.errorf(k, "key %q appears twice", k.Value)
		}
		elem := reflect.New(v.Type().Elem()).Elem()
		if err := d.decode(val, elem); err != nil {
			return err
		}
		m.SetMapIndex(reflect.ValueOf(k.Value), elem)
	}
	v.Set(m)
	return nil
}

// decodeScalar fills a string, boolean or integer from a scalar of that
// YAML type only: "1" is not a number, and 1 is not a string.
func (d *decoder) decodeScalar(n *yaml.Node, v reflect.Value) error {
	scalar := func(tag string) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == tag }
	switch v.Kind() {
	case reflect.String:
		if !scalar("!!str") {
			return d.errorf(n, "expected a string, got %s (quote it to make it a string)", describe(n))
		}
		v.SetString(n.Value)
		return nil
	case reflect.Bool:
		var b bool
		if !scalar("!!bool") {
			return d.errorf(n, "expected true or false, got %s", describe(n))
		}
		if err := n.Decode(&b); err != nil {
			return d.errorf(n, "invalid boolean %q", n.Value)
		}
		v.SetBool(b)
		return nil
	case reflect.Int, reflect.Int64:
		var i int64
		if !scalar("!!int") {
			return d.errorf(n, "expected an integer, got %s", describe(n))
		}
		if err := n.Decode(&i); err != nil {
			return d.errorf(n, "invalid integer %q", n.Value)
		}
		v.SetInt(i)
		return nil
	case reflect.Uint64:
		var u uint64
		if !scalar("!!int") {
			return d.errorf(n, "expected a non-negative integer, got %s", describe(n))
		}
		if err := n.Decode(&u); err != nil {
			return d.errorf(n, "expected a non-negative integer, got %q", n.Value)
		}
		v.SetUint(u)
		return nil
	}
	return d.errorf(n, "internal error: cannot decode into %s", v.Type())
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value) error {
	t := v.Type()
	if isNull(n) {
		return d.setPos(n, v)
	}
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "expected a mapping with fields %s, got %s", strings.Join(fieldNames(t), ", "), describe(n))
	}
	if err := d.setPos(n, v); err != nil {
		return err
	}
	seen := make(map[string]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return d.errorf(k, "expected a field name, got %s", describe(k))
		}
		idx, ok := fieldIndex(t, k.Value)
		if !ok {
			return d.errorf(k, "unknown field %q (known fields: %s)", k.Value, strings.Join(fieldNames(t), ", "))
		}
		if seen[k.Value] {
			return d.errorf(k, "field %q appears twice", k.Value)
		}
		seen[k.Value] = true
		if err := d.decode(val, v.Field(idx)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) setPos(n *yaml.Node, v reflect.Value) error {
	if f := v.FieldByName("Pos"); f.IsValid() && f.Type() == posType {
		f.Set(reflect.ValueOf(position{Line: n.Line, Column: n.Column}))
	}
	return nil
}

func fieldIndex(t reflect.Type, name string) (int, bool) {
	for i := 0; i < t.NumField(); i++ {
		if tag := yamlName(t.Field(i)); tag != "" && tag == name {
			return i, true
		}
	}
	return 0, false
}

func fieldNames(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if tag := yamlName(t.Field(i)); tag != "" {
			names = append(names, tag)
		}
	}
	sort.Strings(names)
	return names
}

func yamlName(f reflect.StructField) string {
	tag := f.Tag.Get("yaml")
	if tag == "-" || !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	return name
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		}
		return fmt.Sprintf("%s %q", n.ShortTag(), n.Value)
	}
	return "an unsupported YAML node"
}
