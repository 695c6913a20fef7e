package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// searchMount is a mount with the skill-search tool.
func searchMount() mount {
	m := testMount()
	m.cfg.SearchTool = true
	return m
}

func searchCall(args string) contract.ToolCall {
	return contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", ToolName: contract.SearchToolName, SkillToolIdentity: identity, Arguments: json.RawMessage(args)}
}

func TestSearchToolArguments(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("pdf ", 257)
	for _, tc := range []struct {
		args string
		want render.ToolError
	}{
		{`{"query": "fill a form", "name": "x"}`, render.SearchUnexpectedArgument("name")},
		{`{"zeta": 1, "alpha": 2, "query": "q"}`, render.SearchUnexpectedArgument("alpha")},
		{`"pdf"`, render.SearchArgumentsOtherJSON(`"pdf"`)},
		{`null`, render.SearchArgumentsOtherJSON(`null`)},
		{`pdf forms`, render.SearchArgumentsNotObject("pdf forms")},
		{`{}`, render.SearchMissingQuery()},
		{`{"limit": 3}`, render.SearchMissingQuery()},
		{`{"query": null}`, render.SearchQueryNotString("null")},
		{`{"query": ["pdf"]}`, render.SearchQueryNotString(`["pdf"]`)},
		{`{"query": 7}`, render.SearchQueryNotString("7")},
		{`{"query": "` + long + `"}`, render.SearchQueryTooLong(len(long))},
		{`{"query": ""}`, render.SearchQueryEmpty()},
		{`{"query": "how do I use this"}`, render.SearchQueryEmpty()},
		{`{"query": "pdf", "limit": 0}`, render.SearchInvalidLimit("0")},
		{`{"query": "pdf", "limit": 11}`, render.SearchInvalidLimit("11")},
		{`{"query": "pdf", "limit": 2.5}`, render.SearchInvalidLimit("2.5")},
		{`{"query": "pdf", "limit": "3"}`, render.SearchInvalidLimit(`"3"`)},
		{`{"query": "pdf", "limit": null}`, render.SearchInvalidLimit("null")},
	} {
		h := newMemHost(summary("pdf-forms", "Fill PDF forms."))
		res, err := newEngine().executeSearchTool(context.Background(), h, searchMount(), searchCall(tc.args))
		if err != nil || !res.IsError || res.Text != string(tc.want) || res.Search != nil {
			t.Errorf("%s: %+v, %v; want the error %q", tc.args, res, err, tc.want)
		}
		if h.snapshots > 0 && tc.want != render.SearchQueryEmpty() {
			t.Errorf("%s: refused arguments asked the host for a snapshot", tc.args)
		}
	}
	// The bounds themselves are accepted.
	h := newMemHost(summary("pdf-forms", "Fill PDF forms."))
	for _, args := range []string{`{"query": "pdf", "limit": 1}`, `{"query": "pdf", "limit": 10}`, `{"query": "pdf", "limit": 1e1}`, `{"query": "` + strings.Repeat("p", 1024) + `"}`} {
		if res, err := newEngine().executeSearchTool(context.Background(), h, searchMount(), searchCall(args)); err != nil || res.IsError {
			t.Errorf("%s: %+v, %v", args[:min(len(args), 40)], res, err)
		}
	}
}

// searchLibrary holds skills of every kind a snapshot lists: the host's
// own, a website's, one the model may not invoke, and ones the catalog
// does not list at all.
func searchLibrary() []skill.Summary {
	web := summary("wrangler", "Deploy a Worker to the edge with Wrangler.")
	web.Origin, web.OriginKind = "docs", skill.OriginWebsite
	userOnly := summary("deploy-secrets", "Deploy secrets to production.")
	userOnly.Invocation.ModelInvocable = false
	badOrigin := summary("deploy-evil", "Deploy anything anywhere.")
	badOrigin.Origin = "not a label!"
	return []skill.Summary{
		summary("deploy-preview", "Deploy a preview of the branch and post its link."),
		userOnly,
		badOrigin,
		summary("pdf-forms", "Fill PDF forms."),
		web,
		{Name: "Bad Name", Description: "Deploy with a name nobody can load.", Invocation: skill.DefaultPolicy()},
	}
}

