package skill

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestInvocations(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", MaxNameLength)
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"alone", "/pdf-forms", []string{"pdf-forms"}},
		{"in a sentence", "please use /pdf-forms on this file", []string{"pdf-forms"}},
		{"order and repeats kept", "/b /a /b", []string{"b", "a", "b"}},
		{"tabs and newlines", "x\t/alpha\n/beta\r\n", []string{"alpha", "beta"}},
		{"unicode spaces delimit", "\u00a0/alpha\u2003/beta\u3000/gamma\u2029", []string{"alpha", "beta", "gamma"}},
		{"NEL and vertical tab delimit", "\u0085/alpha\v/beta", []string{"alpha", "beta"}},
		{"zero-width space does not delimit", "\u200b/alpha /beta\u200b", nil},
		{"trailing punctuation", "run /alpha. or /beta, or (/gamma)", nil},
		{"inside a word", "a/alpha path/beta", nil},
		{"paths are text", "/usr/bin /home/dev", nil},
		{"slash alone", "/ //", nil},
		{"double slash", "//alpha", nil},
		{"uppercase", "/Alpha", nil},
		{"bad hyphens", "/-a /a- /a--b", nil},
		{"digits", "/v2 /2", []string{"v2", "2"}},
		{"name at the length bound", "/" + long, []string{long}},
		{"name over the length bound", "/" + long + "a", nil},
		{"dollar is text", "$alpha", nil},
		{"invalid UTF-8 joins the token", "/alpha\xff /beta", []string{"beta"}},
		{"invalid UTF-8 before", "\xff/alpha", nil},
		{"qualified names", "/docs:refunds and /docs:acme/billing/refunds", []string{"docs:refunds", "docs:acme/billing/refunds"}},
		{"not qualified names", "/docs: /:refunds /docs:/refunds /Docs:refunds /docs:acme/Refunds", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := slices.Collect(Invocations(tt.text))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Invocations(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestInvocationsStopsWhenAsked(t *testing.T) {
	t.Parallel()
	var got []string
	for name := range Invocations("/a /b /c") {
		got = append(got, name)
		if name == "b" {
			break
		}
	}
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("got %q, want [a b]", got)
	}
}

// referenceInvocations is the definition, written the slow way: the fields
// between Unicode whitespace that are "/" and a bounded valid name.
func referenceInvocations(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, unicode.IsSpace) {
		if name, ok := strings.CutPrefix(f, "/"); ok && ValidBoundedName(name) {
			out = append(out, name)
		}
	}
	return out
}

func FuzzInvocations(f *testing.F) {
	for _, s := range []string{
		"", "/a", "use /pdf-forms now", "/a\u00a0/b", "/a\xff", "\u2028/x-y\u2029", "/" + strings.Repeat("z", 65),
		"//a /-a /a- /A", "path/a /usr/bin", "\u200b/a", "/a /a /b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := slices.Collect(Invocations(text))
		if again := slices.Collect(Invocations(text)); !slices.Equal(got, again) {
			t.Fatalf("not deterministic: %q then %q", got, again)
		}
		for _, name := range got {
			if !ValidBoundedName(name) {
				t.Fatalf("yielded %q, not a valid skill name", name)
			}
			if !strings.Contains(text, "/"+name) {
				t.Fatalf("yielded %q, which the text does not contain", name)
			}
		}
		if want := referenceInvocations(text); !slices.Equal(got, want) {
			t.Fatalf("Invocations(%q) = %q, want %q", text, got, want)
		}
	})
}

// BenchmarkInvocations scans a 1 MiB user message (a pasted log with
// paths, prose and a few invocations), the size a scan must stay linear at.
func BenchmarkInvocations(b *testing.B) {
	line := "2026-12-01 error at /usr/lib/x.so: see /pdf-forms or ask /code-review\u00a0now\n"
	text := strings.Repeat(line, (1<<20)/len(line))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for range Invocations(text) {
			n++
		}
		if n == 0 {
			b.Fatal("no invocations found")
		}
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		text, prefixes string
		want           []Mention
	}{
		{"/fix 42", "/", []Mention{{"fix", "42"}}},
		{"Please /fix  42 now \nthen more", "/", []Mention{{"fix", "42 now"}}},
		{"/a one /b two\n/c", "/", []Mention{{"a", "one"}, {"b", "two"}, {"c", ""}}},
		{"/a x /not-a-NAME y", "/", []Mention{{"a", "x /not-a-NAME y"}}},
		{"$a x /b y", "$", []Mention{{"a", "x /b y"}}},
		{"$a x /b y", "/$", []Mention{{"a", "x"}, {"b", "y"}}},
		{"costs $5 and $ alone", "$", []Mention{{"5", "and $ alone"}}},
		{"/a\u2028b", "/", []Mention{{"a", "b"}}},
		{"no mention", "/$", nil},
	}
	for _, tt := range tests {
		if got := slices.Collect(Mentions(tt.text, tt.prefixes)); !slices.Equal(got, tt.want) {
			t.Errorf("Mentions(%q, %q) = %q, want %q", tt.text, tt.prefixes, got, tt.want)
		}
	}
}

// FuzzMentions: with the slash prefix, Mentions names exactly what the
// reference scan of FuzzInvocations names, and every mention's arguments are text of its own line
// of the input, trimmed.
func FuzzMentions(f *testing.F) {
	for _, s := range []string{"/a b", "$a /b c\n/d", "/a\u00a0x\u2028/b", "x /a /a y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var names []string
		for m := range Mentions(text, "/") {
			names = append(names, m.Name)
			if strings.Contains(m.Args, "\n") {
				t.Fatalf("arguments %q of %q cross a line", m.Args, text)
			}
			if !strings.Contains(text, m.Args) || strings.TrimSpace(m.Args) != m.Args && utf8.ValidString(m.Args) {
				t.Fatalf("arguments %q are not trimmed text of %q", m.Args, text)
			}
		}
		if want := referenceInvocations(text); !slices.Equal(names, want) {
			t.Fatalf("Mentions named %q, the reference %q", names, want)
		}
		for m := range Mentions(text, "/$") {
			if !ValidBoundedName(m.Name) && !ValidQualifiedName(m.Name) {
				t.Fatalf("mentioned %q, not a skill name", m.Name)
			}
		}
	})
}
