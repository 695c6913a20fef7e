package webskills

import (
	"context"
	"encoding/hex"

	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ContentDigest implements skills.ContentDigester. For a skill of a v0.2.0
// index it is the artifact's digest the index publishes, "sha256:" and its
// hexadecimal SHA-256 (what Load verifies the artifact against, and what
// the skills CLI records as wellKnownDigest); for a v0.1.0 skill, which
// has none, skilllock.FilesDigest of one file SKILL.md holding the
// instructions Load returns. It reads the session's listing, as Load does.
func (p *Provider) ContentDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	name, ok := p.plainName(req.Name)
	if !ok {
		return "", false, nil
	}
	l, err := p.sessionListing(ctx, req.SessionID)
	if err != nil {
		return "", false, p.skillError(req.Name, kindOf(err), "reading the index: %v", err)
	}
	e := l.ix.lookup(name)
	if e == nil {
		return "", false, nil
	}
	if e.HasDigest {
		return "sha256:" + hex.EncodeToString(e.Digest[:]), true, nil
	}
	def, found, err := p.Load(ctx, req)
	if err != nil || !found {
		return "", found, err
	}
	return skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(def.Content)}}), true, nil
}