func TestSearchToolFindsWhatTheCatalogLists(t *testing.T) {
	t.Parallel()
	h := newMemHost(searchLibrary()...)
	e := newEngine()
	res, err := e.executeSearchTool(context.Background(), h, searchMount(), searchCall(`{"query": "deploy to the edge"}`))
	if err != nil || res.IsError {
		t.Fatalf("%+v, %v", res, err)
	}
	var got []string
	for _, hit := range res.Search.Hits {
		got = append(got, hit.Name)
	}
	if diff := cmp.Diff([]string{"wrangler", "deploy-preview"}, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	w := res.Search.Hits[0]
	if w.Origin != "docs" || w.OriginKind != skill.OriginWebsite || w.Description != "Deploy a Worker to the edge with Wrangler." || w.Score <= res.Search.Hits[1].Score {
		t.Errorf("first hit %+v", w)
	}
	if !strings.Contains(res.Text, "-`wrangler` (website `docs`): Deploy a Worker") || !strings.Contains(res.Text, render.WebsiteSkillsNote) {
		t.Errorf("text:\n%s", res.Text)
	}
	// The same skills and query give the same answer, from a fresh plugin
	// too.
	again, _ := newEngine().executeSearchTool(context.Background(), h, searchMount(), searchCall(`{"query": "deploy to the edge"}`))
	if diff := cmp.Diff(res, again); diff != "" {
		t.Errorf("a second search differs (-first +second):\n%s", diff)
	}
	one, _ := e.executeSearchTool(context.Background(), h, searchMount(), searchCall(`{"query": "deploy to the edge", "limit": 1}`))
	if len(one.Search.Hits) != 1 || one.Search.Hits[0].Name != "wrangler" {
		t.Errorf("limit 1: %+v", one.Search)
	}
	none, _ := e.executeSearchTool(context.Background(), h, searchMount(), searchCall(`{"query": "zebra"}`))
	if none.IsError || len(none.Search.Hits) != 0 || none.Text != render.SearchResults("zebra", nil) {
		t.Errorf("no match: %+v", none)
	}
}

// TestSearchToolFindsWhatABudgetLeftOut: the skills a budget keeps out of
// the catalog are what the search is for.
func TestSearchToolFindsWhatABudgetLeftOut(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for i := range 40 {
		skills = append(skills, summary(fmt.Sprintf("skill-%02d", i), fmt.Sprintf("Handles chore %d of the release.", i)))
	}
	skills = append(skills, summary("zz-tax-returns", "Prepare tax returns."))
	h := newMemHost(skills...)
	m := searchMount()
	m.cfg.CatalogBudget = 300
	e := newEngine()
	resp := mustPreStep(t, e, h, m, step(h, enter()))
	text := resp.Edits[0].Message.Content[0].Text
	if strings.Contains(text, "zz-tax-returns") || !strings.Contains(text, "call `skill_search` with what the task needs to find them") {
		t.Fatalf("catalog:\n%s", text)
	}
	res, err := e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "tax returns"}`))
	if err != nil || len(res.Search.Hits) == 0 || res.Search.Hits[0].Name != "zz-tax-returns" || res.Search.Hits[0].Description != "Prepare tax returns." {
		t.Errorf("search: %+v, %v", res.Search, err)
	}
}

func TestSearchToolIncompleteSnapshot(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("pdf-forms", "Fill PDF forms."))
	h.complete = false
	res, err := newEngine().executeSearchTool(context.Background(), h, searchMount(), searchCall(`{"query": "pdf"}`))
	if err != nil || !res.IsError || res.Text != string(render.SearchIncomplete()) {
		t.Errorf("%+v, %v", res, err)
	}
}

// TestSearchToolAnswersFromTheCache: a call that names the snapshot the
// plugin holds costs no callback.
func TestSearchToolAnswersFromTheCache(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("pdf-forms", "Fill PDF forms."))
	e := newEngine()
	mustPreStep(t, e, h, searchMount(), step(h, enter()))
	before := h.snapshots
	call := searchCall(`{"query": "pdf"}`)
	call.SnapshotToken = h.token
	if res, err := e.executeSearchTool(context.Background(), h, searchMount(), call); err != nil || len(res.Search.Hits) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if h.snapshots != before {
		t.Errorf("%d snapshot callbacks for a call naming the snapshot held", h.snapshots-before)
	}
}

// TestSearchToolThroughTheCore: the tool is registered only by a mount
// with the option, and answers only an agent whose `skill` is the mount's.
func TestSearchToolThroughTheCore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newMemHost(summary("pdf-forms", "Fill PDF forms."))
	c := New(nil)
	plain, err := c.Configure(ctx, h, contract.ConfigureRequest{})
	if err != nil {
		t.Fatal(err)
	}
	with, err := c.Configure(ctx, h, contract.ConfigureRequest{Config: `{"searchTool": true}`})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Tools) != 1 || len(with.Tools) != 2 || with.Tools[1].Name != contract.SearchToolName || with.Tools[1].Description != render.SearchToolDescription {
		t.Fatalf("tools %+v and %+v", plain.Tools, with.Tools)
	}
	for _, id := range []string{plain.MountID, with.MountID} {
		if err := c.BindTools(ctx, id, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
			t.Fatal(err)
		}
	}
	call := searchCall(`{"query": "pdf"}`)
	call.MountID = plain.MountID
	if res, _ := c.ExecuteSkillTool(ctx, call); res.Text != string(render.UnknownTool(contract.SearchToolName)) {
		t.Errorf("a mount without the tool: %+v", res)
	}
	call.MountID = with.MountID
	call.SkillToolIdentity = "someone-else"
	if res, _ := c.ExecuteSkillTool(ctx, call); res.Text != string(render.SearchWithoutSkill()) {
		t.Errorf("an agent whose skill tool is another: %+v", res)
	}
	call.SkillToolIdentity = identity
	if res, err := c.ExecuteSkillTool(ctx, call); err != nil || res.IsError || len(res.Search.Hits) != 1 {
		t.Errorf("the mount's own agent: %+v, %v", res, err)
	}
}

// TestSkillToolAnswersFromTheCache: a `skill` call that names the snapshot
// the plugin holds checks its listing without a Snapshot callback.
func TestSkillToolAnswersFromTheCache(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("pdf-forms", "Fill PDF forms."))
	h.defs["pdf-forms"] = testDefinition("pdf-forms", "Fill them.")
	e := newEngine()
	mustPreStep(t, e, h, testMount(), step(h, enter()))
	before := h.snapshots
	call := contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", SnapshotToken: h.token, Arguments: json.RawMessage(`{"name":"pdf-forms"}`)}
	if res, err := e.executeSkillTool(context.Background(), h, testMount(), call); err != nil || res.IsError {
		t.Fatalf("%+v, %v", res, err)
	}
	call.Arguments = json.RawMessage(`{"name":"no-such-skill"}`)
	if res, _ := e.executeSkillTool(context.Background(), h, testMount(), call); res.Text != string(render.UnknownSkill("no-such-skill")) {
		t.Errorf("an unlisted name: %+v", res)
	}
	if h.snapshots != before {
		t.Errorf("%d snapshot callbacks for calls naming the snapshot held", h.snapshots-before)
	}
}
