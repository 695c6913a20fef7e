package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestErrorTextsCapTheEcho: every error text that repeats the model's
// arguments repeats at most MaxEchoBytes of them, cut before a character
// that would not fit, with an ellipsis; up to the bound they are verbatim.
func TestErrorTextsCapTheEcho(t *testing.T) {
	t.Parallel()
	a := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name, in, echoed string
	}{
		{"empty", "", ""},
		{"at the bound", a(MaxEchoBytes), a(MaxEchoBytes)},
		{"one over", a(MaxEchoBytes + 1), a(MaxEchoBytes-3) + "..."},
		{"3 MB", a(3 << 20), a(MaxEchoBytes-3) + "..."},
		{"two-byte character across the cut", a(MaxEchoBytes-4) + "éé" + a(10), a(MaxEchoBytes-4) + "..."},
		{"two-byte character ending at the cut", a(MaxEchoBytes-5) + "é" + a(10), a(MaxEchoBytes-5) + "é..."},
		{"four-byte character across the cut", a(MaxEchoBytes-5) + "😀" + a(10), a(MaxEchoBytes-5) + "..."},
		{"four-byte characters only", strings.Repeat("😀", 100), strings.Repeat("😀", 49) + "..."},
		{"multi-byte at the bound", strings.Repeat("é", MaxEchoBytes/2), strings.Repeat("é", MaxEchoBytes/2)},
		// No character can span four continuation bytes: the cut does not
		// look further back than a character reaches.
		{"continuation bytes across the cut", a(MaxEchoBytes-6) + strings.Repeat("\x80", 4) + a(10), a(MaxEchoBytes-6) + "\x80\x80\x80..."},
	}
	texts := []struct {
		fn             func(string) ToolError
		before, suffix string
	}{
		{InvalidName, `Error: invalid skill name "`, `"`},
		{UnknownSkill, `Error: skill "`, `" is unknown or no longer available`},
		{NotModelInvocable, `Error: skill "`, `" is not available for model invocation`},
		{UnexpectedArgument, `Error: unexpected argument "`, `"; the skill tool takes only "name"`},
		{ArgumentsNotObject, `Error: the arguments are not a JSON object: "`, `"; the skill tool takes {"name": "<skill name>"}`},
		{ResourceArgumentsNotObject, `Error: the arguments are not a JSON object: "`, `"; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`},
	}
	for _, tt := range tests {
		if len(tt.echoed) > MaxEchoBytes {
			t.Fatalf("%s: the expected echo is %d bytes, over MaxEchoBytes = %d", tt.name, len(tt.echoed), MaxEchoBytes)
		}
		for _, x := range texts {
			if got, want := string(x.fn(tt.in)), x.before+tt.echoed+x.suffix; got != want {
				t.Errorf("%s: got %q, want %q", tt.name, got, want)
			}
		}
	}
}

// FuzzErrorEcho: whatever the model sends, an error text repeats at most
// MaxEchoBytes of it: all of it, or a prefix short of the bound by at most
// one character followed by "...", and never invalid UTF-8 it did not send.
func FuzzErrorEcho(f *testing.F) {
	for _, s := range []string{"", "Bad Name", strings.Repeat("é", 150), strings.Repeat("x", 300), "\xff\xfe" + strings.Repeat("a", 250), strings.Repeat("\x80", 300)} {
		f.Add(s)
	}
	const before, after = `Error: invalid skill name "`, `"`
	f.Fuzz(func(t *testing.T, s string) {
		text := string(InvalidName(s))
		if !strings.HasPrefix(text, before) || !strings.HasSuffix(text, after) {
			t.Fatalf("text %q lost its frame", text)
		}
		echoed := text[len(before) : len(text)-len(after)]
		if len(echoed) > MaxEchoBytes {
			t.Fatalf("echo of %d bytes, over MaxEchoBytes = %d", len(echoed), MaxEchoBytes)
		}
		if echoed != s {
			kept, ok := strings.CutSuffix(echoed, "...")
			if !ok || !strings.HasPrefix(s, kept) || len(s) <= MaxEchoBytes {
				t.Fatalf("echo %q of %q is neither verbatim nor a capped prefix", echoed, s)
			}
			if len(kept) <= MaxEchoBytes-3-utf8.UTFMax {
				t.Fatalf("echo %q of %q keeps only %d bytes: more than a character was cut", echoed, s, len(kept))
			}
		}
		if utf8.ValidString(s) && !utf8.ValidString(text) {
			t.Fatalf("valid input %q gave invalid UTF-8 %q", s, text)
		}
	})
}
