package webskills

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// MaxErrorBytes bounds the message of every error and diagnostic the
// provider returns.
const MaxErrorBytes = 300

// Errors a caller can tell apart with errors.Is.
var (
	// ErrClosed is returned by calls on a closed Provider.
	ErrClosed = errors.New("webskills: provider closed")
	// ErrVerification is matched by the error of a load or read refused
	// because an artifact's bytes do not match the digest in the index, or
	// its SKILL.md does not name the skill the index names.
	ErrVerification = errors.New("webskills: the site's content does not match its index")
)

// Error is the error type of the provider's failures: one line of at most
// MaxErrorBytes bytes, with control characters removed. It holds no text
// the site wrote: an HTTP error is named by its status, never by its page.
// Unwrap reports what the error is: context cancellation or deadline,
// ErrClosed, ErrVerification, an archive refusal (ErrArchive and its
// kind), a SKILL.md that is not UTF-8 (skill.ErrInvalidUTF8), or one of the
// skills package's resource errors.
type Error struct {
	msg  string
	kind error
}

func (e *Error) Error() string { return e.msg }

// Unwrap returns what the error is (see Error), or nil.
func (e *Error) Unwrap() error { return e.kind }

// kindOf picks out of err what Unwrap reports.
func kindOf(err error) error {
	var ae *archiveError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, context.Canceled):
		return context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return context.DeadlineExceeded
	case errors.Is(err, ErrClosed):
		return ErrClosed
	case errors.Is(err, ErrVerification):
		return ErrVerification
	}
	return nil
}

// siteError is an error about the site as a whole (a listing):
// `webskills: website "<label>" (<url>): <what>: <err>`.
func (p *Provider) siteError(what string, err error) error {
	msg := fmt.Sprintf("webskills: website %q (%s): %s: %v", p.cfg.Label, p.site.Redacted(), what, err)
	return &Error{msg: skillsext.OneLine(msg, MaxErrorBytes), kind: kindOf(err)}
}

// skillError is an error about one skill of the site, naming both:
// `webskills: skill "<name>" from website "<label>": <what>`. Its text
// reaches the model as the tool's error.
func (p *Provider) skillError(name string, kind error, format string, args ...any) error {
	head := fmt.Sprintf("webskills: skill %q from website %q: ", skillsext.Clip(name, 128), p.cfg.Label)
	return &Error{msg: skillsext.OneLine(head+fmt.Sprintf(format, args...), MaxErrorBytes), kind: kind}
}
