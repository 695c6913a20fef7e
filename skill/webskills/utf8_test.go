package webskills

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestNonUTF8SkillFileIsRefused: a SKILL.md whose bytes are not UTF-8
// (here a verified one: the digest is of those bytes) is refused at load
// with the provider's error naming the skill, the site and the byte, as the
// Agent Skills provider refuses such a file on disk; never repaired, and
// not cached.
func TestNonUTF8SkillFileIsRefused(t *testing.T) {
	md := []byte("---\nname: cafe\ndescription: Serve coffee.\n---\n# Caf\xe9\nServe coffee.\n") // "é" in Latin-1
	h := newHostileSite()
	h.add("cafe", skillsext.TypeSkillMD, "/cafe/SKILL.md", "text/markdown", md, md)
	p := newTestProvider(t, h.serve(t).URL)
	list(t, p)
	def, _, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Cwd: "/w", Name: "cafe"})
	body := def.Content
	want := `webskills: skill "cafe" from website "docs": SKILL.md is not valid UTF-8 (byte ` +
		strconv.Itoa(strings.IndexByte(string(md), 0xe9)) + ` starts no UTF-8 sequence); not loaded`
	if err == nil || err.Error() != want {
		t.Fatalf("Load(cafe) = %q, %v\nwant the error %s", body, err, want)
	}
	if !errors.Is(err, skill.ErrInvalidUTF8) {
		t.Errorf("the error %v does not match skill.ErrInvalidUTF8", err)
	}
	if n := p.artifacts.Len(); n != 0 {
		t.Errorf("%d refused artifacts cached", n)
	}
}
