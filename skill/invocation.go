package skill

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// InvocationPrefix starts a token by which a user invokes a skill: the
// token "/pdf-forms" invokes the skill pdf-forms.
const InvocationPrefix = '/'

// Invocations yields, in order, the skill names that text invokes: every
// whitespace-delimited token (whitespace as unicode.IsSpace defines it) that
// is InvocationPrefix followed by a valid skill name of at most
// MaxNameLength bytes, or by a remote skill's qualified name
// (ValidQualifiedName: "/docs:acme/refunds"). A name is yielded once for every token that invokes
// it; anything else, such as "/pdf-forms." or "a/b" or a path like
// "/usr/bin", is ordinary text. Text that is not valid UTF-8 is scanned
// byte by byte: an invalid byte is never whitespace and never part of a name.
func Invocations(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for m := range Mentions(text, string(InvocationPrefix)) {
			if !yield(m.Name) {
				return
			}
		}
	}
}

// MentionPrefix starts a token by which a user mentions a skill in the
// form some runtimes use instead of InvocationPrefix: "$pdf-forms".
const MentionPrefix = '$'

// Mention is one token of a text that invokes a skill.
type Mention struct {
	// Name is the skill the token invokes.
	Name string
	// Args is the text after the token on its line, up to the next token
	// that invokes a skill, with surrounding whitespace trimmed: what
	// `/name args` passes.
	Args string
}

// Mentions yields, in order, the tokens of text that invoke a skill with
// one of the prefix bytes in prefixes (InvocationPrefix, MentionPrefix or
// both), by the rules of Invocations, each with its arguments.
func Mentions(text, prefixes string) iter.Seq[Mention] {
	return func(yield func(Mention) bool) {
		var pending *Mention // the mention whose arguments run up to here
		argsFrom := 0
		flush := func(end int) bool {
			if pending == nil {
				return true
			}
			pending.Args = strings.TrimFunc(text[argsFrom:end], unicode.IsSpace)
			m := *pending
			pending = nil
			return yield(m)
		}
		for i := 0; i < len(text); {
			r, size := utf8.DecodeRuneInString(text[i:])
			if unicode.IsSpace(r) {
				if r == '\n' && !flush(i) {
					return
				}
				i += size
				continue
			}
			start := i
			for i < len(text) {
				r, size = utf8.DecodeRuneInString(text[i:])
				if unicode.IsSpace(r) {
					break
				}
				i += size
			}
			if name, ok := invokedName(text[start:i], prefixes); ok {
				if !flush(start) {
					return
				}
				pending, argsFrom = &Mention{Name: name}, i
			}
		}
		flush(len(text))
	}
}

// invokedName returns the skill name a token invokes, if it invokes one.
func invokedName(token, prefixes string) (string, bool) {
	if len(token) < 2 || strings.IndexByte(prefixes, token[0]) < 0 {
		return "", false
	}
	name := token[1:]
	return name, ValidBoundedName(name) || ValidQualifiedName(name)
}
