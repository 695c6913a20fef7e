package skill

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrInvalidUTF8 is matched by every *InvalidUTF8Error.
var ErrInvalidUTF8 = errors.New("text is not valid UTF-8")

// InvalidUTF8Error is a text that is not valid UTF-8: the plugin protocol's
// strings must be UTF-8 (gRPC refuses to send any other), so a host
// refuses such text where it enters, as a SKILL.md whose frontmatter is not
// UTF-8 is refused, rather than letting a later call fail in transit.
type InvalidUTF8Error struct {
	// Field names the text, for example "description".
	Field string
	// Offset is the position of the first byte that does not start a
	// valid UTF-8 sequence.
	Offset int
}

func (e *InvalidUTF8Error) Error() string {
	return fmt.Sprintf("%s is not valid UTF-8 (byte %d starts no UTF-8 sequence)", e.Field, e.Offset)
}

// Is makes the error match ErrInvalidUTF8.
func (e *InvalidUTF8Error) Is(target error) bool { return target == ErrInvalidUTF8 }

// CheckUTF8 returns an *InvalidUTF8Error naming field when s is not valid
// UTF-8, and nil when it is.
func CheckUTF8(field, s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return &InvalidUTF8Error{Field: field, Offset: i}
}

// CheckUTF8 reports the first text of the summary that is not valid UTF-8
// (an *InvalidUTF8Error naming its field), or nil.
func (s Summary) CheckUTF8() error {
	for _, f := range [...]struct{ name, text string }{
		{"name", s.Name}, {"description", s.Description}, {"provider", s.Provider}, {"origin", s.Origin},
		{"qualified name", s.QualifiedName}, {"argument hint", s.ArgumentHint}, {"when to use", s.WhenToUse},
		{"keywords", s.Keywords}, {"search text", s.SearchText},
	} {
		if err := CheckUTF8(f.name, f.text); err != nil {
			return err
		}
	}
	return nil
}

// CheckUTF8 reports the first text of the definition that is not valid
// UTF-8 (an *InvalidUTF8Error naming its field): its summary's, its
// instructions (field "content"), its resource base's or its directives';
// nil when all are.
func (d Definition) CheckUTF8() error {
	if err := d.Summary.CheckUTF8(); err != nil {
		return err
	}
	if err := CheckUTF8("content", d.Content); err != nil {
		return err
	}
	if rb := d.ResourceBase; rb != nil {
		for _, f := range [...]struct{ name, text string }{
			{"resource base path", rb.Path}, {"resource base URL", rb.URL}, {"resource base description", rb.Description}, {"resource base kind", string(rb.Kind)},
		} {
			if err := CheckUTF8(f.name, f.text); err != nil {
				return err
			}
		}
	}
	for _, n := range d.ArgumentNames {
		if err := CheckUTF8("argument name", n); err != nil {
			return err
		}
	}
	return d.Directives.CheckUTF8()
}
