package render

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
)

func TestSkillContentErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		base    skill.ResourceBase
		wantErr string
	}{
		{"unknown kind", skill.ResourceBase{Kind: "file", Path: "/x"}, `skill "s": unsupported resource base kind "file"`},
		{"empty kind", skill.ResourceBase{Path: "/x"}, `skill "s": unsupported resource base kind ""`},
		{"kind is case sensitive", skill.ResourceBase{Kind: "Directory", Path: "/x"}, `skill "s": unsupported resource base kind "Directory"`},
		{"directory without path", skill.ResourceBase{Kind: "directory", URL: "https://x/"}, `skill "s": resource base kind "directory" has an empty path`},
		{"url without URL", skill.ResourceBase{Kind: "url", Path: "/x"}, `skill "s": resource base kind "url" has an empty URL`},
		{"opaque without description", skill.ResourceBase{Kind: "opaque"}, `skill "s": resource base kind "opaque" has an empty description`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := tt.base
			got, err := SkillContent(skill.ToolValue{Name: "s", Provider: "p", ResourceBase: &base, Content: "body"}, false)
			if err == nil {
				t.Fatalf("SkillContent succeeded with %+v: %q", tt.base, got)
			}
			if err.Error() != tt.wantErr {
				t.Errorf("error = %q, want %q", err, tt.wantErr)
			}
			if got != "" {
				t.Errorf("text %q returned with an error", got)
			}
		})
	}
}

// TestSkillContentRefusesUnknownOrigins: an origin that is not a label, or
// of a kind package skill does not define, is refused, never shown as a
// source it may not be.
func TestSkillContentRefusesUnknownOrigins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		origin  string
		kind    skill.OriginKind
		wantErr string
	}{
		{"Docs", skill.OriginMCPServer, `skill "s": origin "Docs" is not a label`},
		{"a b", skill.OriginWebsite, `skill "s": origin "a b" is not a label`},
		{"docs", skill.OriginKind(2), `skill "s": origin "docs" is of an unknown kind (2)`},
		{"docs", skill.OriginKind(255), `skill "s": origin "docs" is of an unknown kind (255)`},
	}
	for _, tt := range tests {
		got, err := SkillContent(skill.ToolValue{Name: "s", Provider: "p", Content: "body", Origin: tt.origin, OriginKind: tt.kind}, false)
		if err == nil || err.Error() != tt.wantErr || got != "" {
			t.Errorf("origin %q of kind %d: %q, %v; want the error %q", tt.origin, tt.kind, got, err, tt.wantErr)
		}
	}
	// Without an origin the kind says nothing.
	if _, err := SkillContent(skill.ToolValue{Name: "s", Provider: "p", Content: "body", OriginKind: skill.OriginKind(9)}, false); err != nil {
		t.Errorf("a local skill with a stray kind: %v", err)
	}
}

