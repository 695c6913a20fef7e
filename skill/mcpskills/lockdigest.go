package mcpskills

import (
	"context"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ContentDigest implements skills.ContentDigester. For a server that
// declares the MCP Skills extension it is skilllock.ManifestDigest of the
// files the skill's entry lists, with the digests the server publishes
// for them (the ones a load verifies), and the entry is held for the
// session as a load holds it; otherwise skilllock.FilesDigest of one file
// SKILL.md holding the instructions Load returns.
func (p *Provider) ContentDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	ctx, ext, err := p.loadsExtension(ctx, req.SessionID)
	if err != nil {
		return "", false, p.san.wrapForModel("digesting skill "+req.Name, err)
	}
	if !ext {
		def, found, err := p.Load(ctx, req)
		if err != nil || !found {
			return "", found, err
		}
		return skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(def.Content)}}), true, nil
	}
	e, found, err := p.entryFor(ctx, req.SessionID, req.Name)
	if err != nil || !found {
		return "", found, err
	}
	files := make([]skilllock.ManifestFile, len(e.Files))
	for i, f := range e.Files {
		files[i] = skilllock.ManifestFile{Path: f.Path, Digest: skillsext.FormatDigest(f.Digest)}
	}
	return skilllock.ManifestDigest(files), true, nil
}
