package agentskills

import (
	"context"
	"os"

	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ContentDigest implements skills.ContentDigester: skilllock.TreeDigest of
// the directory of the skill the working directory's roots offer under
// req.Name, read as it is now (every file, whatever the frontmatter cache
// holds). found is false when no root offers it.
func (p *Provider) ContentDigest(ctx context.Context, req skills.LoadRequest) (string, bool, error) {
	res, err := p.resolve(ctx, req.Cwd, false)
	if err != nil {
		return "", false, err
	}
	i, ok := res.byName[req.Name]
	if !ok {
		return "", false, nil
	}
	d, err := skilllock.TreeDigest(os.DirFS(res.skills[i].Dir))
	if err != nil {
		return "", false, err
	}
	return d, true, nil
}
