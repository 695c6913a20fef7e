package render

import (
	"slices"
	"strings"
	"testing"
)

func TestSubstituteArguments(t *testing.T) {
	tests := []struct {
		name, instructions, args, want string
	}{
		{"no arguments, no placeholder", "Do it.", "", "Do it."},
		{"no arguments, $ARGUMENTS is empty", "Fix issue $ARGUMENTS now.", "", "Fix issue  now."},
		{"no arguments, a positional stays", "First: $0.", "", "First: $0."},
		{"one argument", "Fix issue $ARGUMENTS.", "42", "Fix issue 42."},
		{"whole text as written, quotes kept", "Args: $ARGUMENTS", `"My Button" React`, `Args: "My Button" React`},
		{"positionals from 0", "$0 from $1 to $2", "MyButton React Vue", "MyButton from React to Vue"},
		{"indexed form", "$ARGUMENTS[1] then $ARGUMENTS[0]", "a b", "b then a"},
		{"quoting groups words", "[$0] [$1]", `"My Button" 'it''s' x`, "[My Button] [its]"},
		{"escapes", `[$0] [$1]`, `a\ b "c \"d\""`, `[a b] [c "d"]`},
		{"a missing positional stays as written", "$0 and $3 and $ARGUMENTS[7]", "one", "one and $3 and $ARGUMENTS[7]"},
		{"placeholders are whole words", "$ARGUMENTSX $1st $ARGUMENTS_ $0", "a b", "$ARGUMENTSX $1st $ARGUMENTS_ a"},
		{"no placeholder: appended", "Review the change.", "the auth module", "Review the change.\n\nARGUMENTS: the auth module"},
		{"only a missing positional: nothing appended", "Use $4.", "a", "Use $4."},
		{"substituted text is not scanned again", "$0 $1", "$1 x", "$1 x"},
		{"dollar signs that are not placeholders", "Costs $ and $x and $", "a", "Costs $ and $x and $\n\nARGUMENTS: a"},
		{"an unterminated quote splits at whitespace", "[$0] [$1]", `"a b`, `["a] [b]`},
		{"multi-byte text around", "« $0 » — $ARGUMENTS", "über", "« über » — über"},
		{"many digits", "$12 $ARGUMENTS[99999999999999999999]", "a", "$12 $ARGUMENTS[99999999999999999999]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SubstituteArguments(tt.instructions, tt.args); got != tt.want {
				t.Errorf("SubstituteArguments(%q, %q) = %q, want %q", tt.instructions, tt.args, got, tt.want)
			}
		})
	}
}

func TestSplitArguments(t *testing.T) {
	tests := []struct {
		args string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"a  b\tc\nd", []string{"a", "b", "c", "d"}},
		{`"a b" c`, []string{"a b", "c"}},
		{`'a "b"' c`, []string{`a "b"`, "c"}},
		{`a"b c"d`, []string{"ab cd"}},
		{`"" x`, []string{"", "x"}},
		{`"a \$ \\ \" \n"`, []string{`a $ \ " \n`}},
		{`a\ b\\c`, []string{`a b\c`}},
		{`'unterminated x`, []string{`'unterminated`, "x"}},
		{`trailing\`, []string{`trailing\`}},
	}
	for _, tt := range tests {
		if got := SplitArguments(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("SplitArguments(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// FuzzSubstituteArguments: untrusted instructions and arguments never make
// the substitution fail, text without a '$' only ever gains the appended
// line, and every word of the split is made of the arguments' bytes.
func FuzzSubstituteArguments(f *testing.F) {
	for _, s := range [][2]string{{"$ARGUMENTS", "a b"}, {"$0 $1", `"x y" 'z'`}, {"plain", "x"}, {"$ARGUMENTS[2]", `a\ b`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, instructions, args string) {
		got := SubstituteArguments(instructions, args)
		if !strings.Contains(instructions, "$") {
			want := instructions
			if args != "" {
				want += "\n\n" + ArgumentsNote + args
			}
			if got != want {
				t.Fatalf("no placeholder: %q became %q", instructions, got)
			}
		}
		for _, w := range SplitArguments(args) {
			for i := 0; i < len(w); i++ {
				if strings.IndexByte(args, w[i]) < 0 {
					t.Fatalf("word %q of %q holds byte %q, not in the arguments", w, args, w[i])
				}
			}
		}
	})
}
