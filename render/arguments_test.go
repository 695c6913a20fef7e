package render

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestSubstituteArguments(t *testing.T) {
	t.Parallel()
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
		{"the digit 9", "$9 $ARGUMENTS[9] $19", "a b c d e f g h i j", "j j $19"},
		{"a multi-digit positional", "$10 $ARGUMENTS[10]", "a b c d e f g h i j k", "k k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := SubstituteArguments(tt.instructions, tt.args); err != nil || got != tt.want {
				t.Errorf("SubstituteArguments(%q, %q) = %q, %v; want %q", tt.instructions, tt.args, got, err, tt.want)
			}
		})
	}
}

// TestSubstituteArgumentsBound: a result over MaxSubstitutedBytes is
// refused, whatever makes it large; one at the bound is built.
func TestSubstituteArgumentsBound(t *testing.T) {
	const max = MaxSubstitutedBytes
	tests := []struct {
		name, instructions, args string
		wantSize                 int64 // of the result, refused when over max
		wantPlaceholders         int
	}{
		{"many $ARGUMENTS", strings.Repeat("$ARGUMENTS ", 700_000), strings.Repeat("x", 400), 700_000 * 401, 700_000},
		{"many positionals", strings.Repeat("$0 $ARGUMENTS[1] ", 100_000), strings.Repeat("a", 100) + " " + strings.Repeat("b", 100), 100_000 * 202, 200_000},
		{"exactly at the bound", "$ARGUMENTS" + strings.Repeat(".", max-1000), strings.Repeat("y", 1000), max, 1},
		{"one byte over the bound", "$ARGUMENTS" + strings.Repeat(".", max-1000), strings.Repeat("y", 1001), max + 1, 1},
		{"no placeholder: the appended line counts", strings.Repeat(".", max-22), strings.Repeat("z", 10), max + 1, 0},
		{"no placeholder, at the bound", strings.Repeat(".", max-23), strings.Repeat("z", 10), max, 0},
		{"positionals past the last argument are not substituted", strings.Repeat("$5 ", 4<<20), strings.Repeat("q", 100), 3 * 4 << 20, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SubstituteArguments(tt.instructions, tt.args)
			if tt.wantSize <= max {
				if err != nil || int64(len(got)) != tt.wantSize {
					t.Fatalf("result of %d bytes, %v; want %d bytes, no error", len(got), err, tt.wantSize)
				}
				return
			}
			var tooLarge *ArgumentsTooLargeError
			if !errors.As(err, &tooLarge) || !errors.Is(err, ErrArgumentsTooLarge) || got != "" {
				t.Fatalf("result of %d bytes, error %v; want an *ArgumentsTooLargeError", len(got), err)
			}
			want := &ArgumentsTooLargeError{Size: tt.wantSize, Placeholders: tt.wantPlaceholders, ArgumentBytes: len(tt.args)}
			if *tooLarge != *want {
				t.Errorf("error %+v, want %+v", *tooLarge, *want)
			}
			if msg := err.Error(); !strings.Contains(msg, "over the limit of 16777216 bytes (MaxSubstitutedBytes, 16 MiB)") {
				t.Errorf("error %q does not name the bound", msg)
			}
		})
	}
}

// TestSubstituteArgumentsRefusesBeforeBuilding: refusing 280 MB of
// substituted text allocates nothing near its size, measured, not timed.
func TestSubstituteArgumentsRefusesBeforeBuilding(t *testing.T) {
	instructions := strings.Repeat("$ARGUMENTS ", 700_000)
	args := strings.Repeat("x", 400)
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SubstituteArguments(instructions, args); err == nil {
				b.Fatal("no error")
			}
		}
	})
	if res.N == 0 {
		t.Fatal("the measurement did not run")
	}
	if got := res.AllocedBytesPerOp(); got > 64<<10 {
		t.Errorf("a refused substitution allocated %d bytes, want under 64 KiB (the result would be %d bytes)", got, 700_000*401)
	}
	// The same text within the bound is built in one allocation of its size.
	small := strings.Repeat("$ARGUMENTS ", 1000)
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := SubstituteArguments(small, args); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("a substitution allocated %v times, want once (the result)", allocs)
	}
}

