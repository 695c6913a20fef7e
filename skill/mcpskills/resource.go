package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

var _ skills.ResourceReader = (*Provider)(nil)

// ReadSkillResource implements skills.ResourceReader. req.Name is a plain
// or qualified name, as for Load.
//
// For a server that declares the MCP Skills extension, req.Path must be
// the path, relative to the skill's root, of a file listed in the held
// entry's manifest; that file's URI is read, only from this provider's
// server, and verified against the entry (see ReadResource). A path the
// manifest does not list is refused with an error that also matches
// skills.ErrResourceNotFound.
//
// Otherwise it reads skill://<name>/<path> through ReadResource, so the
// URI must be canonical (ValidateChildURI), the skill must be listed in the
// session's copy of the index, and the read goes through the session's
// view with its bounds. Each path segment is percent-encoded (every byte
// but unreserved ones, in upper-case hex).
//
// Either way a text or blob resource larger than skill.MaxResourceBytes is
// refused with skills.ErrResourceTooLarge. A file the manifest lists is
// read whole even when JSON escaping makes the server's answer up to six
// times its size (see MaxMessageBytes); without the extension, an answer
// over MaxMessageBytes is refused with skills.ErrResourceTooLarge too.
func (p *Provider) ReadSkillResource(ctx context.Context, req skills.ResourceRequest) ([]byte, error) {
	ctx, ext, err := p.loadsExtension(ctx, req.SessionID)
	if err != nil {
		return nil, p.san.wrapForModel("reading "+req.Path, err)
	}
	if ext {
		return p.readSkillResourceExt(ctx, req)
	}
	name, _ := p.indexName(req.Name)
	uri := BaseURI(name) + escapePath(req.Path)
	if err := ValidateChildURI(name, uri); err != nil {
		return nil, fmt.Errorf("%w: %v", skills.ErrInvalidResourcePath, err)
	}
	c, err := p.ReadResource(ctx, req.SessionID, name, uri)
	switch {
	case errors.Is(err, ErrUnknownSkill):
		return nil, skills.ErrSkillNotFound
	case errors.Is(err, ErrResourceNotFound):
		return nil, skills.ErrResourceNotFound
	case errors.Is(err, errMessageTooLarge):
		// Nothing states the file's size here, so the answer is bounded at
		// MaxMessageBytes, which JSON escaping lets a smaller file exceed.
		return nil, &Error{msg: err.Error(), kind: skills.ErrResourceTooLarge}
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

// escapePath percent-encodes each segment of a slash-separated path in
// the extension's canonical spelling, keeping the slashes.
func escapePath(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		segs[i] = skillsext.EncodeSegment(seg)
	}
	return strings.Join(segs, "/")
}
