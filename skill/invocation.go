package skill

import (
	"iter"
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
		for i := 0; i < len(text); {
			// Skip whitespace up to the next token.
			r, size := utf8.DecodeRuneInString(text[i:])
			if unicode.IsSpace(r) {
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
			if name, ok := invokedName(text[start:i]); ok && !yield(name) {
				return
			}
		}
	}
}

// invokedName returns the skill name a token invokes, if it invokes one.
func invokedName(token string) (string, bool) {
	if len(token) < 2 || token[0] != InvocationPrefix {
		return "", false
	}
	name := token[1:]
	return name, ValidBoundedName(name) || ValidQualifiedName(name)
}
