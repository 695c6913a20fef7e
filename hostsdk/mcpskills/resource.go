package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/skill"
)

var _ skills.ResourceReader = (*Provider)(nil)

// ReadSkillResource implements skills.ResourceReader: it reads
// skill://<name>/<path> through ReadResource, so the URI must be canonical
// (ValidateChildURI), the skill must be listed in the session's copy of the
// index, and the read goes through the session's view with its bounds.
// Each path segment is percent-encoded (every byte but unreserved ones, in
// upper-case hex). A text or blob resource larger than
// skill.MaxResourceBytes is refused.
func (p *Provider) ReadSkillResource(ctx context.Context, req skills.ResourceRequest) ([]byte, error) {
	uri := BaseURI(req.Name) + escapePath(req.Path)
	if err := ValidateChildURI(req.Name, uri); err != nil {
		return nil, fmt.Errorf("%w: %v", skills.ErrInvalidResourcePath, err)
	}
	c, err := p.ReadResource(ctx, req.SessionID, req.Name, uri)
	switch {
	case errors.Is(err, ErrUnknownSkill):
		return nil, skills.ErrSkillNotFound
	case errors.Is(err, ErrResourceNotFound):
		return nil, skills.ErrResourceNotFound
	case err != nil:
		return nil, err
	}
	if len(c.Text) > skill.MaxResourceBytes || len(c.Blob) > skill.MaxResourceBytes {
		return nil, skills.ErrResourceTooLarge
	}
	if c.Blob != nil {
		return c.Blob, nil
	}
	return []byte(c.Text), nil
}

// escapePath percent-encodes each byte of a slash-separated path that is
// not unreserved, keeping the slashes.
func escapePath(path string) string {
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c == '/' || isUnreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
