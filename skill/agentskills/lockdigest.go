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
	res, err := p.resolve(ctx, req.Cwd, false)
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