func TestSplitArguments(t *testing.T) {
	t.Parallel()
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
		{`a '' b`, []string{"a", "", "b"}},
		{`''`, []string{""}},
		{`x'' 'y'`, []string{"x", "y"}},
		{`"abc\`, []string{`"abc\`}},
		{`a "b\`, []string{"a", `"b\`}},
		{`\a b`, []string{"a", "b"}},
		{`\é\ü`, []string{"éü"}},
		{"\\\u00a0x", []string{"\u00a0x"}},
	}
	for _, tt := range tests {
		if got := SplitArguments(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("SplitArguments(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestPlaceholderIsAWholeWord: a placeholder followed by a letter, a digit
// or an underscore is text; followed by anything else, including the
// characters next to those ranges in ASCII, it is substituted. ($N takes
// the digits that follow as its own: $09 is the tenth argument.)
func TestPlaceholderIsAWholeWord(t *testing.T) {
	t.Parallel()
	tests := []struct {
		next byte
		word bool
	}{
		{'/', false}, {'0', true}, {'9', true}, {':', false},
		{'@', false}, {'A', true}, {'Z', true}, {'_', true},
		{'`', false}, {'a', true}, {'z', true}, {'{', false},
	}
	for _, tt := range tests {
		for _, placeholder := range []string{"$ARGUMENTS", "$0"} {
			if placeholder == "$0" && tt.next >= '0' && tt.next <= '9' {
				continue
			}
			instructions := placeholder + string(tt.next) + "."
			want := "arg" + string(tt.next) + "."
			if tt.word {
				want = instructions + "\n\nARGUMENTS: arg"
			}
			if got, err := SubstituteArguments(instructions, "arg"); err != nil || got != want {
				t.Errorf("SubstituteArguments(%q, %q) = %q, %v; want %q", instructions, "arg", got, err, want)
			}
		}
	}
}

// FuzzSubstituteArguments: untrusted instructions and arguments (small
// enough that no result reaches MaxSubstitutedBytes) never make the
// substitution fail, no result is over the bound, text without a '$' only
// ever gains the appended line, and every word of the split is made of the
// arguments' bytes.
func FuzzSubstituteArguments(f *testing.F) {
	for _, s := range [][2]string{{"$ARGUMENTS", "a b"}, {"$0 $1", `"x y" 'z'`}, {"plain", "x"}, {"$ARGUMENTS[2]", `a\ b`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, instructions, args string) {
		got, err := SubstituteArguments(instructions, args)
		if err != nil {
			t.Fatalf("SubstituteArguments(%d bytes, %d bytes): %v", len(instructions), len(args), err)
		}
		if len(got) > MaxSubstitutedBytes {
			t.Fatalf("a result of %d bytes, over MaxSubstitutedBytes", len(got))
		}
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

// TestSubstituteArgumentsCountsTheArgumentsEscaped: a remote skill's
// instructions are escaped inside its block, where each & < > of the
// user's arguments grows to 4 or 5 bytes; the bound counts the arguments
// at that size, so arguments that fit raw but not escaped are refused
// before anything is built, and the largest block they can make stays
// inside the protocol's 64 MiB message limit.
func TestSubstituteArgumentsCountsTheArgumentsEscaped(t *testing.T) {
	args := strings.Repeat("&", 4<<20) // 4 MiB raw, 20 MiB escaped
	_, err := SubstituteArguments("Do: $ARGUMENTS", args)
	var tooLarge *ArgumentsTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Size != int64(len("Do: ")+5*len(args)) {
		t.Fatalf("4 MiB of & substituted: %v; want an *ArgumentsTooLargeError of %d bytes, the arguments counted escaped", err, len("Do: ")+5*len(args))
	}
	if _, err := SubstituteArguments("Do: $ARGUMENTS", strings.Repeat("x", 4<<20)); err != nil {
		t.Fatalf("4 MiB without a byte to escape: %v", err)
	}
	// The worst case that is accepted: a body of the largest size a
	// provider loads, all '&', and as many '&' in the arguments as fit.
	body := strings.Repeat("&", skill.MaxSkillFileBytes-len("$ARGUMENTS")) + "$ARGUMENTS"
	fit := (MaxSubstitutedBytes - len(body) + len("$ARGUMENTS")) / 5
	content, err := SubstituteArguments(body, strings.Repeat("&", fit))
	if err != nil {
		t.Fatalf("%d bytes of & into a body of %d: %v", fit, len(body), err)
	}
	if _, err := SubstituteArguments(body, strings.Repeat("&", fit+1)); !errors.Is(err, ErrArgumentsTooLarge) {
		t.Fatalf("one & more: %v, want ErrArgumentsTooLarge", err)
	}
	text, err := SkillContent(skill.ToolValue{Name: "big", Content: content, Origin: "docs", OriginKind: skill.OriginMCPServer}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(text) > contract.MaxMessageBytes {
		t.Errorf("the escaped block is %d bytes, over the protocol's message limit of %d", len(text), contract.MaxMessageBytes)
	}
}

// TestSubstituteNamedArguments: names bind, in order, to the positional
// arguments, beside the $ARGUMENTS and $N rules.
func TestSubstituteNamedArguments(t *testing.T) {
	t.Parallel()
	names := []string{"issue", "branch", "issue_id"}
	tests := []struct {
		name, instructions, args, want string
	}{
		{"names by position", "Fix $issue on $branch.", "42 main", "Fix 42 on main."},
		{"beside positionals and the whole", "$issue=$0 [$ARGUMENTS] $ARGUMENTS[1]", "42 main", "42=42 [42 main] main"},
		{"whole words", "$issues $issue_id $issue-x $branch.", "1 2 3", "$issues 3 1-x 2."},
		{"a name past the last argument stays", "Fix $issue on $branch.", "42", "Fix 42 on $branch."},
		{"only a named placeholder: nothing appended", "Use $branch.", "42", "Use $branch."},
		{"quoted arguments", "[$issue] [$branch]", `"a b" c`, "[a b] [c]"},
		{"an unknown name is text", "$other $issue", "x", "$other x"},
		{"substituted text is not scanned again", "$issue $branch", "$branch y", "$branch y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := SubstituteNamedArguments(tt.instructions, tt.args, names); err != nil || got != tt.want {
				t.Errorf("SubstituteNamedArguments(%q, %q) = %q, %v; want %q", tt.instructions, tt.args, got, err, tt.want)
			}
		})
	}
	// Names the parser would refuse bind nothing, whatever the wire carried.
	if got, _ := SubstituteNamedArguments("$ARGUMENTS $1x $a-b", "v w", []string{"ARGUMENTS", "1x", "a-b"}); got != "v w $1x $a-b" {
		t.Errorf("invalid names: %q", got)
	}
	// The bound counts named placeholders as it counts the others.
	_, err := SubstituteNamedArguments(strings.Repeat("$n ", 700_000), strings.Repeat("x", 400), []string{"n"})
	if !errors.Is(err, ErrArgumentsTooLarge) {
		t.Errorf("many named placeholders: %v", err)
	}
}

// FuzzSubstituteNamedArguments: no instructions, arguments or names make
// the substitution fail or pass its bound, and without names it is
// SubstituteArguments.
func FuzzSubstituteNamedArguments(f *testing.F) {
	f.Add("Fix $issue on $branch", "42 main", "issue branch")
	f.Add("$a$b $ARGUMENTS[0]", `"x y"`, "a,b")
	f.Fuzz(func(t *testing.T, instructions, args, namesField string) {
		names, _ := skill.ParseArgumentNames(namesField)
		got, err := SubstituteNamedArguments(instructions, args, names)
		if err != nil || len(got) > MaxSubstitutedBytes {
			t.Fatalf("SubstituteNamedArguments: %d bytes, %v", len(got), err)
		}
		plain, _ := SubstituteArguments(instructions, args)
		if len(names) == 0 && got != plain {
			t.Fatalf("without names %q, SubstituteArguments gives %q", got, plain)
		}
	})
}
