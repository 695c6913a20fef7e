package skill

import (
	"slices"
	"strings"
	"testing"
)

func TestParsePaths(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []string
		want   []string
		diags  int
	}{
		{"comma-separated string", []string{"src/**/*.ts, docs/*.md"}, []string{"src/**/*.ts", "docs/*.md"}, 0},
		{"list items", []string{"src/**", "*.go"}, []string{"src/**", "*.go"}, 0},
		{"braces expand and do not split", []string{"src/**/*.{ts,tsx}"}, []string{"src/**/*.ts", "src/**/*.tsx"}, 0},
		{"nested braces", []string{"{a,b{c,d}}.go"}, []string{"a.go", "bc.go", "bd.go"}, 0},
		{"repeats dropped", []string{"*.go", "*.go,*.go"}, []string{"*.go"}, 0},
		{"only double star is unscoped", []string{"**", " ** "}, nil, 0},
		{"double star beside another pattern", []string{"**", "*.go"}, []string{"**", "*.go"}, 0},
		{"malformed class", []string{"src/[a-.go", "*.md"}, []string{"*.md"}, 1},
		{"unbalanced brace", []string{"src/{a,b.go"}, nil, 1},
		{"dot segment", []string{"../x/*.go"}, nil, 1},
		{"empty parts skipped", []string{" , ,*.go,"}, []string{"*.go"}, 0},
		{"control character", []string{"a\tb"}, nil, 1},
		{"negation only", []string{"!"}, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := ParsePaths(tc.values)
			if !slices.Equal(got, tc.want) {
				t.Errorf("patterns = %q, want %q", got, tc.want)
			}
			if len(diags) != tc.diags {
				t.Errorf("diagnostics = %q, want %d", diags, tc.diags)
			}
		})
	}
}

func TestParsePathsBounds(t *testing.T) {
	var many []string
	for i := 0; i < MaxPathPatterns+3; i++ {
		many = append(many, strings.Repeat("a", i+1)+".go")
	}
	got, diags := ParsePaths(many)
	if len(got) != MaxPathPatterns || len(diags) != 3 {
		t.Errorf("kept %d patterns with %d diagnostics, want %d and 3", len(got), len(diags), MaxPathPatterns)
	}
	if _, diags := ParsePaths([]string{"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"}); len(diags) != 1 {
		t.Errorf("128 alternatives: diagnostics %q, want one", diags)
	}
}

func TestMatchPaths(t *testing.T) {
	for _, tc := range []struct {
		patterns string
		rel      string
		want     bool
	}{
		{"*.ts", "app.ts", true},
		{"*.ts", "web/src/app.ts", true},
		{"*.ts", "app.tsx", false},
		{"src/*.ts", "src/app.ts", true},
		{"src/*.ts", "web/src/app.ts", false},
		{"/src/*.ts", "src/app.ts", true},
		{"src/**", "src/a/b/c.go", true},
		{"src/**", "srcx/a.go", false},
		{"src/**/*.ts", "src/app.ts", true},
		{"src/**/*.ts", "src/a/b/app.ts", true},
		{"**/*.sql", "db/migrate/1.sql", true},
		{"**/*.sql", "1.sql", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"docs", "docs/guide/intro.md", true},
		{"docs/", "docs/guide/intro.md", true},
		{"docs/", "docs", false},
		{"web/src", "web/src/app.ts", true},
		{"?.go", "a.go", true},
		{"?.go", "ab.go", false},
		{"[ab].go", "b.go", true},
		{"*.go\n!*_test.go", "x_test.go", false},
		{"*.go\n!*_test.go", "x.go", true},
		{"*.go\n!*_test.go\nonly_test.go", "only_test.go", true},
		{"src/[a-.go", "src/[a-.go", false},
		{"", "a.go", false},
	} {
		if got := MatchPaths(PathPatterns(tc.patterns), tc.rel); got != tc.want {
			t.Errorf("MatchPaths(%q, %q) = %v, want %v", tc.patterns, tc.rel, got, tc.want)
		}
	}
}

func TestTouchedRelative(t *testing.T) {
	for _, tc := range []struct {
		cwd, file, want string
		ok              bool
	}{
		{"/work/project", "/work/project/src/app.ts", "src/app.ts", true},
		{"/work/project/", "/work/project/./src//app.ts", "src/app.ts", true},
		{"/work/project", "src/app.ts", "src/app.ts", true},
		{"/work/project", "./src/../lib/a.go", "lib/a.go", true},
		{"/work/project", "/work/projectx/a.go", "", false},
		{"/work/project", "/work/project", "", false},
		{"/work/project", "../other/a.go", "", false},
		{"/work/project", "/work/project/../other/a.go", "", false},
		{"", "/abs/a.go", "", false},
		{"", "rel/a.go", "rel/a.go", true},
		{"/", "/etc/hosts", "etc/hosts", true},
		{"/work", "", "", false},
		{"/work", "a\x00b", "", false},
		{"/work", "bad\xffutf8", "", false},
	} {
		got, ok := TouchedRelative(tc.cwd, tc.file)
		if got != tc.want || ok != tc.ok {
			t.Errorf("TouchedRelative(%q, %q) = %q, %v; want %q, %v", tc.cwd, tc.file, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzPaths(f *testing.F) {
	f.Add("src/**/*.{ts,tsx},!*_test.go", "src/a/b.ts")
	f.Add("**/a/**/b/**/c", "a/b/c/d")
	f.Add("{a,{b,{c,d}}}", "d")
	f.Fuzz(func(t *testing.T, value, file string) {
		patterns, _ := ParsePaths([]string{value})
		if len(patterns) > MaxPathPatterns {
			t.Fatalf("%d patterns", len(patterns))
		}
		for _, p := range patterns {
			if err := ValidPathPattern(p); err != nil {
				t.Fatalf("kept invalid pattern %q: %v", p, err)
			}
		}
		if got := PathPatterns(JoinPaths(patterns)); !slices.Equal(got, patterns) && len(patterns) > 0 {
			t.Fatalf("join and split: %q, want %q", got, patterns)
		}
		if rel, ok := TouchedRelative("/w", file); ok {
			MatchPaths(patterns, rel)
		}
	})
}
