package mcpskills

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestNonUTF8SkillBodyIsRefused: a SKILL.md whose bytes are not UTF-8 (sent
// as a blob: JSON text carries UTF-8 only) is refused at load with the
// provider's error naming the skill, the server and the byte, as the Agent
// Skills provider refuses such a file on disk; never repaired. So for a
// server of the MCP Skills extension and for one serving an index.
func TestNonUTF8SkillBodyIsRefused(t *testing.T) {
	const latin1 = "# Caf\xe9\nServe coffee.\n" // "é" in Latin-1
	fm := map[string]any{"name": "cafe", "description": "Serve coffee."}
	ext := mcpfake.NewExt()
	ext.SetSkill(mcpfake.ExtSkill{URI: "skill://acme/cafe/SKILL.md", Frontmatter: fm, Body: latin1})
	extProvider, _ := newExtProvider(t, ext, Options{})
	idx := newMemServer()
	idx.SetSkill("cafe", "Serve coffee.", mcpfake.SkillMarkdown(fm, latin1))
	idxProvider := newMemProvider(t, idx, Options{Label: "docs"})

	for name, p := range map[string]*Provider{"extension": extProvider, "index": idxProvider} {
		t.Run(name, func(t *testing.T) {
			if _, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"}); err != nil {
				t.Fatal(err)
			}
			def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "cafe"})
			want := `mcpskills: skill "cafe" from MCP server "docs": SKILL.md is not valid UTF-8 (byte ` + strconv.Itoa(strings.Index(mcpfake.SkillMarkdown(fm, latin1), "\xe9")) + ` starts no UTF-8 sequence); not loaded`
			if err == nil || err.Error() != want || found {
				t.Fatalf("Load(cafe) = %q, %v, %v\nwant the error %s", def.Content, found, err, want)
			}
			if !errors.Is(err, skill.ErrInvalidUTF8) {
				t.Errorf("the error %v does not match skill.ErrInvalidUTF8", err)
			}
			if strings.Contains(def.Content, "\uFFFD") {
				t.Errorf("the body was repaired: %q", def.Content)
			}
		})
	}
}
