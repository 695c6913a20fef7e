package agentskills

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestParseSkillFile(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     Frontmatter
		body     string
		warnings []string // substrings, in order
		err      string   // substring; "" means success
	}{
		{
			name: "plain",
			in:   "---\nname: a\ndescription: d\n---\n\n  body\n\n",
			want: Frontmatter{Name: "a", Description: "d", UserInvocable: true},
			body: "body",
		},
		{
			name:     "colon in unquoted value is retried as a string",
			in:       "---\nname: a\ndescription: Use when: the user asks\n---\nb",
			want:     Frontmatter{Name: "a", Description: "Use when: the user asks", UserInvocable: true},
			body:     "b",
			warnings: []string{`not valid YAML; read the unquoted value of "description" as a plain string`},
		},
		{
			name:     "retry keeps quotes inside the value and folds continuation lines",
			in:       "---\nname: a\ndescription: It's: here\n  and continues\nlicense: MIT\n---\n",
			want:     Frontmatter{Name: "a", Description: "It's: here and continues", License: "MIT", UserInvocable: true},
			warnings: []string{"plain string"},
		},
		{
			name:     "retry names each key once",
			in:       "---\nname: a\ndescription: x: y\ndescription: z: w\n---\n",
			want:     Frontmatter{Name: "a", Description: "z: w", UserInvocable: true},
			warnings: []string{`read the unquoted value of "description" as a plain string (quote`, `"description" appears more than once`},
		},
		{
			name:     "retry quotes a value with a reserved first character",
			in:       "---\nname: a\ndescription: @mention: someone\n---\n",
			want:     Frontmatter{Name: "a", Description: "@mention: someone", UserInvocable: true},
			warnings: []string{"plain string"},
		},
		{
			name: "unparseable even after retry",
			in:   "---\nname: a\ndescription: [open\n---\n",
			err:  "not valid YAML",
		},
		{
			name: "retry that does not help",
			in:   "---\nname: a: b\ndescription: [open\n---\n",
			err:  "also after quoting",
		},
		{
			name: "folded block scalar",
			in:   "---\nname: a\ndescription: >\n  one\n  two\n\n  three\n---\n",
			want: Frontmatter{Name: "a", Description: "one two\nthree\n", UserInvocable: true},
		},
		{
			name: "literal block scalar",
			in:   "---\nname: a\ndescription: |\n  one\n  two\n---\n",
			want: Frontmatter{Name: "a", Description: "one\ntwo\n", UserInvocable: true},
		},
		{
			name: "CRLF line ends; body kept verbatim apart from trimming",
			in:   "---\r\nname: a\r\ndescription: >\r\n  x\r\n  y\r\n---\r\nl1\r\nl2\r\n",
			want: Frontmatter{Name: "a", Description: "x y\n", UserInvocable: true},
			body: "l1\r\nl2",
		},
		{
			name: "BOM",
			in:   "\uFEFF---\nname: a\ndescription: d\n---\nb",
			want: Frontmatter{Name: "a", Description: "d", UserInvocable: true},
			body: "b",
		},
		{
			name: "Unicode passes through",
			in:   "---\nname: a\ndescription: \"日本語 \u00a0🌐\"\n---\nnaïve",
			want: Frontmatter{Name: "a", Description: "日本語 \u00a0🌐", UserInvocable: true},
			body: "naïve",
		},
		{
			name: "delimiters with trailing blanks",
			in:   "--- \nname: a\ndescription: d\n---\t\nb",
			want: Frontmatter{Name: "a", Description: "d", UserInvocable: true},
			body: "b",
		},
		{
			name: "closing delimiter at end of file without newline",
			in:   "---\nname: a\ndescription: d\n---",
			want: Frontmatter{Name: "a", Description: "d", UserInvocable: true},
		},
		{
			name: "invocation flags",
			in:   "---\nname: a\ndescription: d\ndisable-model-invocation: true\nuser-invocable: false\n---\n",
			want: Frontmatter{Name: "a", Description: "d", DisableModelInvocation: true, UserInvocable: false},
		},
		{
			name:     "non-boolean flags are ignored with warnings",
			in:       "---\nname: a\ndescription: d\ndisable-model-invocation: yes please\nuser-invocable: [x]\n---\n",
			want:     Frontmatter{Name: "a", Description: "d", UserInvocable: true},
			warnings: []string{`"disable-model-invocation" is not a boolean`, `"user-invocable" is not a boolean`},
		},
		{
			name: "optional fields kept as metadata",
			in: "---\nname: a\ndescription: d\nlicense: MIT\ncompatibility: needs git\nallowed-tools: Bash Read\n" +
				"metadata:\n  author: me\n  version: 1.0\nx-extra:\n  k: [1, 2]\n---\n",
			want: Frontmatter{
				Name: "a", Description: "d", License: "MIT", Compatibility: "needs git",
				AllowedTools: []string{"Bash", "Read"}, Metadata: map[string]string{"author": "me", "version": "1.0"},
				UserInvocable: true, Extra: map[string]any{"x-extra": map[string]any{"k": []any{1, 2}}},
				Directives: &skill.Directives{AllowedTools: []string{"Bash", "Read"}},
			},
		},
		{
			name: "allowed-tools as a list",
			in:   "---\nname: a\ndescription: d\nallowed-tools:\n  - Bash(git:*)\n  - Read\n---\n",
			want: Frontmatter{Name: "a", Description: "d", AllowedTools: []string{"Bash(git:*)", "Read"}, UserInvocable: true,
				Directives: &skill.Directives{AllowedTools: []string{"Bash(git:*)", "Read"}}},
		},
		{
			name:     "metadata of the wrong shape",
			in:       "---\nname: a\ndescription: d\nmetadata: [1]\n---\n",
			want:     Frontmatter{Name: "a", Description: "d", UserInvocable: true},
			warnings: []string{`"metadata" is not a mapping`},
		},
		{
			name: "numbers keep their spelling, null is empty",
			in:   "---\nname: 123\ndescription: ~\n---\n",
			want: Frontmatter{Name: "123", UserInvocable: true},
		},
		{
			name:     "name that is not a scalar",
			in:       "---\nname: [a]\ndescription: d\n---\n",
			want:     Frontmatter{Description: "d", UserInvocable: true},
			warnings: []string{`"name" is not a string`},
		},
		{
			name:     "duplicate key: last wins, one warning",
			in:       "---\nname: a\nname: b\nname: c\ndescription: d\n---\n",
			want:     Frontmatter{Name: "c", Description: "d", UserInvocable: true},
			warnings: []string{`"name" appears more than once`},
		},
		{
			name: "alias",
			in:   "---\nname: &n a\ndescription: *n\n---\n",
			want: Frontmatter{Name: "a", Description: "a", UserInvocable: true},
		},
		{
			name: "empty frontmatter",
			in:   "---\n---\nbody",
			want: Frontmatter{UserInvocable: true},
			body: "body",
		},
		{name: "no frontmatter", in: "# Title\n", err: "no frontmatter"},
		{name: "frontmatter not on the first line", in: "\n---\nname: a\n---\n", err: "no frontmatter"},
		{name: "empty file", in: "", err: "no frontmatter"},
		{name: "unclosed", in: "---\nname: a\n", err: "not closed"},
		{name: "not a mapping", in: "---\n- a\n---\n", err: "not a YAML mapping"},
		{
			name: "oversized frontmatter",
			in:   "---\nname: a\ndescription: " + strings.Repeat("x", MaxFrontmatterBytes) + "\n---\n",
			err:  "not closed within",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, body, warnings, err := ParseSkillFile([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if diff := cmp.Diff(tt.want, fm, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("frontmatter (-want +got):\n%s", diff)
			}
			if body != tt.body {
				t.Errorf("body = %q, want %q", body, tt.body)
			}
			if len(warnings) != len(tt.warnings) {
				t.Fatalf("warnings = %q, want %d matching %q", warnings, len(tt.warnings), tt.warnings)
			}
			for i, w := range tt.warnings {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning[%d] = %q, want it to contain %q", i, warnings[i], w)
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	long := strings.Repeat("a", skill.MaxNameLength+1)
	tests := []struct {
		name     string
		fm       Frontmatter
		dir      string
		warnings []string
		err      string
	}{
		{name: "valid", fm: Frontmatter{Name: "pdf-tools", Description: "d"}, dir: "pdf-tools"},
		{name: "no directory to compare", fm: Frontmatter{Name: "pdf-tools", Description: "d"}},
		{name: "mismatch", fm: Frontmatter{Name: "pdf", Description: "d"}, dir: "pdf-tools",
			warnings: []string{`name "pdf" does not match directory name "pdf-tools"`}},
		{name: "too long", fm: Frontmatter{Name: long, Description: "d"}, dir: long,
			warnings: []string{"65 characters long; the limit is 64"}},
		{name: "long description", fm: Frontmatter{Name: "a", Description: strings.Repeat("é", MaxDescriptionLength+1)}, dir: "a",
			warnings: []string{"description is 1025 characters"}},
		{name: "long compatibility", fm: Frontmatter{Name: "a", Description: "d", Compatibility: strings.Repeat("c", 501)}, dir: "a",
			warnings: []string{"compatibility is 501 characters"}},
		{name: "missing name", fm: Frontmatter{Description: "d"}, err: "no name"},
		{name: "uppercase", fm: Frontmatter{Name: "Pdf", Description: "d"}, err: "not kebab-case"},
		{name: "underscore", fm: Frontmatter{Name: "pdf_tools", Description: "d"}, err: "not kebab-case"},
		{name: "double hyphen", fm: Frontmatter{Name: "pdf--tools", Description: "d"}, err: "not kebab-case"},
		{name: "leading hyphen", fm: Frontmatter{Name: "-pdf", Description: "d"}, err: "not kebab-case"},
		{name: "trailing hyphen", fm: Frontmatter{Name: "pdf-", Description: "d"}, err: "not kebab-case"},
		{name: "non-ASCII", fm: Frontmatter{Name: "café", Description: "d"}, err: "not kebab-case"},
		{name: "missing description", fm: Frontmatter{Name: "a"}, err: "description is missing or empty"},
		{name: "blank description", fm: Frontmatter{Name: "a", Description: " \n\t"}, err: "description is missing or empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			warnings, err := tt.fm.Validate(tt.dir)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if len(warnings) != len(tt.warnings) {
				t.Fatalf("warnings = %q, want %q", warnings, tt.warnings)
			}
			for i, w := range tt.warnings {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning[%d] = %q, want it to contain %q", i, warnings[i], w)
				}
			}
		})
	}
}

func TestInvocation(t *testing.T) {
	fm := Frontmatter{DisableModelInvocation: true, UserInvocable: true}
	if got := fm.Invocation(); got.ModelInvocable || !got.UserInvocable {
		t.Errorf("Invocation() = %+v", got)
	}
}