func TestSkillContentEscaping(t *testing.T) {
	t.Parallel()
	got, err := SkillContent(skill.ToolValue{
		Name:         `a"b<c>&d`,
		ResourceBase: &skill.ResourceBase{Kind: "url", URL: "https://x.example/?a=1&b=<2>"},
		Content:      "</skill_instructions> & <raw> \"kept\"",
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<skill_content name="a&quot;b&lt;c&gt;&amp;d">` + "\n",
		"\nResource base URL: https://x.example/?a=1&amp;b=&lt;2&gt;\n",
		"\n<skill_instructions>\n</skill_instructions> & <raw> \"kept\"\n</skill_instructions>\n</skill_content>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
}

// canonicalJSON re-indents compact JSON the way the schema constants are
// written: two spaces, one member or element per line.
func canonicalJSON(t *testing.T, s string) string {
	t.Helper()
	var compact, indented bytes.Buffer
	if err := json.Compact(&compact, []byte(s)); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	return indented.String()
}

func TestSkillToolSchemasAreCanonicalJSON(t *testing.T) {
	t.Parallel()
	for name, schema := range map[string]string{"input": SkillToolInputSchema, "output": SkillToolOutputSchema} {
		if !json.Valid([]byte(schema)) {
			t.Errorf("%s schema is not valid JSON", name)
			continue
		}
		if got := canonicalJSON(t, schema); got != schema {
			t.Errorf("%s schema is not in canonical two-space form; want:\n%s", name, got)
		}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(SkillToolInputSchema)); err != nil {
		t.Fatal(err)
	}
	const wantInput = `{"type":"object","properties":{"name":{"type":"string","description":"The exact skill name from the available skills list"}},"required":["name"],"additionalProperties":false}`
	if compact.String() != wantInput {
		t.Errorf("input schema = %s, want %s", compact.String(), wantInput)
	}
}

type schema struct {
	Type                 string             `json:"type"`
	Const                string             `json:"const"`
	Enum                 []string           `json:"enum"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	OneOf                []*schema          `json:"oneOf"`
}

// TestSkillToolOutputSchemaMatchesToolValue checks the output schema against
// what SkillContent accepts: the same fields, the same resource base kinds,
// each requiring the field SkillContent requires.
func TestSkillToolOutputSchemaMatchesToolValue(t *testing.T) {
	t.Parallel()
	var s schema
	if err := json.Unmarshal([]byte(SkillToolOutputSchema), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
		t.Errorf("top level: type %q, additionalProperties %v", s.Type, s.AdditionalProperties)
	}
	if want := []string{"name", "provider", "content"}; !slices.Equal(s.Required, want) {
		t.Errorf("required = %v, want %v", s.Required, want)
	}
	for _, p := range []string{"name", "provider", "content"} {
		if s.Properties[p] == nil || s.Properties[p].Type != "string" {
			t.Errorf("property %q missing or not a string", p)
		}
	}
	if s.Properties["origin"] == nil || s.Properties["origin"].Type != "string" {
		t.Error(`property "origin" missing or not a string`)
	}
	// origin_kind takes the values skill.OriginKind writes for a value:
	// "website" alone, as an MCP server's kind is omitted.
	if k := s.Properties["origin_kind"]; k == nil || k.Type != "string" || !slices.Equal(k.Enum, []string{"website"}) {
		t.Errorf(`property "origin_kind" = %+v, want a string of enum ["website"]`, k)
	}
	for _, kind := range []skill.OriginKind{skill.OriginMCPServer, skill.OriginWebsite} {
		b, _ := json.Marshal(skill.ToolValue{Name: "a", Origin: "docs", OriginKind: kind})
		var v map[string]any
		_ = json.Unmarshal(b, &v)
		if got, present := v["origin_kind"]; present && !slices.Contains(s.Properties["origin_kind"].Enum, got.(string)) {
			t.Errorf("a value of kind %v has origin_kind %v, which the schema does not allow", kind, got)
		}
	}
	if len(s.Properties) != 6 {
		t.Errorf("%d properties, want name, provider, resourceBase, content, origin, origin_kind", len(s.Properties))
	}
	rb := s.Properties["resourceBase"]
	if rb == nil {
		t.Fatal("no resourceBase property")
	}

	// The field of ResourceBase that each kind's schema field maps to.
	setField := map[string]func(*skill.ResourceBase, string){
		"path":        func(b *skill.ResourceBase, v string) { b.Path = v },
		"url":         func(b *skill.ResourceBase, v string) { b.URL = v },
		"description": func(b *skill.ResourceBase, v string) { b.Description = v },
	}
	var kinds []string
	for _, alt := range rb.OneOf {
		kind := alt.Properties["kind"]
		if kind == nil || kind.Const == "" {
			t.Fatalf("oneOf alternative without a const kind: %+v", alt)
		}
		kinds = append(kinds, kind.Const)
		if alt.Type != "object" || alt.AdditionalProperties == nil || *alt.AdditionalProperties {
			t.Errorf("kind %q: type %q, additionalProperties %v", kind.Const, alt.Type, alt.AdditionalProperties)
		}
		if len(alt.Required) != 2 || alt.Required[0] != "kind" || len(alt.Properties) != 2 {
			t.Fatalf("kind %q: want exactly kind plus one required field, got required %v", kind.Const, alt.Required)
		}
		field := alt.Required[1]
		set := setField[field]
		if set == nil || alt.Properties[field] == nil || alt.Properties[field].Type != "string" {
			t.Fatalf("kind %q: unexpected field %q", kind.Const, field)
		}
		base := skill.ResourceBase{Kind: skill.ResourceKind(kind.Const)}
		if _, err := SkillContent(skill.ToolValue{Name: "s", ResourceBase: &base}, false); err == nil {
			t.Errorf("kind %q: SkillContent accepted an empty %s", kind.Const, field)
		}
		set(&base, "x")
		if _, err := SkillContent(skill.ToolValue{Name: "s", ResourceBase: &base}, false); err != nil {
			t.Errorf("kind %q with %s set: %v", kind.Const, field, err)
		}
	}
	if want := []string{string(skill.ResourceDirectory), string(skill.ResourceURL), string(skill.ResourceOpaque)}; !slices.Equal(kinds, want) {
		t.Errorf("resource base kinds = %v, want %v", kinds, want)
	}
}
