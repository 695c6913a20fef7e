package agentskills

import "errors"

// Skip reasons: the short cause a Survey counts a skipped skill under, and
// the Reason of the diagnostic that reports it.
const (
	ReasonNoFrontmatter       = "no frontmatter"
	ReasonUnclosedFrontmatter = "unclosed frontmatter"
	ReasonLargeFrontmatter    = "frontmatter too large"
	ReasonInvalidYAML         = "invalid YAML"
	ReasonNotMapping          = "frontmatter not a mapping"
	ReasonMissingName         = "missing name"
	ReasonInvalidName         = "invalid name"
	ReasonMissingDescription  = "missing description"
	ReasonUnreadable          = "unreadable SKILL.md"
	ReasonMisspelledFile      = "SKILL.md misspelled"
)

// skipError is an error that keeps a skill from loading, with the short
// reason a Survey counts it under. Its text is the wrapped error's.
type skipError struct {
	reason string
	err    error
}

func (e *skipError) Error() string { return e.err.Error() }
func (e *skipError) Unwrap() error { return e.err }

// skipped returns err with the skip reason reason.
func skipped(reason string, err error) error { return &skipError{reason: reason, err: err} }

// errNotClosed is the parse error of frontmatter that the file ends in.
var errNotClosed = skipped(ReasonUnclosedFrontmatter, errors.New("frontmatter is not closed by a '---' line"))

// errNotMapping is the parse error of frontmatter that is YAML but not a
// mapping of fields.
var errNotMapping = skipped(ReasonNotMapping, errors.New("frontmatter is not a YAML mapping"))

// SkipReason returns the short reason why err, from ParseSkillFile,
// Frontmatter.Validate or reading a SKILL.md, keeps a skill from loading:
// one of the Reason constants. An error of no known kind is
// ReasonUnreadable.
func SkipReason(err error) string {
	var se *skipError
	switch {
	case errors.As(err, &se):
		return se.reason
	case errors.Is(err, errNoFrontmatter):
		return ReasonNoFrontmatter
	case errors.Is(err, errFrontmatterTooLarge):
		return ReasonLargeFrontmatter
	}
	return ReasonUnreadable
}
