package skill

import (
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
