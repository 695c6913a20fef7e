package agentskills

import (
	"context"
	"io/fs"
	"os"

	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ContentDigest implements skills.ContentDigester: skilllock.TreeDigest of
// the directory of the skill the working directory's roots offer under
// req.Name, read as it is now (every file, whatever the frontmatter cache
// holds). found is false when no root offers it.
func (p *Provider) ContentDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	return p.digest(ctx, req, skilllock.TreeDigest)
}

// SkillsCLIDigest implements skills.SkillsCLIDigester: ContentDigest with
// the files in the skills CLI's order (skilllock.SkillsCLITreeDigest).
func (p *Provider) SkillsCLIDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	return p.digest(ctx, req, skilllock.SkillsCLITreeDigest)
}

func (p *Provider) digest(ctx context.Context, req skills.LoadRequest, tree func(fs.FS) (string, error)) (string, bool, error) {
	res, err := p.recentResolution(ctx, req.Cwd)
	if err != nil {
		return "", false, err
	}
	i, ok := res.byName[req.Name]
	if !ok {
		return "", false, nil
	}
	d, err := tree(os.DirFS(res.skills[i].Dir))
	if err != nil {
		return "", false, err
	}
	return d, true, nil
}

// maxRecentResolutions bounds the resolutions kept for ContentDigest.
const maxRecentResolutions = 256

// recentResolution is the latest resolution for cwd: the one a listing
// just made, so that digesting each skill it listed does not scan every
// root again (without Watch nothing is cached). The directories it names
// are hashed as they are now; one removed since fails to hash, and the
// skill is not served under a lock. It resolves when there is none.
func (p *Provider) recentResolution(ctx context.Context, cwd string) (*resolution, error) {
	clean, err := cleanCwd(cwd)
	if err != nil {
		return nil, err
	}
	_, key := p.locate(clean)
	p.mu.Lock()
	res := p.recent[key]
	p.mu.Unlock()
	if res != nil {
		return res, nil
	}
	return p.resolve(ctx, cwd, false)
}
