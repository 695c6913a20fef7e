package skillgenkit_test

import (
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
	"github.com/skillcatalog/skillcatalog/render"
)

func toolNamesOf(req request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Name)
	}
	return out
}

// TestToolGrantsThroughGenkitsLoop: with the host's enforced grants, once
// the model loads a skill whose disallowed-tools name web_fetch, Genkit's
// own tool loop offers the model the tools without it, and a call of it
// (its function wrapped in Guard) is answered with the refusal naming the
// skill, the function never run; the next user turn offers it again and
// runs it.
func TestToolGrantsThroughGenkitsLoop(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "release", "SKILL.md"),
		"---\nname: release\ndescription: Cuts a release.\ndisallowed-tools: web_fetch\n---\nCut the release.\n")
	f := newFixtureWith(t, hostsdk.OpenOptions{SkillDirs: []string{dir}, ToolGrants: hostsdk.ToolGrantsEnforce})
	c := f.conv
	var runs atomic.Int32
	fetch := genkit.DefineTool(c.g, "web_fetch", "Fetches a page.", skillgenkit.Guard(c.skills, "web_fetch",
		func(*ai.ToolContext, struct{}) (string, error) {
			runs.Add(1)
			return "the page", nil
		}))
	turn := func(user string) {
		t.Helper()
		c.history = append(c.history, ai.NewUserTextMessage(user))
		resp, err := genkit.Generate(skillgenkit.WithSession(t.Context(), c.id), c.g, ai.WithModel(c.model.model),
			ai.WithMessages(c.history...), ai.WithTools(append(c.skills.Tools(), fetch)...), ai.WithMiddleware(c.skills.Middleware()))
		if err != nil {
			t.Fatalf("turn %q: %v", user, err)
		}
		c.history = resp.History()
	}

	c.model.queue(toolCall("skill", map[string]any{"name": "release"}), toolCall("web_fetch", map[string]any{}), answer("Released."))
	turn("Cut a release.")
	reqs := c.model.allRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3", len(reqs))
	}
	if got := toolNamesOf(reqs[0]); !slices.Contains(got, "web_fetch") {
		t.Errorf("before the skill: offered %q", got)
	}
	if got := toolNamesOf(reqs[1]); slices.Contains(got, "web_fetch") || !slices.Contains(got, "skill") {
		t.Errorf("while release is active: offered %q", got)
	}
	if got, want := lastToolResult(t, reqs[2]), render.GrantRefusal("web_fetch", "release", false); got != want {
		t.Errorf("the refused call's result is %q, want %q", got, want)
	}
	if runs.Load() != 0 {
		t.Error("the withheld tool ran")
	}

	c.model.queue(toolCall("web_fetch", map[string]any{}), answer("Fetched."))
	turn("Now fetch the page.")
	reqs = c.model.allRequests()
	if got := toolNamesOf(reqs[3]); !slices.Contains(got, "web_fetch") {
		t.Errorf("after the turn: offered %q", got)
	}
	if runs.Load() != 1 || lastToolResult(t, reqs[4]) != "the page" {
		t.Errorf("after the turn the tool ran %d times, result %q", runs.Load(), lastToolResult(t, reqs[4]))
	}
}
