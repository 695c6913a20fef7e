package skill

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidQualifiedName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"docs:refunds", true},
		{"docs:acme/billing/refunds", true},
		{"docs:Acme.v2/billing_team/refunds", true},
		{"mcp-2:a", true},
		{"refunds", false},                                // no label
		{":refunds", false},                               // empty label
		{"Docs:refunds", false},                           // label outside the grammar
		{"docs:", false},                                  // empty path
		{"docs:acme/", false},                             // empty last segment
		{"docs:/refunds", false},                          // empty prefix segment
		{"docs:acme//refunds", false},                     // empty prefix segment
		{"docs:acme/Refunds", false},                      // last segment is not a skill name
		{"docs:.hidden/refunds", false},                   // prefix starts with a dot
		{"docs:../refunds", false},                        // traversal-shaped prefix
		{"docs:a b/refunds", false},                       // space
		{"docs:a:b/refunds", false},                       // second colon
		{"docs:a%2Fb/refunds", false},                     // percent
		{"docs:a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p", true},    // 16 segments
		{"docs:a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q", false}, // 17 segments
		{"docs:" + strings.Repeat("a", MaxNameLength) + "/x", true},
		{"docs:" + strings.Repeat("a", MaxNameLength+1) + "/x", false},
		{"docs:" + strings.Repeat("a", MaxNameLength+1), false},
		{"docs:" + strings.Repeat("a/", 3) + strings.Repeat("b", MaxQualifiedNameLength), false},
	}
	for _, tt := range tests {
		if got := ValidQualifiedName(tt.name); got != tt.want {
			t.Errorf("ValidQualifiedName(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if got := ValidListedName(tt.name); strings.Contains(tt.name, ":") && got != tt.want {
			t.Errorf("ValidListedName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !ValidListedName("refunds") {
		t.Error(`ValidListedName("refunds") = false, want true`)
	}
	long := "docs:" + strings.Repeat("abcdefgh/", 15) + "x"
	if len(long) > MaxQualifiedNameLength || !ValidQualifiedName(long) {
		t.Errorf("ValidQualifiedName(%q) (%d bytes) = false, want true", long, len(long))
	}
	exact := "docs:" + strings.Repeat(strings.Repeat("a", 47)+"/", 4) + strings.Repeat("b", 59)
	if len(exact) != MaxQualifiedNameLength || !ValidQualifiedName(exact) {
		t.Errorf("ValidQualifiedName of exactly %d bytes = false, want true", len(exact))
	}
	over := "docs:" + strings.Repeat(strings.Repeat("a", 60)+"/", 4) + strings.Repeat("b", 40)
	if len(over) <= MaxQualifiedNameLength || ValidQualifiedName(over) {
		t.Errorf("ValidQualifiedName of %d bytes = true, want false", len(over))
	}
	if got := QualifiedName("docs", "acme/refunds"); got != "docs:acme/refunds" {
		t.Errorf("QualifiedName = %q", got)
	}
}

func TestOriginKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind  OriginKind
		valid bool
		str   string
		text  string // "" when MarshalText fails
	}{
		{OriginMCPServer, true, "MCP server", "mcp_server"},
		{OriginWebsite, true, "website", "website"},
		{OriginKind(2), false, "OriginKind(2)", ""},
		{OriginKind(255), false, "OriginKind(255)", ""},
	}
	for _, tt := range tests {
		if got := tt.kind.Valid(); got != tt.valid {
			t.Errorf("%d.Valid() = %v, want %v", tt.kind, got, tt.valid)
		}
		if got := tt.kind.String(); got != tt.str {
			t.Errorf("%d.String() = %q, want %q", tt.kind, got, tt.str)
		}
		text, err := tt.kind.MarshalText()
		if tt.text == "" {
			if err == nil {
				t.Errorf("%d.MarshalText() = %q, want an error", tt.kind, text)
			}
			continue
		}
		if err != nil || string(text) != tt.text {
			t.Errorf("%d.MarshalText() = %q, %v; want %q", tt.kind, text, err, tt.text)
		}
		var back OriginKind = 7
		if err := back.UnmarshalText(text); err != nil || back != tt.kind {
			t.Errorf("UnmarshalText(%q) = %d, %v; want %d", text, back, err, tt.kind)
		}
	}
	for _, bad := range []string{"", "Website", "mcp", "MCP server", "git"} {
		var k OriginKind
		if err := k.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) = %d, want an error", bad, k)
		}
	}
}

// TestToolValueOriginKindJSON: the tool's value names a website's kind and
// says nothing of an MCP server's, so every value of an MCP-served or local
// skill encodes as it did before kinds existed.
func TestToolValueOriginKindJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    ToolValue
		want string
	}{
		{ToolValue{Name: "a", Provider: "runtime", Content: "x"}, `{"name":"a","provider":"runtime","content":"x"}`},
		{ToolValue{Name: "a", Provider: "docs", Content: "x", Origin: "docs"}, `{"name":"a","provider":"docs","content":"x","origin":"docs"}`},
		{ToolValue{Name: "a", Provider: "docs", Content: "x", Origin: "docs", OriginKind: OriginWebsite}, `{"name":"a","provider":"docs","content":"x","origin":"docs","origin_kind":"website"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("json.Marshal(%+v) = %s, %v; want %s", tt.v, b, err, tt.want)
			continue
		}
		var back ToolValue
		if err := json.Unmarshal(b, &back); err != nil || back != tt.v {
			t.Errorf("json.Unmarshal(%s) = %+v, %v; want %+v", b, back, err, tt.v)
		}
	}
}

// TestDefinitionToolValueKeepsOriginKind: a loaded website skill's value
// says it is one.
func TestDefinitionToolValueKeepsOriginKind(t *testing.T) {
	t.Parallel()
	d := Definition{Summary: Summary{Name: "a", Provider: "docs", Origin: "docs", OriginKind: OriginWebsite}, Content: "x"}
	if v := d.ToolValue(); v.Origin != "docs" || v.OriginKind != OriginWebsite {
		t.Errorf("ToolValue() = %+v, want origin docs of a website", v)
	}
}
