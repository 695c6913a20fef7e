package skill

import (
	"regexp"
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{"pdf-tools", true},
		{"a", true},
		{"0", true},
		{"skill2", true},
		{"a-b-c", true},
		{"1-2-3", true},
		{strings.Repeat("a", 200), true}, // no length limit here
		{"", false},
		{"-", false},
		{"-a", false},
		{"a-", false},
		{"a--b", false},
		{"A", false},
		{"pdf_tools", false},
		{"pdf tools", false},
		{"pdf.tools", false},
		{"é", false},
		{"a\n", false},
		{"a\x00", false},
		{"../x", false},
	}
	for _, tt := range tests {
		if got := ValidName(tt.name); got != tt.want {
			t.Errorf("ValidName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestValidBoundedName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{strings.Repeat("a", MaxNameLength), true},
		{strings.Repeat("a", MaxNameLength+1), false},
		{strings.Repeat("ab-", 21) + "a", true}, // 64 bytes
		{"", false},
		{"Bad", false},
	}
	for _, tt := range tests {
		if got := ValidBoundedName(tt.name); got != tt.want {
			t.Errorf("ValidBoundedName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestNamePatternIsTheGrammar: the pattern shown in messages accepts
// exactly what ValidName accepts.
func TestNamePatternIsTheGrammar(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(NamePattern)
	for _, name := range []string{"pdf-tools", "a", "0", "a-b-c", "", "-", "-a", "a-", "a--b", "A", "pdf_tools", "é", "a\n", strings.Repeat("a", 100)} {
		if re.MatchString(name) != ValidName(name) {
			t.Errorf("%q: pattern says %v, ValidName says %v", name, re.MatchString(name), ValidName(name))
		}
	}
}
